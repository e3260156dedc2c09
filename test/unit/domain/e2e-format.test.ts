import { createCipheriv, createDecipheriv, hkdfSync, randomBytes as nodeRandomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  E2E_TAG_BYTES,
  E2eTamperError,
  cipherSizeOf,
  chunkCountOf,
  fileKeyOf,
  fromBase64url,
  keyCheckOf,
  keyFragment,
  keyFromFragment,
  keyFromPassphrase,
  keyMatches,
  newFileParams,
  newPassphraseParams,
  newTransferKey,
  nonceOf,
  openingStream,
  passphraseParamsValid,
  plainPartSizeOf,
  plainSizeOf,
  sealedPartSize,
  sealRange,
  toBase64url,
} from '../../../functions/domain/e2e-format';

/** Small chunks keep the cases fast; the format takes the chunk size as a parameter. */
const CHUNK = 1024;

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of stream as unknown as AsyncIterable<Uint8Array>) parts.push(p);
  return Buffer.concat(parts);
}

/** Feeds `bytes` in pieces of `piece` bytes through the opening stream. */
function open(key: CryptoKey, plainSize: number, bytes: Uint8Array, piece = 333): Promise<Uint8Array> {
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (let at = 0; at < bytes.length; at += piece) c.enqueue(bytes.slice(at, at + piece));
      c.close();
    },
  });
  return readAll(source.pipeThrough(openingStream(key, plainSize, CHUNK)));
}

/** The format as docs/e2e-format.md states it, done with Node's own crypto instead of WebCrypto. */
function sealByTheDoc(transferKey: Uint8Array, salt: string, plain: Uint8Array): Buffer {
  const key = Buffer.from(hkdfSync('sha256', transferKey, fromBase64url(salt), 'sendbridge-e2e/1 file', 32));
  const chunks = chunkCountOf(plain.length, CHUNK);
  const out: Buffer[] = [];
  for (let i = 0; i < chunks; i++) {
    const nonce = Buffer.alloc(12);
    nonce.writeUIntBE(i, 5, 6);
    nonce[11] = i === chunks - 1 ? 1 : 0;
    const c = createCipheriv('aes-256-gcm', key, nonce);
    c.setAAD(Buffer.from('sendbridge-e2e/1'));
    out.push(c.update(plain.subarray(i * CHUNK, (i + 1) * CHUNK)), c.final(), c.getAuthTag());
  }
  return Buffer.concat(out);
}

describe('e2e format: sizes and nonces', () => {
  it('adds a tag per chunk, an empty file being one chunk, and reads the size back', () => {
    expect(cipherSizeOf(0, CHUNK)).toBe(16);
    expect(cipherSizeOf(CHUNK, CHUNK)).toBe(CHUNK + 16);
    expect(cipherSizeOf(CHUNK + 1, CHUNK)).toBe(CHUNK + 1 + 32);
    for (const n of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK, 5 * CHUNK + 7]) {
      expect(plainSizeOf(cipherSizeOf(n, CHUNK), CHUNK)).toBe(n);
    }
    // sizes no sealed file has: shorter than a tag, or a last chunk shorter than its tag
    for (const bad of [0, 15, CHUNK + 16 + 5]) expect(() => plainSizeOf(bad, CHUNK)).toThrow(RangeError);
  });

  it('plans sealed parts of whole chunks that line up with the object', () => {
    const MiB = 1024 * 1024;
    expect(sealedPartSize(5 * MiB)).toBe(5 * MiB + 5 * 16);
    expect(plainPartSizeOf(sealedPartSize(64 * MiB))).toBe(64 * MiB);
    expect(() => sealedPartSize(5 * MiB + 1)).toThrow(RangeError);
    expect(() => plainPartSizeOf(5 * MiB)).toThrow(RangeError);
    // part n's stored bytes start where the plaintext before it ends, sealed
    const plainSize = 23 * CHUNK + 5;
    const part = 4 * CHUNK;
    let at = 0;
    for (let start = 0; start < plainSize; start += part) {
      expect(at).toBe(start + (start / CHUNK) * 16);
      const len = Math.min(part, plainSize - start);
      at += len === part ? sealedPartSize(part, CHUNK) : cipherSizeOf(len, CHUNK);
    }
    expect(at).toBe(cipherSizeOf(plainSize, CHUNK));
  });

  it('gives every chunk its own nonce, the last one flagged', () => {
    expect(Buffer.from(nonceOf(0, false)).toString('hex')).toBe('000000000000000000000000');
    expect(Buffer.from(nonceOf(258, true)).toString('hex')).toBe('000000000000000000010201');
    expect(Buffer.from(nonceOf(2 ** 40, false)).toString('hex')).toBe('000000000001000000000000');
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(Buffer.from(nonceOf(i, i === 1999)).toString('hex'));
    expect(seen.size).toBe(2000);
  });
});

