/**
 * Secrets Manager's GetSecretValue at the wire (@aws-sdk/client-secrets-manager answered at the
 * SDK's HTTP handler), and the Stripe keys read from it once per cold start
 * (functions/adapters/payments/stripe-keys.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretsManagerClient, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { createStripeKeysLoader, parseStripeKeys } from '../../../functions/adapters/payments/stripe-keys';
import { jsonError, jsonResponse, stubHttp, type SentRequest } from '../../helpers/http-stub';

let calls: SentRequest[];
let restore: () => void;
let answer: (req: SentRequest) => Response;
const client = new SecretsManagerClient({ region: 'ap-southeast-1' });
const sm = { getSecretValue: (input: { SecretId: string }) => client.send(new GetSecretValueCommand(input)) };
const KEYS = { secretKey: 'sk_live_abc', publishableKey: 'pk_live_abc', webhookSecret: 'whsec_abc' };

beforeEach(() => {
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
  answer = () =>
    jsonResponse({
      ARN: 'arn:aws:secretsmanager:ap-southeast-1:123456789012:secret:sendbridge/stripe-AbCdEf',
      Name: 'sendbridge/stripe',
      SecretString: JSON.stringify(KEYS),
    });
  ({ calls, restore } = stubHttp((req) => answer(req)));
});

afterEach(() => restore());

describe('GetSecretValue', () => {
  it('POSTs the JSON 1.1 operation to the regional endpoint, signed for secretsmanager', async () => {
    const out = await sm.getSecretValue({ SecretId: 'sendbridge/stripe' });
    expect(out.SecretString).toBe(JSON.stringify(KEYS));
    const [req] = calls;
    expect(req!.method).toBe('POST');
    expect(req!.url.href).toBe('https://secretsmanager.ap-southeast-1.amazonaws.com/');
    expect(req!.headers.get('x-amz-target')).toBe('secretsmanager.GetSecretValue');
    expect(req!.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(req!.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=unit\/\d{8}\/ap-southeast-1\/secretsmanager\/aws4_request/u,
    );
    expect(req!.json()).toEqual({ SecretId: 'sendbridge/stripe' });
  });

  it("names AWS's error as the SDK does", async () => {
    answer = () => jsonError(400, 'ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    await expect(sm.getSecretValue({ SecretId: 'nope' })).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      $metadata: { httpStatusCode: 400 },
    });
  });
});

describe('the Stripe keys', () => {
  it('are read once, even by concurrent first callers, and kept', async () => {
    const keys = createStripeKeysLoader('sendbridge/stripe', () => sm);
    expect(keys.current).toBeUndefined();
    const [a, b] = await Promise.all([keys.load(), keys.load()]);
    expect(a).toEqual(KEYS);
    expect(b).toEqual(KEYS);
    await keys.load();
    expect(calls).toHaveLength(1);
    expect(keys.current?.publishableKey).toBe('pk_live_abc');
  });

  it('a failed read is tried again on the next call; errors name the secret, never its content', async () => {
    answer = () => jsonError(400, 'AccessDeniedException', 'not allowed');
    const keys = createStripeKeysLoader('sendbridge/stripe', () => sm);
    await expect(keys.load()).rejects.toMatchObject({ name: 'AccessDeniedException' });
    answer = () => jsonResponse({ SecretString: JSON.stringify({ ...KEYS, secretKey: 'oops-not-a-key' }) });
    const err = (await keys.load().catch((e: unknown) => e)) as Error;
    expect(err.message).toContain('sendbridge/stripe');
    expect(err.message).not.toContain('oops-not-a-key');
    answer = () => jsonResponse({ SecretString: JSON.stringify(KEYS) });
    expect(await keys.load()).toEqual(KEYS);
  });

  it('must be JSON with a secret (or restricted) key, a publishable key and a webhook secret', () => {
    expect(parseStripeKeys('s', JSON.stringify({ ...KEYS, secretKey: 'rk_test_x' })).secretKey).toBe('rk_test_x');
    for (const bad of [
      undefined,
      'nope',
      '{}',
      JSON.stringify({ ...KEYS, publishableKey: 'sk_live_x' }),
      JSON.stringify({ ...KEYS, webhookSecret: 'secret' }),
    ]) {
      expect(() => parseStripeKeys('sendbridge/stripe', bad)).toThrow(/sendbridge\/stripe/u);
    }
  });
});
