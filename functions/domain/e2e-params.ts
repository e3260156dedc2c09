/**
 * The public side of the end-to-end encryption format (docs/e2e-format.md): sizes, parameters and
 * their limits, with no cipher and no KDF, so the server checks a send's parameters without
 * carrying either (e2e-format.ts has the crypto and re-exports all of this).
 */

export const E2E_FORMAT_VERSION = 1;
/** Plaintext bytes per chunk: divides every multipart part size (whole MiB). */
export const E2E_CHUNK_BYTES = 1024 * 1024;
/** AES-GCM's tag, after each chunk. */
export const E2E_TAG_BYTES = 16;
export const E2E_KEY_BYTES = 32;
export const E2E_SALT_BYTES = 16;
/** The shortest passphrase (input-rules.ts, where the send form's first load already has it). */
export { E2E_PASSPHRASE_MIN_CHARS } from './input-rules';
/** Argon2id's parameters for a passphrase (RFC 9106's second recommended option). */
export interface PassphraseParams {
  readonly alg: 'argon2id';
  /** base64url, 16 random bytes */
  readonly salt: string;
  /** memory in KiB */
  readonly memoryKiB: number;
  readonly iterations: number;
  readonly parallelism: number;
}
export const DEFAULT_PASSPHRASE_COST = { memoryKiB: 64 * 1024, iterations: 3, parallelism: 1 } as const;
/** What a server accepts as stored parameters: enough cost to matter, not so much a phone cannot open it. */
export const PASSPHRASE_COST_LIMITS = {
  memoryKiB: { min: 19 * 1024, max: 1024 * 1024 },
  iterations: { min: 2, max: 10 },
  parallelism: { min: 1, max: 4 },
} as const;

/** What the server keeps of an encrypted transfer: nothing secret. */
export interface E2eTransferParams {
  readonly v: typeof E2E_FORMAT_VERSION;
  /** how the recipient gets the key: from the link's fragment, or a passphrase told out of band */
  readonly mode: 'link' | 'passphrase';
  readonly kdf?: PassphraseParams;
  /** a short value sealed with the key, so a wrong passphrase or link is told apart from a damaged file */
  readonly check: string;
}

/** What the server keeps of an encrypted file. */
export interface E2eFileParams {
  /** base64url, 16 random bytes */
  readonly salt: string;
  readonly chunkBytes: number;
  /** the plaintext's size (the stored object is larger by a tag per chunk) */
  readonly plainSize: number;
}

export function toBase64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/gu, '-').replace(/\//gu, '_').replace(/=+$/u, '');
}

export function fromBase64url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/u.test(text)) throw new TypeError('not base64url');
  const s = atob(text.replace(/-/gu, '+').replace(/_/gu, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** Chunks of a file of `plainSize` bytes (an empty file is one empty chunk). */
export function chunkCountOf(plainSize: number, chunkBytes = E2E_CHUNK_BYTES): number {
  return Math.max(1, Math.ceil(plainSize / chunkBytes));
}

/** The stored object's size for a file of `plainSize` bytes. */
export function cipherSizeOf(plainSize: number, chunkBytes = E2E_CHUNK_BYTES): number {
  return plainSize + chunkCountOf(plainSize, chunkBytes) * E2E_TAG_BYTES;
}

/** The plaintext's size of a stored object of `cipherSize` bytes; throws when no plaintext has that size. */
export function plainSizeOf(cipherSize: number, chunkBytes = E2E_CHUNK_BYTES): number {
  const plain = cipherSize - Math.ceil(cipherSize / (chunkBytes + E2E_TAG_BYTES)) * E2E_TAG_BYTES;
  if (plain < 0 || cipherSizeOf(plain, chunkBytes) !== cipherSize)
    throw new RangeError(`no plaintext is ${cipherSize} bytes sealed`);
  return plain;
}

/** Whether stored parameters are ones this format accepts (a server refuses others; a client never runs them). */
export function passphraseParamsValid(p: PassphraseParams): boolean {
  const within = (v: number, r: { min: number; max: number }) => Number.isInteger(v) && v >= r.min && v <= r.max;
  let salt: Uint8Array;
  try {
    salt = fromBase64url(p.salt);
  } catch {
    return false;
  }
  return (
    p.alg === 'argon2id' &&
    salt.length === E2E_SALT_BYTES &&
    within(p.memoryKiB, PASSPHRASE_COST_LIMITS.memoryKiB) &&
    within(p.iterations, PASSPHRASE_COST_LIMITS.iterations) &&
    within(p.parallelism, PASSPHRASE_COST_LIMITS.parallelism)
  );
}

/**
 * The stored size of an upload part holding `plainPartSize` bytes of plaintext (whole chunks):
 * what the server plans and signs for an encrypted file, whose plaintext the part plan of
 * domain/upload.ts cuts (whole MiB parts, so whole chunks).
 */
export function sealedPartSize(plainPartSize: number, chunkBytes = E2E_CHUNK_BYTES): number {
  if (plainPartSize <= 0 || plainPartSize % chunkBytes !== 0) throw new RangeError('a sealed part holds whole chunks');
  return plainPartSize + (plainPartSize / chunkBytes) * E2E_TAG_BYTES;
}

/** The plaintext in a stored part of `sealedSize` bytes planned by sealedPartSize. */
export function plainPartSizeOf(sealedSize: number, chunkBytes = E2E_CHUNK_BYTES): number {
  const chunks = sealedSize / (chunkBytes + E2E_TAG_BYTES);
  if (!Number.isInteger(chunks) || chunks < 1) throw new RangeError(`${sealedSize} bytes is no sealed part`);
  return chunks * chunkBytes;
}

/**
 * What SendBridge cannot do with a transfer whose files it cannot read: a review (it shows the
 * files to comment on), a forward (the copy would need the sender's key to open) and a new version
 * made on the dashboard (its upload is not sealed).
 */
export const E2E_REFUSALS = {
  encrypted_review:
    'Review cannot be used with end-to-end encryption: SendBridge cannot show encrypted files to comment on.',
  encrypted_forward:
    'An end-to-end encrypted transfer cannot be forwarded: SendBridge cannot read its files. Send them again instead.',
  encrypted_new_version:
    'A new version cannot be added to an end-to-end encrypted transfer: send the files again, encrypted.',
} as const;
