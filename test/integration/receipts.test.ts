/**
 * Signed delivery receipts against the local stack: the sender lists a transfer's deliveries
 * and downloads each one's receipt, signed with the key the stack made on first use and
 * published at /api/receipts/keys; `sendbridge receipt verify` accepts the file as downloaded,
 * online and offline, and refuses it once one byte changed; a rotation keeps old receipts valid.
 * Deliveries are written with the deliveries module directly (detecting them is not this file's).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import { putDelivery } from '../../functions/data/deliveries';
import type { DeliveryRecord } from '../../functions/domain/delivery';
import { parseKeySet, verifyReceiptText } from '../../functions/domain/receipt';
import type { ReceiptDocument } from '../../functions/domain/receipt-format';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { fileKeyStore } from '../../functions/adapters/receipt-keys';
import { ENV } from '../../functions/lib/env-names';
import {
  deliveredWebhookPayload,
  resetReceiptKeyCache,
  rotateReceiptKey,
  signDelivery,
} from '../../functions/services/receipts';
import { buildCli, runCli } from '../helpers/cli-runner';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, json, randomData, sendFiles, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;
let t: CreateTransferResponse;
const work = mkdtempSync(path.join(tmpdir(), 'sendbridge-receipts-'));
const place = { cwd: work, home: work, configDir: path.join(work, 'config') };

const deliveryOf = (slug: string, deliveryId: string, extra: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  slug,
  deliveryId,
  startedAt: Date.UTC(2026, 10, 28, 10, 0, 0),
  at: Date.UTC(2026, 10, 28, 10, 0, 42),
  what: 'zip',
  recipient: { kind: 'verified', email: 'reader@example.com' },
  countryCode: 'DE',
  files: [
    { fileId: 'f1', path: 'docs/contract.pdf', size: 2048, sha256: 'ab'.repeat(32) },
    { fileId: 'f2', path: 'notes.txt', size: 5 },
  ],
  bytes: 2301,
  servedWhole: true,
  ...extra,
});

beforeAll(async () => {
  buildCli();
  app = await startTestApp();
  [alice, bob] = await Promise.all([
    createUser(app, 'receipts.alice@example.com'),
    createUser(app, 'receipts.bob@example.com'),
  ]);
  t = await sendFiles(app, alice, new Map([['docs/contract.pdf', randomData(2048)]]));
  expect(await putDelivery(deliveryOf(t.id, '0193a1b2-c3d4-7e5f-8a9b-000000000001'))).toBe(true);
  expect(
    await putDelivery(
      deliveryOf(t.id, '0193a1b2-c3d4-7e5f-8a9b-000000000002', {
        what: 'file',
        recipient: { kind: 'link' },
        countryCode: 'XX',
        files: [{ fileId: 'f1', path: 'docs/contract.pdf', size: 2048, sha256: 'ab'.repeat(32) }],
        bytes: 2048,
        servedWhole: false,
      }),
    ),
  ).toBe(true);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  rmSync(work, { recursive: true, force: true });
});

const receiptPath = (deliveryId: string) => `/transfers/${t.id}/deliveries/${deliveryId}/receipt`;

async function downloadReceipt(deliveryId: string): Promise<string> {
  const res = await api(app, receiptPath(deliveryId), { headers: bearer(alice) });
  expect(res.status, res.text).toBe(200);
  return res.text;
}

describe('the sender’s deliveries and receipts', () => {
  it('lists the transfer’s deliveries for its sender, and nobody else', async () => {
    const res = await api(app, `/transfers/${t.id}/deliveries`, { headers: bearer(alice) });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      more: false,
      deliveries: [
        expect.objectContaining({
          deliveryId: '0193a1b2-c3d4-7e5f-8a9b-000000000001',
          what: 'zip',
          recipient: { kind: 'verified', email: 'reader@example.com' },
          fileCount: 2,
          servedWhole: true,
        }),
        expect.objectContaining({ what: 'file', fileName: 'docs/contract.pdf', recipient: { kind: 'link' } }),
      ],
    });
    const other = await api(app, `/transfers/${t.id}/deliveries`, { headers: bearer(bob) });
    expect(other.status).toBe(403);
    expect(other.text).not.toContain('reader@example.com');
  });

  it('downloads a receipt as a JSON attachment that verifies with the published keys', async () => {
    const res = await api(app, receiptPath('0193a1b2-c3d4-7e5f-8a9b-000000000001'), { headers: bearer(alice) });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="sendbridge-receipt-${t.id}-0193a1b2-c3d4-7e5f-8a9b-000000000001.json"`,
    );
    const doc = res.json as ReceiptDocument;
    expect(doc.receipt).toMatchObject({
      transfer: t.id,
      issuer: app.stack.env[ENV.appOrigin],
      deliveredAt: '2026-11-28T10:00:42.000Z',
      country: 'DE',
      files: [
        { path: 'docs/contract.pdf', size: 2048, sha256: 'ab'.repeat(32) },
        { path: 'notes.txt', size: 5, sha256: null },
      ],
    });
    const keys = await api(app, '/receipts/keys');
    expect(keys.status).toBe(200);
    expect(keys.headers.get('content-type')).toBe('application/jwk-set+json');
    const check = await verifyReceiptText(res.text, parseKeySet(keys.text)!);
    expect(check).toMatchObject({ ok: true, receipt: doc.receipt });
  });

  it('refuses the receipt to anyone but the sender, and an unknown delivery with its code', async () => {
    const id = '0193a1b2-c3d4-7e5f-8a9b-000000000001';
    expect((await api(app, receiptPath(id), { headers: bearer(bob) })).status).toBe(403);
    expect((await api(app, receiptPath(id))).status).toBe(401);
    const unknown = await api(app, receiptPath('0193a1b2-c3d4-7e5f-8a9b-0000000000ff'), { headers: bearer(alice) });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('transfer_delivery_not_found');
    const bad = await api(app, `/transfers/${t.id}/deliveries/not a valid id!/receipt`, { headers: bearer(alice) });
    expect(bad.status).toBe(400);
  });
});

describe('sendbridge receipt verify', () => {
  it('accepts the receipt as downloaded, with the deployment’s keys, and says what it proves', async () => {
    const file = path.join(work, 'receipt.json');
    writeFileSync(file, await downloadReceipt('0193a1b2-c3d4-7e5f-8a9b-000000000001'));
    const run = await runCli(['receipt', 'verify', file, '--api', app.apiOrigin], place);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('VALID receipt');
    expect(run.stdout).toContain("still holds this delivery's record, as signed");
    expect(run.stdout).toContain('reader@example.com');
    expect(run.stdout).toContain('It does not prove:');
  });

  it('refuses it after one byte is changed, in the readable part or in the signature', async () => {
    const text = await downloadReceipt('0193a1b2-c3d4-7e5f-8a9b-000000000001');
    const changedCountry = text.replace('"country": "DE"', '"country": "DF"');
    expect(changedCountry.length).toBe(text.length);
    const jwsEnd = text.indexOf('"', text.indexOf('"jws": "') + 8) - 3;
    const changedSignature = text.slice(0, jwsEnd) + (text[jwsEnd] === 'A' ? 'B' : 'A') + text.slice(jwsEnd + 1);
    for (const [name, changed, code] of [
      ['country.json', changedCountry, 'receipt_mismatch'],
      ['signature.json', changedSignature, 'receipt_bad_signature'],
    ] as const) {
      const file = path.join(work, name);
      writeFileSync(file, changed);
      const run = await runCli(['receipt', 'verify', file, '--api', app.apiOrigin], place);
      expect(run.code, run.stdout + run.stderr).toBe(6);
      expect(run.stdout).toContain(`INVALID receipt`);
      expect(run.stdout).toContain(code);
    }
  });

  it('checks offline against a saved key set, asking no server', async () => {
    const file = path.join(work, 'offline.json');
    const keysFile = path.join(work, 'keys.json');
    writeFileSync(file, await downloadReceipt('0193a1b2-c3d4-7e5f-8a9b-000000000002'));
    writeFileSync(keysFile, (await api(app, '/receipts/keys')).text);
    // nothing listens on port 9 of loopback: a request would fail with exit 4
    const run = await runCli(
      ['receipt', 'verify', file, '--keys', keysFile, '--api', 'http://127.0.0.1:9', '--json'],
      place,
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.events[0]).toMatchObject({ valid: true, receipt: { recipient: { kind: 'link' }, servedWhole: false } });
    const other = path.join(work, 'other-keys.json');
    writeFileSync(other, JSON.stringify({ keys: [] }));
    const refused = await runCli(['receipt', 'verify', file, '--keys', other, '--json'], place);
    expect(refused.code).toBe(6);
    expect(refused.events[0]).toEqual({ valid: false, code: 'receipt_unknown_key', keys: other });
  });
});

describe('the online check (POST /receipts/check)', () => {
  const check = (jws: string) => api(app, '/receipts/check', json({ jws }));

  it('says a genuine receipt is valid and its delivery still recorded as signed, echoing nothing of it', async () => {
    const doc = JSON.parse(await downloadReceipt('0193a1b2-c3d4-7e5f-8a9b-000000000001')) as ReceiptDocument;
    const res = await check(doc.jws);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ valid: true, kid: expect.any(String), recorded: true });
  });

  it('refuses a changed signature, and says when a genuine receipt names no recorded delivery', async () => {
    const doc = JSON.parse(await downloadReceipt('0193a1b2-c3d4-7e5f-8a9b-000000000001')) as ReceiptDocument;
    const [h, p, s] = doc.jws.split('.') as [string, string, string];
    const changed = await check(`${h}.${p}.${s.slice(0, 4)}${s[4] === 'A' ? 'B' : 'A'}${s.slice(5)}`);
    expect(changed.json).toEqual({ valid: false, code: 'receipt_bad_signature' });
    // signed by this deployment's key, for a delivery it never recorded
    const unrecorded = await signDelivery(deliveryOf(t.id, '0193a1b2-c3d4-7e5f-8a9b-0000000000aa'));
    expect((await check(unrecorded.jws)).json).toMatchObject({ valid: true, recorded: false });
    expect((await check('not-a-jws')).status).toBe(400);
  });
});

describe('key rotation on a running stack', () => {
  it('signs new receipts with the new key while receipts of the old key still verify', async () => {
    const before = await downloadReceipt('0193a1b2-c3d4-7e5f-8a9b-000000000001');
    const oldKid = (await verifyReceiptText(before, parseKeySet((await api(app, '/receipts/keys')).text)!)) as {
      kid: string;
    };
    const rotated = await rotateReceiptKey(fileKeyStore(app.stack.env[ENV.receiptKeysFile]!));
    resetReceiptKeyCache();
    const after = await downloadReceipt('0193a1b2-c3d4-7e5f-8a9b-000000000001');
    const jwks = parseKeySet((await api(app, '/receipts/keys')).text)!;
    expect(jwks.keys.map((k) => k.kid)).toEqual([rotated.active, oldKid.kid]);
    expect(await verifyReceiptText(before, jwks)).toMatchObject({ ok: true, kid: oldKid.kid });
    expect(await verifyReceiptText(after, jwks)).toMatchObject({ ok: true, kid: rotated.active });
  });
});

describe('the transfer.delivered webhook payload', () => {
  it('carries the delivery and its signed receipt, which verifies with the published keys', async () => {
    const d = deliveryOf(t.id, '0193a1b2-c3d4-7e5f-8a9b-000000000001');
    const payload = await deliveredWebhookPayload(d, { slug: t.id });
    expect(payload).toMatchObject({
      type: 'transfer.delivered',
      data: {
        transferId: t.id,
        delivery: { deliveryId: d.deliveryId, deliveredAt: '2026-11-28T10:00:42.000Z', servedWhole: true },
      },
    });
    const jwks = parseKeySet((await api(app, '/receipts/keys')).text)!;
    expect(await verifyReceiptText(JSON.stringify(payload.data.receipt), jwks)).toMatchObject({ ok: true });
    await expect(deliveredWebhookPayload(d, { slug: 'zzzzzzz' })).rejects.toThrow(/another transfer/u);
  });
});
