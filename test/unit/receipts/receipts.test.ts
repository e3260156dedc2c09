import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../../../functions/domain/delivery';
import { canonicalJson, parseKeySet, receiptOf, verifyReceiptText } from '../../../functions/domain/receipt';
import { RECEIPT_FORMAT } from '../../../functions/domain/receipt-format';
import { fileKeyStore, writeTokenOf, type KeySetStore } from '../../../functions/adapters/receipt-keys';
import {
  ensureKeySet,
  parseStoredKeySet,
  publicJwksOf,
  rotateReceiptKey,
  signReceipt,
} from '../../../functions/services/receipts';

const delivery: DeliveryRecord = {
  slug: 'aBcD1234',
  deliveryId: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  startedAt: Date.UTC(2026, 10, 28, 9, 0, 0),
  at: Date.UTC(2026, 10, 28, 9, 3, 30),
  what: 'zip',
  recipient: { kind: 'verified', email: 'ana@example.com' },
  countryCode: 'DE',
  files: [
    { fileId: 'f1', path: 'Reports/2026/q3.pdf', size: 1234567, sha256: 'a'.repeat(64) },
    { fileId: 'f2', path: 'notes.txt', size: 12 },
  ],
  bytes: 1234801,
  servedWhole: true,
};

let dir: string;
let store: KeySetStore;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'receipt-keys-'));
  store = fileKeyStore(path.join(dir, 'receipts', 'keys.json'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('canonical receipt payload', () => {
  it('sorts keys at every depth, drops no array order and has no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: true, y: null }], c: 'é"' } })).toBe(
      '{"a":{"c":"é\\"","d":[3,1,{"y":null,"z":true}]},"b":1}',
    );
  });

  it('is the same text however the receipt object was built or re-read', () => {
    const r = receiptOf(delivery, 'https://app.example.com');
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(r).reverse())));
    expect(canonicalJson(reordered)).toBe(canonicalJson(r));
  });

  it('refuses values JSON cannot carry exactly', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/finite/u);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/u);
  });

  it('holds the delivery: transfer, recipient kind, UTC times, country, files with SHA-256 (null when not computed), whole', () => {
    const r = receiptOf(delivery, 'https://app.example.com');
    expect(r).toEqual({
      format: RECEIPT_FORMAT,
      issuer: 'https://app.example.com',
      transfer: 'aBcD1234',
      delivery: delivery.deliveryId,
      startedAt: '2026-11-28T09:00:00.000Z',
      deliveredAt: '2026-11-28T09:03:30.000Z',
      what: 'zip',
      recipient: { kind: 'verified', email: 'ana@example.com' },
      country: 'DE',
      files: [
        { path: 'Reports/2026/q3.pdf', size: 1234567, sha256: 'a'.repeat(64) },
        { path: 'notes.txt', size: 12, sha256: null },
      ],
      bytes: 1234801,
      servedWhole: true,
    });
    expect(receiptOf({ ...delivery, recipient: { kind: 'link' } }, 'x').recipient).toEqual({ kind: 'link' });
  });
});

