/**
 * The CLI's end-to-end encryption parts that need no server: a sealed file's slices are the
 * bytes the reference module seals (any range, any read order, the engine's stream read too),
 * the re-chunking of a download before it is opened, the passphrase never taken from argv,
 * and which key mode a send uses.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  E2E_CHUNK_BYTES,
  E2E_TAG_BYTES,
  cipherSizeOf,
  fileKeyOf,
  newFileParams,
  newTransferKey,
  openingStream,
  sealRange,
} from '../../functions/domain/e2e-format';
import {
  SealedFile,
  SealedSlice,
  isTamper,
  openingWindow,
  sealedAwareFetch,
  wholeSealedChunks,
} from '../../packages/cli/src/e2e';
import { parseCommandLine } from '../../packages/cli/src/args';
import { e2eModeOf } from '../../packages/cli/src/send';
import { UsageError } from '../../packages/cli/src/errors';

const MiB = 1024 * 1024;

async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const p of stream as unknown as AsyncIterable<Uint8Array>) parts.push(p);
  return Buffer.concat(parts);
}

describe('SealedFile', () => {
  it('slices are the sealed object the reference module makes, at any range and in any order', async () => {
    const plain = randomBytes(3 * MiB + 12_345);
    const key = newTransferKey();
    const { salt } = newFileParams(plain.length);
    const fileKey = await fileKeyOf(key, salt);
    const whole = Buffer.from(await sealRange(fileKey, plain.length, 0, plain));
    const sealed = new SealedFile(new Blob([plain]), fileKey, plain.length);
    expect(sealed.size).toBe(cipherSizeOf(plain.length));
    const blob = sealed.asBlob();
    expect(blob.size).toBe(whole.length);
    const S = E2E_CHUNK_BYTES + E2E_TAG_BYTES;
    const ranges: [number, number][] = [
      [S * 3, whole.length],
      [0, S],
      [S - 5, S + 7],
      [0, whole.length],
      [123, 2 * S + 999],
      [whole.length - 1, whole.length],
    ];
    for (const [a, b] of ranges) {
      const got = Buffer.from(await blob.slice(a, b).arrayBuffer());
      expect(got.equals(whole.subarray(a, b)), `${a}-${b}`).toBe(true);
    }
    // a slice of a slice, and the stream read the engine's CRC and PUT paths may use
    const inner = blob.slice(S, whole.length).slice(10, S + 10);
    expect(Buffer.from(await inner.arrayBuffer()).equals(whole.subarray(S + 10, 2 * S + 10))).toBe(true);
    expect((await collect(blob.stream())).equals(whole)).toBe(true);
  });

  it('an empty file is one sealed empty chunk, which opens', async () => {
    const fileKey = await fileKeyOf(newTransferKey(), newFileParams(0).salt);
    const sealed = new SealedFile(new Blob([]), fileKey, 0);
    const bytes = new Uint8Array(await sealed.asBlob().arrayBuffer());
    expect(bytes.length).toBe(E2E_TAG_BYTES);
    const opened = await collect(new Blob([bytes]).stream().pipeThrough(openingStream(fileKey, 0)));
    expect(opened.length).toBe(0);
  });

  it('refuses a file whose size is not the planned one', async () => {
    const fileKey = await fileKeyOf(newTransferKey(), newFileParams(5).salt);
    expect(() => new SealedFile(new Blob([new Uint8Array(6)]), fileKey, 5)).toThrow(/changed size/u);
  });

  it('is sent as its bytes by the fetch the engine uses', async () => {
    const plain = randomBytes(70_000);
    const fileKey = await fileKeyOf(newTransferKey(), newFileParams(plain.length).salt);
    const slice = new SealedFile(new Blob([plain]), fileKey, plain.length).asBlob().slice(0, 1000);
    expect(slice).toBeInstanceOf(SealedSlice);
    let body: unknown;
    const put = sealedAwareFetch((async (_url: RequestInfo | URL, init?: RequestInit) => {
      body = init?.body;
      return new Response(null, { status: 200 });
    }) as typeof fetch);
    await put('http://127.0.0.1/x', { method: 'PUT', body: slice as unknown as BodyInit });
    expect(body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(body as Uint8Array).equals(Buffer.from(await slice.arrayBuffer()))).toBe(true);
  });
});

/** The pieces as a stream, in order, as a network read hands them on. */
function streamOf(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(p);
      controller.close();
    },
  });
}