describe('e2e format: sealing and opening', () => {
  const transferKey = newTransferKey();
  const plain = nodeRandomBytes(5 * CHUNK + 123);
  const params = newFileParams(plain.length);

  it('is the documented construction, byte for byte (checked with Node crypto)', async () => {
    const key = await fileKeyOf(transferKey, params.salt);
    const sealed = await sealRange(key, plain.length, 0, plain, CHUNK);
    expect(Buffer.from(sealed).equals(sealByTheDoc(transferKey, params.salt, plain))).toBe(true);
    expect(sealed.length).toBe(cipherSizeOf(plain.length, CHUNK));
  });

  it('seals parts on their own, in any order, the same bytes each time (a retried part)', async () => {
    const key = await fileKeyOf(transferKey, params.salt);
    const whole = await sealRange(key, plain.length, 0, plain, CHUNK);
    const partPlain = 2 * CHUNK;
    const parts = await Promise.all(
      [4, 0, 2].map(async (start) => ({
        start,
        bytes: await sealRange(
          key,
          plain.length,
          start * CHUNK,
          plain.subarray(start * CHUNK, start * CHUNK + partPlain),
          CHUNK,
        ),
      })),
    );
    const again = await sealRange(key, plain.length, 0, plain.subarray(0, partPlain), CHUNK);
    const joined = Buffer.concat(parts.sort((a, b) => a.start - b.start).map((p) => p.bytes));
    expect(joined.equals(Buffer.from(whole))).toBe(true);
    expect(Buffer.from(again).equals(Buffer.from(parts.find((p) => p.start === 0)?.bytes ?? []))).toBe(true);
    await expect(sealRange(key, plain.length, 100, plain.subarray(100, 200), CHUNK)).rejects.toThrow(RangeError);
  });

  it('opens what it sealed, read in pieces of any size', async () => {
    const key = await fileKeyOf(transferKey, params.salt);
    const sealed = await sealRange(key, plain.length, 0, plain, CHUNK);
    for (const piece of [1, 17, CHUNK + 16, 1 << 20]) {
      expect(Buffer.from(await open(key, plain.length, sealed, piece)).equals(plain)).toBe(true);
    }
    const empty = await sealRange(key, 0, 0, new Uint8Array(0), CHUNK);
    expect((await open(key, 0, empty)).length).toBe(0);
  });

  it('opens what Node crypto sealed by the document', async () => {
    const key = await fileKeyOf(transferKey, params.salt);
    const sealed = sealByTheDoc(transferKey, params.salt, plain);
    expect(Buffer.from(await open(key, plain.length, sealed)).equals(plain)).toBe(true);
    // and the other way: a chunk WebCrypto sealed opens with Node's decipher
    const mine = await sealRange(key, plain.length, 0, plain, CHUNK);
    const nodeKey = Buffer.from(
      hkdfSync('sha256', transferKey, fromBase64url(params.salt), 'sendbridge-e2e/1 file', 32),
    );
    const d = createDecipheriv('aes-256-gcm', nodeKey, Buffer.from(nonceOf(0, false)));
    d.setAAD(Buffer.from('sendbridge-e2e/1'));
    d.setAuthTag(Buffer.from(mine.subarray(CHUNK, CHUNK + E2E_TAG_BYTES)));
    expect(Buffer.concat([d.update(mine.subarray(0, CHUNK)), d.final()]).equals(plain.subarray(0, CHUNK))).toBe(true);
  });

  it('refuses a flipped byte, a cut-off end, swapped chunks, extra bytes and another key', async () => {
    const key = await fileKeyOf(transferKey, params.salt);
    const sealed = await sealRange(key, plain.length, 0, plain, CHUNK);
    const flipped = Uint8Array.from(sealed);
    const at = 3 * (CHUNK + 16) + 10;
    flipped[at] = (flipped[at] ?? 0) ^ 1;
    await expect(open(key, plain.length, flipped)).rejects.toEqual(new E2eTamperError(3));
    // whole chunks cut off the end: the new last chunk lacks its flag
    await expect(open(key, plain.length - 123, sealed.subarray(0, 5 * (CHUNK + 16)))).rejects.toBeInstanceOf(
      E2eTamperError,
    );
    await expect(open(key, plain.length, sealed.subarray(0, 5 * (CHUNK + 16)))).rejects.toBeInstanceOf(E2eTamperError);
    const swapped = Uint8Array.from(sealed);
    swapped.set(sealed.subarray(0, CHUNK + 16), CHUNK + 16);
    swapped.set(sealed.subarray(CHUNK + 16, 2 * (CHUNK + 16)), 0);
    await expect(open(key, plain.length, swapped)).rejects.toEqual(new E2eTamperError(0));
    await expect(open(key, plain.length, Buffer.concat([sealed, Buffer.from([0])]))).rejects.toBeInstanceOf(
      E2eTamperError,
    );
    const other = await fileKeyOf(newTransferKey(), params.salt);
    await expect(open(other, plain.length, sealed)).rejects.toEqual(new E2eTamperError(0));
    const otherFile = await fileKeyOf(transferKey, newFileParams(1).salt);
    await expect(open(otherFile, plain.length, sealed)).rejects.toEqual(new E2eTamperError(0));
  });

  it('keeps files, thumbnails and names under different keys', async () => {
    const one = new Uint8Array(CHUNK);
    const sealedAs = async (purpose: 'file' | 'thumbnail' | 'name') =>
      Buffer.from(await sealRange(await fileKeyOf(transferKey, params.salt, purpose), CHUNK, 0, one, CHUNK)).toString(
        'hex',
      );
    const all = new Set([await sealedAs('file'), await sealedAs('thumbnail'), await sealedAs('name')]);
    expect(all.size).toBe(3);
  });
});