describe('signing and verifying', () => {
  it('signs with a key it creates on first use and verifies with the published key set', async () => {
    const set = await ensureKeySet(store);
    const doc = await signReceipt(receiptOf(delivery, 'https://app.example.com'), set);
    const check = await verifyReceiptText(JSON.stringify(doc, null, 2), publicJwksOf(set));
    expect(check).toEqual({ ok: true, receipt: doc.receipt, kid: set.active });
  });

  it('publishes no private key part', async () => {
    const jwks = publicJwksOf(await ensureKeySet(store));
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('refuses a receipt whose readable copy or signature changed by one character', async () => {
    const set = await ensureKeySet(store);
    const text = JSON.stringify(await signReceipt(receiptOf(delivery, 'https://app.example.com'), set), null, 2);
    const jwks = publicJwksOf(set);
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'a' ? 'b' : 'a') + s.slice(at + 1);
    expect(await verifyReceiptText(text.replace('"DE"', '"FR"'), jwks)).toEqual({
      ok: false,
      problem: 'receipt_mismatch',
    });
    expect(await verifyReceiptText(text.replace('1234567', '1234568'), jwks)).toMatchObject({ ok: false });
    const sigAt = text.lastIndexOf('.') + 5;
    expect(await verifyReceiptText(flip(text, sigAt), jwks)).toEqual({ ok: false, problem: 'receipt_bad_signature' });
    const payloadAt = text.indexOf('.', text.indexOf('"jws"')) + 10;
    expect(await verifyReceiptText(flip(text, payloadAt), jwks)).toEqual({
      ok: false,
      problem: 'receipt_bad_signature',
    });
  });

  it('refuses what is not a receipt, and a key id the key set does not hold', async () => {
    const set = await ensureKeySet(store);
    const doc = await signReceipt(receiptOf(delivery, 'o'), set);
    const other = publicJwksOf(await ensureKeySet(fileKeyStore(path.join(dir, 'other.json'))));
    expect(await verifyReceiptText('not json', other)).toEqual({ ok: false, problem: 'receipt_malformed' });
    expect(await verifyReceiptText('{"format":"x"}', other)).toEqual({ ok: false, problem: 'receipt_malformed' });
    expect(await verifyReceiptText(JSON.stringify({ ...doc, jws: 'a.b.c' }), other)).toEqual({
      ok: false,
      problem: 'receipt_malformed',
    });
    expect(await verifyReceiptText(JSON.stringify(doc), other)).toEqual({ ok: false, problem: 'receipt_unknown_key' });
  });

  it('refuses a receipt signed by a key swapped in under a published kid', async () => {
    const set = await ensureKeySet(store);
    const forger = await ensureKeySet(fileKeyStore(path.join(dir, 'forger.json')));
    const forged = await signReceipt(receiptOf(delivery, 'o'), {
      active: set.active,
      keys: [{ ...forger.keys[0]!, kid: set.active, privateJwk: { ...forger.keys[0]!.privateJwk, kid: set.active } }],
    });
    expect(await verifyReceiptText(JSON.stringify(forged), publicJwksOf(set))).toEqual({
      ok: false,
      problem: 'receipt_bad_signature',
    });
  });
});

describe('key rotation', () => {
  it('signs with the new key and still verifies receipts of the old kid', async () => {
    const first = await ensureKeySet(store);
    const old = await signReceipt(receiptOf(delivery, 'o'), first);
    const rotated = await rotateReceiptKey(store, Date.now() + 1000);
    expect(rotated.active).not.toBe(first.active);
    expect(rotated.keys.map((k) => k.kid)).toEqual([first.active, rotated.active]);
    const fresh = await signReceipt(receiptOf(delivery, 'o'), rotated);
    const jwks = publicJwksOf(parseStoredKeySet(readFileSync(path.join(dir, 'receipts', 'keys.json'), 'utf8')));
    expect(jwks.keys.map((k) => k.kid)).toEqual([rotated.active, first.active]);
    expect(await verifyReceiptText(JSON.stringify(old), jwks)).toMatchObject({ ok: true, kid: first.active });
    expect(await verifyReceiptText(JSON.stringify(fresh), jwks)).toMatchObject({ ok: true, kid: rotated.active });
  });

  it('keeps the key another writer stored first, so no receipt is signed by a lost key', async () => {
    const file = path.join(dir, 'race.json');
    const real = fileKeyStore(file);
    let raced = false;
    // the other writer stores its key between this writer's read and its write
    const racing: KeySetStore = {
      read: () => real.read(),
      async write(previous, next) {
        if (!raced) {
          raced = true;
          await ensureKeySet(real);
        }
        return real.write(previous, next);
      },
    };
    const mine = await ensureKeySet(racing);
    const stored = parseStoredKeySet(await real.read())!;
    expect(mine).toEqual(stored);
    expect(stored.keys).toHaveLength(1);
  });

  it('treats the empty set CDK creates as no key, and a stored set without its active key as broken', () => {
    expect(parseStoredKeySet('{"keys":[],"seed":"x"}')).toBeNull();
    expect(parseStoredKeySet(undefined)).toBeNull();
    expect(() => parseStoredKeySet('{"active":"b","keys":[{"kid":"a"}]}')).toThrow(/active/u);
  });

  it('names a write by what it replaces: the same token for every writer that read the same text', () => {
    expect(writeTokenOf('{"a":1}')).toBe(writeTokenOf('{"a":1}'));
    expect(writeTokenOf('{"a":1}')).not.toBe(writeTokenOf(undefined));
    expect(writeTokenOf(undefined)).toMatch(/^[0-9a-f]{64}$/u);
  });
});

describe('key set files', () => {
  it('reads a published JWKS and refuses other JSON', () => {
    expect(parseKeySet('{"keys":[{"kty":"OKP"}]}')).toEqual({ keys: [{ kty: 'OKP' }] });
    expect(parseKeySet('{"keys":{}}')).toBeNull();
    expect(parseKeySet('nope')).toBeNull();
  });
});