describe('wholeSealedChunks', () => {
  it('re-cuts any pieces into whole sealed chunks, the rest last, and opens to the plaintext', async () => {
    const plain = randomBytes(2 * MiB + 500);
    const fileKey = await fileKeyOf(newTransferKey(), newFileParams(plain.length).salt);
    const sealed = Buffer.from(await sealRange(fileKey, plain.length, 0, plain));
    const pieces: Uint8Array[] = [];
    for (let at = 0, step = 1; at < sealed.length; at += step, step = (step * 7 + 13) % 200_000 || 1)
      pieces.push(sealed.subarray(at, Math.min(sealed.length, at + step)));
    const cut = await collect(streamOf(pieces).pipeThrough(wholeSealedChunks()));
    expect(cut.equals(sealed)).toBe(true);
    const sizes: number[] = [];
    await streamOf(pieces)
      .pipeThrough(wholeSealedChunks())
      .pipeTo(new WritableStream({ write: (c) => void sizes.push(c.length) }));
    const S = E2E_CHUNK_BYTES + E2E_TAG_BYTES;
    expect(sizes).toEqual([S, S, sealed.length - 2 * S]);
    const opened = await collect(
      streamOf(pieces).pipeThrough(wholeSealedChunks()).pipeThrough(openingStream(fileKey, plain.length)),
    );
    expect(opened.equals(plain)).toBe(true);
    // a flipped byte is the format's tamper error, which the CLI recognises
    const bad = Buffer.from(sealed);
    bad[S + 3] = (bad[S + 3] ?? 0) ^ 0xff;
    const failing = collect(
      new Blob([bad]).stream().pipeThrough(wholeSealedChunks()).pipeThrough(openingStream(fileKey, plain.length)),
    );
    const err = await failing.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isTamper(err)).toBe(true);
  });
});

describe('openingWindow', () => {
  /** The stored bytes through the re-chunking and the windowed opener, as `get` reads them. */
  const openWindowed = (bytes: Uint8Array, fileKey: CryptoKey, plainSize: number, chunkBytes?: number) =>
    collect(
      streamOf([bytes.subarray(0, 1000), bytes.subarray(1000)])
        .pipeThrough(wholeSealedChunks(chunkBytes))
        .pipeThrough(openingWindow(fileKey, plainSize, chunkBytes)),
    );
  const outcome = (p: Promise<unknown>) =>
    p.then(
      (v) => ({ ok: true as const, v }),
      (e: unknown) => ({ ok: false as const, tamper: isTamper(e) }),
    );

  it('opens what openingStream opens and refuses what it refuses: changed, cut, cut on a chunk, overlong, empty body', async () => {
    const chunkBytes = 4096;
    for (const plainSize of [0, 1, chunkBytes, 5 * chunkBytes + 17, 7 * chunkBytes]) {
      const plain = randomBytes(plainSize);
      const fileKey = await fileKeyOf(newTransferKey(), newFileParams(plainSize).salt);
      const sealed = Buffer.from(await sealRange(fileKey, plainSize, 0, plain, chunkBytes));
      const S = chunkBytes + E2E_TAG_BYTES;
      const flipped = Buffer.from(sealed);
      flipped[Math.floor(sealed.length / 2)] = (flipped[Math.floor(sealed.length / 2)] ?? 0) ^ 1;
      const variants: [string, Uint8Array][] = [
        ['whole', sealed],
        ['flipped', flipped],
        ['cut', sealed.subarray(0, sealed.length - 1)],
        ['cut on a chunk', sealed.subarray(0, Math.max(0, sealed.length - S))],
        ['overlong', Buffer.concat([sealed, Buffer.from([0])])],
        ['a chunk more', Buffer.concat([sealed, sealed.subarray(0, Math.min(S, sealed.length))])],
        ['empty', new Uint8Array(0)],
      ];
      for (const [what, bytes] of variants) {
        const reference = await outcome(
          collect(new Blob([bytes as BlobPart]).stream().pipeThrough(openingStream(fileKey, plainSize, chunkBytes))),
        );
        const windowed = await outcome(openWindowed(bytes, fileKey, plainSize, chunkBytes));
        expect(windowed.ok, `${plainSize} ${what}`).toBe(reference.ok);
        if (reference.ok && windowed.ok) expect(Buffer.from(windowed.v as Buffer).equals(plain)).toBe(true);
        if (!windowed.ok) expect(windowed.tamper, `${plainSize} ${what}`).toBe(true);
      }
    }
  });
});

describe('passphrases and key modes on the command line', () => {
  it('never takes a passphrase as an argument, and says why', () => {
    for (const argv of [
      ['send', 'a', '--link', '--e2e', '--passphrase', 'secret-words'],
      ['send', 'a', '--link', '--e2e', '--passphrase=secret-words'],
      ['get', 'abc', '--passphrase', 'secret-words'],
    ]) {
      let err: unknown;
      try {
        parseCommandLine(argv);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toContain('process list');
      expect((err as Error).message).not.toContain('secret-words');
    }
    expect(() => parseCommandLine(['send', 'a', '--link', '--passphrase-file', 'p.txt'])).toThrow(/--e2e/u);
    expect(parseCommandLine(['get', 'abc', '--passphrase-file', 'p.txt']).values['passphrase-file']).toBe('p.txt');
  });

  it('a link send keeps the key in the fragment; by email, or with a passphrase file, a passphrase', () => {
    expect(e2eModeOf(parseCommandLine(['send', 'a', '--link', '--e2e']).values)).toBe('link');
    expect(e2eModeOf(parseCommandLine(['send', 'a', '--to', 'r@x.io', '--e2e']).values)).toBe('passphrase');
    expect(e2eModeOf(parseCommandLine(['send', 'a', '--link', '--e2e', '--passphrase-file', 'p.txt']).values)).toBe(
      'passphrase',
    );
    expect(e2eModeOf(parseCommandLine(['send', 'a', '--link']).values)).toBeUndefined();
  });
});
