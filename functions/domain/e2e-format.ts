/**
 * The end-to-end encryption format (version 1), shared by the browser and the CLI so that either
 * opens what the other sealed. Written down in docs/e2e-format.md; this module is its reference.
 * Only WebCrypto (`globalThis.crypto.subtle`, in browsers and in Node) and hash-wasm's Argon2id:
 * no key, passphrase or plaintext ever leaves the caller.
 *
 * - A transfer key: 32 random bytes. By link it travels in the URL's fragment (`#k=<base64url>`),
 *   which browsers never send; by email it is derived from a passphrase with Argon2id.
 * - A file key per file: HKDF-SHA-256 over the transfer key with the file's own random 16-byte
 *   salt, as an AES-256-GCM key. Thumbnails and the file names have keys of their own (other
 *   HKDF `info`), so no two kinds of data ever share a key.
 * - A file is sealed in chunks of `chunkBytes` plaintext (1 MiB), each with its 16-byte tag;
 *   upload parts are whole MiB, so every part is whole chunks and is sealed on its own, in any
 *   order, retried or resumed: chunk i's nonce is i (11 bytes, big-endian) and a last-chunk
 *   flag byte. Under one file key a nonce is only ever used for chunk i of that file, and the
 *   same bytes sealed again (a retried part) give the same ciphertext. The flag makes a cut-off
 *   file fail; the index makes a reordered one fail. An empty file is one empty last chunk.
 */
import { argon2id } from 'hash-wasm';
import {
  E2E_CHUNK_BYTES,
  E2E_KEY_BYTES,
  E2E_SALT_BYTES,
  E2E_TAG_BYTES,
  DEFAULT_PASSPHRASE_COST,
  chunkCountOf,
  fromBase64url,
  passphraseParamsValid,
  toBase64url,
  type E2eFileParams,
  type PassphraseParams,
} from './e2e-params';

export * from './e2e-params';

const NONCE_BYTES = 12;
/** Additional data of every sealed chunk: binds the format's version. */
const AAD = new TextEncoder().encode('sendbridge-e2e/1');

/** A chunk whose tag does not match: the stored bytes were changed, cut, reordered, or the key is wrong. */
export class E2eTamperError extends Error {
  constructor(readonly chunk: number) {
    super(`encrypted chunk ${chunk} failed its integrity check`);
    this.name = 'E2eTamperError';
  }
}

const subtle = () => globalThis.crypto.subtle;

export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

