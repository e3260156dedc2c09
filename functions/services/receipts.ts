/**
 * Signed delivery receipts: the key set (Ed25519 keys, the newest signs, every one stays
 * published so older receipts keep verifying), signing a delivery's receipt, the published JWKS,
 * and the `transfer.delivered` webhook payload that carries a receipt.
 *
 * Keys are made here, on first use: the first signer finding no key creates one and stores it
 * with a compare-and-set (adapters/receipt-keys.ts), so concurrent first signers end up signing
 * with the one key that was stored. `rotateReceiptKey` adds a key and makes it the signer.
 */
import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { deliveryWebhookData, type DeliveryRecord } from '../domain/delivery';
import type { TransferDeliveredData } from '../domain/webhooks-api';
import { canonicalJson, receiptOf, verifyReceiptJws } from '../domain/receipt';
import { isSlug } from '../domain/id-patterns';
import {
  RECEIPT_ALG,
  RECEIPT_FORMAT,
  RECEIPT_JWS_TYPE,
  type Receipt,
  type ReceiptDocument,
} from '../domain/receipt-format';
import { getDelivery, listDeliveries } from '../data/deliveries';
import { MAX_DELIVERY_ROWS, type DeliveriesResponse, type ReceiptCheckResponse } from '../domain/receipts-api';
import type { TransferRecord } from '../data/transfers';
import { notFound } from '../lib/errors';
import { config } from '../lib/env';
import { configuredKeyStore, type KeySetStore } from '../adapters/receipt-keys';
import { requireOwner } from './transfers';

export interface StoredKey {
  readonly kid: string;
  /** epoch ms */
  readonly createdAt: number;
  readonly publicJwk: JWK;
  readonly privateJwk: JWK;
}

/** What the store holds: every key ever used, `active` the one that signs. */
export interface KeySet {
  readonly active: string;
  readonly keys: readonly StoredKey[];
}

/** The stored text as a key set; null while it holds no key (the secret CDK creates holds none). */
export function parseStoredKeySet(text: string | undefined): KeySet | null {
  if (!text) return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new Error('the receipt key set is not JSON');
  }
  const set = v as Partial<KeySet>;
  if (!Array.isArray(set.keys) || set.keys.length === 0) return null;
  if (!set.keys.some((k) => k.kid === set.active)) throw new Error('the receipt key set names no active key it holds');
  return set as KeySet;
}