describe('e2e format: keys', () => {
  it('carries a key in the link fragment and refuses malformed ones', () => {
    const key = newTransferKey();
    expect(keyFromFragment(`#${keyFragment(key)}`)).toEqual(key);
    expect(keyFromFragment(keyFragment(key))).toEqual(key);
    expect(keyFromFragment('#k=abc')).toBeNull();
    expect(keyFromFragment('#k=%%%')).toBeNull();
    expect(keyFromFragment('#other=1')).toBeNull();
    expect(fromBase64url(toBase64url(Uint8Array.from([251, 255, 0])))).toEqual(Uint8Array.from([251, 255, 0]));
  });

  it('tells the right key from a wrong one by the check value', async () => {
    const key = newTransferKey();
    const check = await keyCheckOf(key);
    expect(await keyMatches(key, check)).toBe(true);
    expect(await keyMatches(newTransferKey(), check)).toBe(false);
    expect(await keyMatches(key, 'not*base64')).toBe(false);
  });

  it('derives the same key from the same passphrase and parameters (Argon2id), another from another', async () => {
    const cheap = { memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 };
    const params = newPassphraseParams(cheap);
    expect(passphraseParamsValid(params)).toBe(true);
    const a = await keyFromPassphrase('correct horse battery staple', params);
    expect(a.length).toBe(32);
    // NFC: the same words typed with a combining accent give the same key
    expect(await keyFromPassphrase('café', params)).toEqual(await keyFromPassphrase('cafe\u0301', params));
    expect(await keyFromPassphrase('correct horse battery staple', params)).toEqual(a);
    expect(await keyFromPassphrase('correct horse battery stapler', params)).not.toEqual(a);
    expect(await keyFromPassphrase('correct horse battery staple', newPassphraseParams(cheap))).not.toEqual(a);
  });

  it('refuses stored parameters outside the limits (a server cannot make a client spin or skimp)', async () => {
    const ok = newPassphraseParams();
    expect(passphraseParamsValid(ok)).toBe(true);
    for (const bad of [
      { ...ok, memoryKiB: 1024 },
      { ...ok, memoryKiB: 4 * 1024 * 1024 },
      { ...ok, iterations: 1 },
      { ...ok, parallelism: 64 },
      { ...ok, salt: 'short' },
      { ...ok, alg: 'scrypt' as 'argon2id' },
    ]) {
      expect(passphraseParamsValid(bad)).toBe(false);
      await expect(keyFromPassphrase('x', bad)).rejects.toThrow(RangeError);
    }
  });
});
