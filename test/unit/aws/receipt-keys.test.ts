/**
 * The receipt signing keys in Secrets Manager, at the wire (the SDK answered at its HTTP handler
 * by a stand-in that keeps versions as Secrets Manager does: a second PutSecretValue with the
 * same ClientRequestToken and other content is refused with ResourceExistsException). The first
 * key is made on first use, and concurrent first users end up with the one key that was stored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretKeyStore, writeTokenOf } from '../../../functions/adapters/receipt-keys';
import { ensureKeySet, parseStoredKeySet, rotateReceiptKey } from '../../../functions/services/receipts';
import { jsonError, jsonResponse, stubHttp, type SentRequest } from '../../helpers/http-stub';

const SECRET = 'arn:aws:secretsmanager:ap-southeast-1:123456789012:secret:ReceiptSigningKeys-AbCdEf';
let calls: SentRequest[];
let restore: () => void;
let current: string;
let versions: Map<string, string>;

beforeEach(() => {
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
  process.env.AWS_REGION = 'ap-southeast-1';
  // what CDK creates: no key, and the field its generated value needs
  current = JSON.stringify({ keys: [], created: 'Q1w2E3r4T5y6U7i8' });
  versions = new Map();
  ({ calls, restore } = stubHttp((req) => {
    const body = req.json<{ SecretId: string; SecretString?: string; ClientRequestToken?: string }>();
    if (body.SecretId !== SECRET) return jsonError(400, 'ResourceNotFoundException', 'no such secret');
    if (req.target === 'GetSecretValue') return jsonResponse({ ARN: SECRET, SecretString: current });
    if (req.target === 'PutSecretValue') {
      const token = body.ClientRequestToken!;
      const seen = versions.get(token);
      if (seen !== undefined && seen !== body.SecretString)
        return jsonError(400, 'ResourceExistsException', 'A resource with the ID you requested already exists.');
      versions.set(token, body.SecretString!);
      current = body.SecretString!;
      return jsonResponse({ ARN: SECRET, VersionId: token });
    }
    return jsonError(400, 'InvalidRequestException', `unexpected ${req.target}`);
  }));
});

afterEach(() => restore());

describe('receipt keys in Secrets Manager', () => {
  it('stores the first key with a token that is the hash of the value it replaces', async () => {
    const before = current;
    const set = await ensureKeySet(secretKeyStore(SECRET));
    const put = calls.find((c) => c.target === 'PutSecretValue')!;
    expect(put.headers.get('x-amz-target')).toBe('secretsmanager.PutSecretValue');
    expect(put.json()).toMatchObject({ SecretId: SECRET, ClientRequestToken: writeTokenOf(before) });
    expect(parseStoredKeySet(current)).toEqual(set);
    // a second start reads the stored key and writes nothing
    const again = await ensureKeySet(secretKeyStore(SECRET));
    expect(again).toEqual(set);
    expect(calls.filter((c) => c.target === 'PutSecretValue')).toHaveLength(1);
  });

  it('leaves concurrent first users with the one key that was stored', async () => {
    const sets = await Promise.all([1, 2, 3].map(() => ensureKeySet(secretKeyStore(SECRET))));
    const stored = parseStoredKeySet(current)!;
    expect(stored.keys).toHaveLength(1);
    for (const set of sets) expect(set).toEqual(stored);
  });

  it('rotates by adding a key, keeping the old ones', async () => {
    const first = await ensureKeySet(secretKeyStore(SECRET));
    const rotated = await rotateReceiptKey(secretKeyStore(SECRET));
    expect(rotated.keys.map((k) => k.kid)).toEqual([first.active, rotated.active]);
    expect(parseStoredKeySet(current)).toEqual(rotated);
  });

  it('passes on errors other than a lost race', async () => {
    await expect(ensureKeySet(secretKeyStore(`${SECRET}x`))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});