/** Chunk i's nonce: i as 11 big-endian bytes, then 1 on the file's last chunk, else 0. */
export function nonceOf(index: number, last: boolean): Uint8Array {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`bad chunk index ${index}`);
  const nonce = new Uint8Array(NONCE_BYTES);
  let rest = index;
  for (let i = NONCE_BYTES - 2; i >= 0 && rest > 0; i--) {
    nonce[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  nonce[NONCE_BYTES - 1] = last ? 1 : 0;
  return nonce;
}

/** A new random transfer key. */
export function newTransferKey(): Uint8Array {
  return randomBytes(E2E_KEY_BYTES);
}

/** The link's fragment for a transfer key (`k=<base64url>`, without the `#`). */
export function keyFragment(key: Uint8Array): string {
  return `k=${toBase64url(key)}`;
}

/** The transfer key in a link's fragment, or null when it carries none (or a malformed one). */
export function keyFromFragment(hash: string): Uint8Array | null {
  const params = new URLSearchParams(hash.replace(/^#/u, ''));
  const k = params.get('k');
  if (!k) return null;
  try {
    const key = fromBase64url(k);
    return key.length === E2E_KEY_BYTES ? key : null;
  } catch {
    return null;
  }
}

/** New Argon2id parameters (fresh salt) for a passphrase. */
export function newPassphraseParams(
  cost: Omit<PassphraseParams, 'alg' | 'salt'> = DEFAULT_PASSPHRASE_COST,
): PassphraseParams {
  return { alg: 'argon2id', salt: toBase64url(randomBytes(E2E_SALT_BYTES)), ...cost };
}

/** The transfer key a passphrase gives under these parameters. */
export async function keyFromPassphrase(passphrase: string, p: PassphraseParams): Promise<Uint8Array> {
  if (!passphraseParamsValid(p)) throw new RangeError('passphrase parameters out of range');
  return argon2id({
    password: passphrase.normalize('NFC'),
    salt: fromBase64url(p.salt),
    parallelism: p.parallelism,
    iterations: p.iterations,
    memorySize: p.memoryKiB,
    hashLength: E2E_KEY_BYTES,
    outputType: 'binary',
  });
}

type KeyPurpose = 'file' | 'thumbnail' | 'name' | 'check';

async function derive(transferKey: Uint8Array, purpose: KeyPurpose, salt: Uint8Array): Promise<CryptoKey> {
  if (transferKey.length !== E2E_KEY_BYTES) throw new RangeError('a transfer key is 32 bytes');
  const base = await subtle().importKey('raw', transferKey as BufferSource, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: salt as BufferSource,
      info: new TextEncoder().encode(`sendbridge-e2e/1 ${purpose}`),
    },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The AES-GCM key of one file (its chunks), of its thumbnail, or of its name. */
export function fileKeyOf(transferKey: Uint8Array, fileSalt: string, purpose: 'file' | 'thumbnail' | 'name' = 'file') {
  return derive(transferKey, purpose, fromBase64url(fileSalt));
}

/** Seals chunk `index` (of a file whose last chunk is `last`). */
export async function sealChunk(key: CryptoKey, index: number, last: boolean, plain: Uint8Array): Promise<Uint8Array> {
  const out = await subtle().encrypt(
    { name: 'AES-GCM', iv: nonceOf(index, last) as BufferSource, additionalData: AAD, tagLength: 128 },
    key,
    plain as BufferSource,
  );
  return new Uint8Array(out);
}

/** Opens chunk `index`; a wrong tag (changed, cut, moved, or another key) is E2eTamperError. */
export async function openChunk(key: CryptoKey, index: number, last: boolean, sealed: Uint8Array): Promise<Uint8Array> {
  try {
    const out = await subtle().decrypt(
      { name: 'AES-GCM', iv: nonceOf(index, last) as BufferSource, additionalData: AAD, tagLength: 128 },
      key,
      sealed as BufferSource,
    );
    return new Uint8Array(out);
  } catch {
    throw new E2eTamperError(index);
  }
}

/**
 * Seals the plaintext bytes [start, start + plain.length) of a file of `plainSize` bytes: an
 * upload part (start and the length whole chunks, but for the file's end). Returns the part's
 * stored bytes, which sit at `cipherSizeOf(start)` of the object.
 */
export async function sealRange(
  key: CryptoKey,
  plainSize: number,
  start: number,
  plain: Uint8Array,
  chunkBytes = E2E_CHUNK_BYTES,
): Promise<Uint8Array> {
  if (start % chunkBytes !== 0) throw new RangeError('a sealed range starts on a chunk');
  const end = start + plain.length;
  if (end > plainSize || (end !== plainSize && plain.length % chunkBytes !== 0)) {
    throw new RangeError('a sealed range is whole chunks, but for the file end');
  }
  const total = chunkCountOf(plainSize, chunkBytes);
  const first = start / chunkBytes;
  const count = plainSize === 0 ? 1 : Math.ceil(plain.length / chunkBytes);
  const out = new Uint8Array(plain.length + count * E2E_TAG_BYTES);
  for (let i = 0; i < count; i++) {
    const index = first + i;
    const piece = plain.subarray(i * chunkBytes, Math.min(plain.length, (i + 1) * chunkBytes));
    out.set(await sealChunk(key, index, index === total - 1, piece), i * (chunkBytes + E2E_TAG_BYTES));
  }
  return out;
}

/**
 * A stream that opens a stored object read from its start: it emits each chunk's plaintext once
 * its tag checked, and errors (E2eTamperError) on a changed chunk and on an object that ends
 * early or runs on past its last chunk, so a consumer never takes a cut file as whole.
 */
export function openingStream(
  key: CryptoKey,
  plainSize: number,
  chunkBytes = E2E_CHUNK_BYTES,
): TransformStream<Uint8Array, Uint8Array> {
  const total = chunkCountOf(plainSize, chunkBytes);
  const sealedChunk = chunkBytes + E2E_TAG_BYTES;
  const lastSealed = plainSize - (total - 1) * chunkBytes + E2E_TAG_BYTES;
  let buffer = new Uint8Array(0);
  let index = 0;
  const sizeOf = (i: number) => (i === total - 1 ? lastSealed : sealedChunk);
  return new TransformStream({
    async transform(bytes, controller) {
      const joined = new Uint8Array(buffer.length + bytes.length);
      joined.set(buffer);
      joined.set(bytes, buffer.length);
      let at = 0;
      while (index < total && joined.length - at >= sizeOf(index)) {
        const size = sizeOf(index);
        controller.enqueue(await openChunk(key, index, index === total - 1, joined.subarray(at, at + size)));
        at += size;
        index++;
      }
      buffer = joined.slice(at);
      if (index === total && buffer.length > 0) throw new E2eTamperError(index);
    },
    flush() {
      if (index !== total || buffer.length > 0) throw new E2eTamperError(index);
    },
  });
}

const CHECK_TEXT = new TextEncoder().encode('sendbridge-e2e key check');

/** The transfer's check value: a fixed text sealed under a key of its own (random salt inside). */
export async function keyCheckOf(transferKey: Uint8Array): Promise<string> {
  const salt = randomBytes(E2E_SALT_BYTES);
  const sealed = await sealChunk(await derive(transferKey, 'check', salt), 0, true, CHECK_TEXT);
  const out = new Uint8Array(salt.length + sealed.length);
  out.set(salt);
  out.set(sealed, salt.length);
  return toBase64url(out);
}

/** Whether a key (from a link or a passphrase) is the transfer's. */
export async function keyMatches(transferKey: Uint8Array, check: string): Promise<boolean> {
  try {
    const bytes = fromBase64url(check);
    const salt = bytes.subarray(0, E2E_SALT_BYTES);
    await openChunk(await derive(transferKey, 'check', salt), 0, true, bytes.subarray(E2E_SALT_BYTES));
    return true;
  } catch {
    return false;
  }
}

/** A new file's stored parameters (fresh salt). */
export function newFileParams(plainSize: number): E2eFileParams {
  return { salt: toBase64url(randomBytes(E2E_SALT_BYTES)), chunkBytes: E2E_CHUNK_BYTES, plainSize };
}