async function newKey(now: number): Promise<StoredKey> {
  const { publicKey, privateKey } = await generateKeyPair(RECEIPT_ALG, { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  // the key's RFC 7638 thumbprint: a kid no two keys share, derived from the key alone
  const kid = await calculateJwkThumbprint(publicJwk);
  const withMeta = { ...publicJwk, kid, alg: RECEIPT_ALG, use: 'sig' };
  return { kid, createdAt: now, publicJwk: withMeta, privateJwk: { ...(await exportJWK(privateKey)), kid } };
}

/**
 * Adds a new key to what the store holds (the first key when it holds none) and makes it the
 * signer, unless another writer changed the store first: then what that writer stored is kept.
 */
async function addKey(store: KeySetStore, read: string | undefined, now: number): Promise<KeySet> {
  const current = parseStoredKeySet(read);
  const key = await newKey(now);
  const next: KeySet = { active: key.kid, keys: [...(current?.keys ?? []), key] };
  if (await store.write(read, JSON.stringify(next))) return next;
  const won = parseStoredKeySet(await store.read());
  if (!won) throw new Error('the receipt key set is still empty after another writer stored it');
  return won;
}

/** The key set, made with its first key when the store holds none. */
export async function ensureKeySet(store: KeySetStore, now = Date.now()): Promise<KeySet> {
  const read = await store.read();
  return parseStoredKeySet(read) ?? addKey(store, read, now);
}

/** A new signing key; the ones before it stay published, so their receipts keep verifying. */
export async function rotateReceiptKey(store: KeySetStore = configuredKeyStore(), now = Date.now()): Promise<KeySet> {
  const read = await store.read();
  return addKey(store, read, now);
}

/** The public half of every key, for the published JWKS (newest first). */
export function publicJwksOf(set: KeySet | null): { keys: JWK[] } {
  return { keys: [...(set?.keys ?? [])].sort((a, b) => b.createdAt - a.createdAt).map((k) => k.publicJwk) };
}

export async function signReceipt(receipt: Receipt, set: KeySet): Promise<ReceiptDocument> {
  const key = set.keys.find((k) => k.kid === set.active)!;
  const jws = await new CompactSign(new TextEncoder().encode(canonicalJson(receipt)))
    .setProtectedHeader({ alg: RECEIPT_ALG, kid: key.kid, typ: RECEIPT_JWS_TYPE })
    .sign(await importJWK(key.privateJwk, RECEIPT_ALG));
  return { format: RECEIPT_FORMAT, receipt, jws };
}

/** Signers reuse the key set for this long; a rotation reaches every instance within it. */
export const KEY_SET_CACHE_MS = 5 * 60 * 1000;
let cached: { set: KeySet; at: number } | undefined;

async function signingKeySet(now: number): Promise<KeySet> {
  if (cached && now - cached.at < KEY_SET_CACHE_MS) return cached.set;
  const set = await ensureKeySet(configuredKeyStore(), now);
  cached = { set, at: now };
  return set;
}

/** Forgets the cached key set (tests that rotate). */
export function resetReceiptKeyCache(): void {
  cached = undefined;
}

/** The signed receipt of a delivery, for its transfer's owner (or team admin); others 403 / 404. */
export async function receiptForOwner(slug: string, deliveryId: string, userId: string): Promise<ReceiptDocument> {
  await requireOwner(slug, userId);
  const d = await getDelivery(slug, deliveryId);
  if (!d) throw notFound('transfer_delivery_not_found', 'This transfer has no such delivery.');
  return signDelivery(d);
}

export async function signDelivery(d: DeliveryRecord, now = Date.now()): Promise<ReceiptDocument> {
  return signReceipt(receiptOf(d, config().appOrigin.replace(/\/+$/u, '')), await signingKeySet(now));
}

/** The published key set, read fresh (a rotation shows at once); made with its first key when none exists yet. */
export async function publishedKeys(): Promise<{ keys: JWK[] }> {
  return publicJwksOf(await ensureKeySet(configuredKeyStore()));
}

/**
 * The online check: the JWS against every key this deployment ever signed with, and whether the
 * delivery it names is still recorded with exactly the signed facts (a deleted transfer's are
 * gone). A forged or changed receipt is refused before any record is read, so this route tells
 * nobody anything about a delivery they do not already hold a signed receipt of.
 */
export async function checkReceiptOnline(jws: string): Promise<ReceiptCheckResponse> {
  const check = await verifyReceiptJws(jws, publicJwksOf(await ensureKeySet(configuredKeyStore())));
  if (!check.ok) return { valid: false, code: check.problem };
  const r = check.receipt;
  const d =
    isSlug(r.transfer) && typeof r.delivery === 'string' && /^[A-Za-z0-9_-]{1,64}$/u.test(r.delivery)
      ? await getDelivery(r.transfer, r.delivery)
      : null;
  return { valid: true, kid: check.kid, recorded: !!d && canonicalJson(receiptOf(d, r.issuer)) === check.signed };
}

/** The TransferModal's delivery rows, for the transfer's owner (or team admin); others 403 / 404. */
export async function deliveryRows(slug: string, userId: string): Promise<DeliveriesResponse> {
  await requireOwner(slug, userId);
  const found = await listDeliveries(slug, MAX_DELIVERY_ROWS + 1);
  return {
    deliveries: found.slice(0, MAX_DELIVERY_ROWS).map((d) => ({
      deliveryId: d.deliveryId,
      at: d.at,
      what: d.what,
      recipient: d.recipient,
      countryCode: d.countryCode,
      fileCount: d.files.length,
      ...(d.what === 'file' && d.files[0] ? { fileName: d.files[0].path } : {}),
      bytes: d.bytes,
      servedWhole: d.servedWhole,
    })),
    more: found.length > MAX_DELIVERY_ROWS,
  };
}

/** The `transfer.delivered` event's payload for one delivery of a transfer, its receipt signed. */
export async function deliveredWebhookPayload(
  delivery: DeliveryRecord,
  transfer: Pick<TransferRecord, 'slug'>,
): Promise<{ type: 'transfer.delivered'; data: TransferDeliveredData }> {
  if (delivery.slug !== transfer.slug) throw new Error('deliveredWebhookPayload: the delivery is of another transfer');
  return {
    type: 'transfer.delivered',
    data: { transferId: transfer.slug, delivery: deliveryWebhookData(delivery), receipt: await signDelivery(delivery) },
  };
}
