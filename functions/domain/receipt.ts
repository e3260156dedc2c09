/**
 * Signed delivery receipts: what a receipt says, its canonical bytes, and how anyone checks it
 * with SendBridge's published keys (a JWKS). Shared by the server (signing), the CLI
 * (`sendbridge receipt verify`) and the app's /verify page, so all three read one format.
 *
 * A receipt file is `{ format, receipt, jws }`: `receipt` is the readable copy and `jws` a compact
 * JWS (EdDSA over Ed25519) whose payload is the canonical JSON of that same receipt. A check
 * verifies the signature with the key named by the header's `kid`, then requires the readable
 * copy to be the signed one, so a changed byte in either part is refused.
 */
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import type { DeliveryRecord } from './delivery';
import {
  RECEIPT_ALG,
  RECEIPT_FORMAT,
  RECEIPT_JWS_TYPE,
  type Receipt,
  type ReceiptDocument,
  type ReceiptProblem,
} from './receipt-format';

/** The receipt of a delivery: only what the delivery record holds, times as UTC ISO strings. */
export function receiptOf(d: DeliveryRecord, issuer: string): Receipt {
  return {
    format: RECEIPT_FORMAT,
    issuer,
    transfer: d.slug,
    delivery: d.deliveryId,
    startedAt: new Date(d.startedAt).toISOString(),
    deliveredAt: new Date(d.at).toISOString(),
    what: d.what,
    recipient: d.recipient.kind === 'link' ? { kind: 'link' } : { kind: d.recipient.kind, email: d.recipient.email },
    country: d.countryCode,
    files: d.files.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 ?? null })),
    bytes: d.bytes,
    servedWhole: d.servedWhole,
  };
}

/**
 * JSON with object keys sorted by UTF-16 code units and no whitespace (RFC 8785 for the values a
 * receipt holds: strings, safe integers, booleans, null, arrays, objects), so the signed bytes
 * do not depend on how a reader re-serialises the readable copy.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonicalJson: numbers must be finite');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`canonicalJson: cannot encode a ${typeof value}`);
}

export type ReceiptCheck =
  | { readonly ok: true; readonly receipt: Receipt; readonly kid: string }
  | { readonly ok: false; readonly problem: ReceiptProblem };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses a receipt file's text into its parts, or null when it is not one. */
export function parseReceiptDocument(text: string): ReceiptDocument | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(doc) || doc.format !== RECEIPT_FORMAT || typeof doc.jws !== 'string' || !isRecord(doc.receipt))
    return null;
  return doc as unknown as ReceiptDocument;
}

/**
 * Checks a receipt's compact JWS against a key set: its header, its key id, its signature. The
 * receipt it gives is the signed one (the online check sends only the JWS).
 */
export async function verifyReceiptJws(
  jws: string,
  keys: JSONWebKeySet,
): Promise<ReceiptCheck & { readonly signed?: string }> {
  let kid: string;
  try {
    const header = decodeProtectedHeader(jws);
    if (header.alg !== RECEIPT_ALG || header.typ !== RECEIPT_JWS_TYPE || typeof header.kid !== 'string')
      return { ok: false, problem: 'receipt_malformed' };
    kid = header.kid;
  } catch {
    return { ok: false, problem: 'receipt_malformed' };
  }
  if (!keys.keys.some((k) => k.kid === kid)) return { ok: false, problem: 'receipt_unknown_key' };
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(jws, createLocalJWKSet(keys), { algorithms: [RECEIPT_ALG] }));
  } catch {
    return { ok: false, problem: 'receipt_bad_signature' };
  }
  const signed = new TextDecoder().decode(payload);
  let receipt: unknown;
  try {
    receipt = JSON.parse(signed);
  } catch {
    return { ok: false, problem: 'receipt_malformed' };
  }
  if (!isRecord(receipt) || receipt.format !== RECEIPT_FORMAT) return { ok: false, problem: 'receipt_malformed' };
  return { ok: true, receipt: receipt as unknown as Receipt, kid, signed };
}

/** Checks a receipt file's text against a key set (the published JWKS, or a file of it). */
export async function verifyReceiptText(text: string, keys: JSONWebKeySet): Promise<ReceiptCheck> {
  const doc = parseReceiptDocument(text);
  if (!doc) return { ok: false, problem: 'receipt_malformed' };
  const check = await verifyReceiptJws(doc.jws, keys);
  if (!check.ok) return check;
  // the readable copy must be the signed one, byte for byte once canonical
  if (check.signed !== canonicalJson(doc.receipt)) return { ok: false, problem: 'receipt_mismatch' };
  return { ok: true, receipt: check.receipt, kid: check.kid };
}

/** A JWKS as published; null when the text is not one. */
export function parseKeySet(text: string): JSONWebKeySet | null {
  try {
    const v: unknown = JSON.parse(text);
    if (isRecord(v) && Array.isArray(v.keys) && v.keys.every(isRecord)) return v as unknown as JSONWebKeySet;
  } catch {
    // not JSON
  }
  return null;
}

/**
 * What a valid receipt proves and what it does not, in English (the CLI prints it; the app
 * shows the same statements translated).
 */
export function receiptMeaning(r: Receipt): { proves: string[]; doesNotProve: string[] } {
  const who =
    r.recipient.kind === 'verified'
      ? `someone who proved, with a code mailed to ${r.recipient.email}, that they read that mailbox`
      : r.recipient.kind === 'personal'
        ? `someone holding the personal link mailed to ${r.recipient.email}`
        : 'someone holding the transfer’s link (anyone it was passed to)';
  return {
    proves: [
      `SendBridge (${r.issuer}) signed this receipt; no byte of it changed since.`,
      `SendBridge's storage served ${r.what === 'zip' ? 'the ZIP of these files' : 'this file'} (${r.bytes} bytes) of transfer ${r.transfer} to ${who}, finished at ${r.deliveredAt}${r.country === 'XX' ? '' : ` from country ${r.country}`}.`,
      r.servedWhole
        ? 'Every byte was served (the ranges served cover the whole object).'
        : 'Not every byte was served: the download did not cover the whole object.',
      'The files had the sizes and SHA-256 digests listed (computed by SendBridge from the stored bytes; null where none was computed yet).',
    ],
    doesNotProve: [
      r.recipient.kind === 'verified'
        ? 'Who sat at the keyboard: only that the downloader could read that mailbox at the time.'
        : r.recipient.kind === 'personal'
          ? 'Who held the personal link: a forwarded link looks the same. Only a verified download proves the address.'
          : 'Who downloaded: anyone with the link could have.',
      'That the files were opened, read or kept, or that they are what the sender said they are.',
      'The country is where the connection came from (CloudFront or a GeoIP database), which a VPN changes.',
    ],
  };
}
