/**
 * End-to-end encryption in the CLI (docs/e2e-format.md), with the format's reference module
 * (functions/domain/e2e-format.ts) over Node's WebCrypto, so the browser opens what the CLI
 * sealed and the other way round:
 * - a sealed view of a local file that the browser's upload engine reads like any Blob: its
 *   slices are the stored object's bytes, sealed chunk by chunk as they are read, so parts
 *   are sealed in any order, retried or resumed, and the CRC-32s are of the sealed bytes;
 * - the passphrase, read from a file, $SENDBRIDGE_PASSPHRASE or a prompt without echo (never
 *   from the command line, where every user of the machine sees it in the process list);
 * - the transfer key of a download: the link's fragment, or the passphrase checked against the
 *   transfer's check value before any file is fetched.
 * Nothing here sends or prints a key or a passphrase.
 */
import { readFileSync } from 'node:fs';
import {
  E2E_CHUNK_BYTES,
  E2E_FORMAT_VERSION,
  E2E_PASSPHRASE_MIN_CHARS,
  E2E_TAG_BYTES,
  E2eTamperError,
  chunkCountOf,
  cipherSizeOf,
  keyFromFragment,
  keyFromPassphrase,
  keyMatches,
  openChunk,
  sealRange,
  type E2eTransferParams,
} from '../../../functions/domain/e2e-format';
import { CliError, EXIT, UsageError } from './errors';
import { readSecret } from './login';
import type { Context } from './context';

/** Sealed chunks kept for a second read (the engine reads a large part for its PUT and again for its CRC-32). */
const SEALED_CACHE_CHUNKS = 96;

/**
 * A local file as its sealed object: `size` is the stored size, and any byte range of it is
 * the sealed chunks that hold it (each chunk read from the file and sealed with sealRange of
 * the reference module, which seals a chunk alone the same way it seals it inside a part).
 */
export class SealedFile {
  readonly size: number;
  private readonly total: number;
  private readonly cache = new Map<number, Promise<Uint8Array>>();

  constructor(
    private readonly source: Blob,
    private readonly fileKey: CryptoKey,
    readonly plainSize: number,
    private readonly chunkBytes = E2E_CHUNK_BYTES,
  ) {
    if (source.size !== plainSize)
      throw new CliError(
        `the file changed size since the transfer was planned (${source.size} bytes, planned ${plainSize})`,
        EXIT.usage,
        'resume_mismatch',
      );
    this.size = cipherSizeOf(plainSize, chunkBytes);
    this.total = chunkCountOf(plainSize, chunkBytes);
  }

  /** Sealed chunk `index` (its ciphertext and tag). */
  chunk(index: number): Promise<Uint8Array> {
    const cached = this.cache.get(index);
    if (cached) {
      // most recently used goes last
      this.cache.delete(index);
      this.cache.set(index, cached);
      return cached;
    }
    const start = index * this.chunkBytes;
    const sealing = this.source
      .slice(start, Math.min(this.plainSize, start + this.chunkBytes))
      .arrayBuffer()
      .then((plain) => sealRange(this.fileKey, this.plainSize, start, new Uint8Array(plain), this.chunkBytes));
    sealing.catch(() => this.cache.delete(index));
    this.cache.set(index, sealing);
    while (this.cache.size > SEALED_CACHE_CHUNKS) this.cache.delete(this.cache.keys().next().value as number);
    return sealing;
  }

  /** The sealed object's bytes [start, end). */
  async bytes(start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
    const from = Math.max(0, Math.min(start, this.size));
    const to = Math.max(from, Math.min(end, this.size));
    const out = new Uint8Array(to - from);
    if (to === from) return out;
    const sealedChunk = this.chunkBytes + E2E_TAG_BYTES;
    const first = Math.floor(from / sealedChunk);
    const last = Math.min(this.total - 1, Math.floor((to - 1) / sealedChunk));
    const chunks = await Promise.all(
      Array.from({ length: last - first + 1 }, (_, i) => this.chunk(first + i).then((c) => [first + i, c] as const)),
    );
    for (const [index, sealed] of chunks) {
      const at = index * sealedChunk;
      const a = Math.max(from, at);
      const b = Math.min(to, at + sealed.length);
      out.set(sealed.subarray(a - at, b - at), a - from);
    }
    return out;
  }

  /** The sealed object as the Blob the upload engine reads (it only slices, reads and sends). */
  asBlob(): Blob {
    return new SealedSlice(this, 0, this.size) as unknown as Blob;
  }
}

/**
 * A byte range of a sealed file, shaped like a Blob: slice(), arrayBuffer(), bytes(), stream().
 * Sealing is asynchronous and a Blob's slice() is not, so the bytes are made when read.
 */
export class SealedSlice {
  readonly type = '';
  readonly [Symbol.toStringTag] = 'Blob';

  constructor(
    private readonly file: SealedFile,
    private readonly start: number,
    private readonly end: number,
  ) {}

  get size(): number {
    return this.end - this.start;
  }

  slice(start = 0, end = this.size): SealedSlice {
    const rel = (n: number) => (n < 0 ? Math.max(0, this.size + n) : Math.min(this.size, n));
    const a = rel(start);
    const b = Math.max(a, rel(end));
    return new SealedSlice(this.file, this.start + a, this.start + b);
  }

  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.file.bytes(this.start, this.end);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer;
  }

  stream(): ReadableStream<Uint8Array> {
    let at = this.start;
    const step = 8 * E2E_CHUNK_BYTES;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        if (at >= this.end) return controller.close();
        const next = Math.min(this.end, at + step);
        controller.enqueue(await this.file.bytes(at, next));
        at = next;
      },
    });
  }
}

/**
 * Cuts a download's bytes (64 KiB network reads) into whole sealed chunks before they reach
 * openingStream, which joins what it holds with every piece it gets: fed whole chunks, each
 * byte is copied once there instead of once per network read of its chunk. `onPiece` sees each
 * piece as it came (a digest, a count), so no other stream stage runs per network read.
 */
export function wholeSealedChunks(
  chunkBytes = E2E_CHUNK_BYTES,
  onPiece?: (piece: Uint8Array) => void,
): TransformStream<Uint8Array, Uint8Array> {
  const size = chunkBytes + E2E_TAG_BYTES;
  let block = new Uint8Array(size);
  let filled = 0;
  return new TransformStream({
    transform(bytes, controller) {
      onPiece?.(bytes);
      let at = 0;
      while (at < bytes.length) {
        const n = Math.min(size - filled, bytes.length - at);
        block.set(bytes.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === size) {
          controller.enqueue(block);
          block = new Uint8Array(size);
          filled = 0;
        }
      }
    },
    flush(controller) {
      if (filled > 0) controller.enqueue(block.subarray(0, filled));
    },
  });
}

/** Chunks being opened at once by openingWindow: WebCrypto runs them on libuv's threads. */
export const OPEN_WINDOW_CHUNKS = 3;

/**
 * openingStream of the reference module with several chunks opened at once (each with the
 * reference openChunk; the output keeps the order), fed whole sealed chunks by
 * wholeSealedChunks. The same refusals: a chunk whose tag does not match, an object that ends
 * early or runs on past its last chunk, all E2eTamperError. Awaiting one WebCrypto call per MiB
 * in turn held `get` to about half of a plain download (docs/benchmarks.md).
 */
export function openingWindow(
  fileKey: CryptoKey,
  plainSize: number,
  chunkBytes = E2E_CHUNK_BYTES,
  width = OPEN_WINDOW_CHUNKS,
): TransformStream<Uint8Array, Uint8Array> {
  const total = chunkCountOf(plainSize, chunkBytes);
  const lastSealed = plainSize - (total - 1) * chunkBytes + E2E_TAG_BYTES;
  const sizeOf = (i: number) => (i === total - 1 ? lastSealed : chunkBytes + E2E_TAG_BYTES);
  const pending: Promise<Uint8Array>[] = [];
  let index = 0;
  return new TransformStream({
    async transform(sealed, controller) {
      if (index >= total || sealed.length !== sizeOf(index)) throw new E2eTamperError(index);
      const opening = openChunk(fileKey, index, index === total - 1, sealed);
      // an error is taken when its turn comes; until then it must not count as unhandled
      opening.catch(() => undefined);
      pending.push(opening);
      index += 1;
      if (pending.length >= width) controller.enqueue(await pending.shift()!);
    },
    async flush(controller) {
      while (pending.length) controller.enqueue(await pending.shift()!);
      if (index !== total) throw new E2eTamperError(index);
    },
  });
}

/**
 * The engine's PUTs through fetch, with a sealed slice sent as the bytes it stands for: a body
 * fetch would not know how to read (S3 needs its length up front, so no chunked stream).
 */
export function sealedAwareFetch(fetchImpl: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    if (init?.body instanceof SealedSlice) return fetchImpl(input, { ...init, body: await init.body.bytes() });
    return fetchImpl(input, init);
  };
}

/** Why the passphrase is never an argument: the process list shows every process's arguments to all users. */
export const PASSPHRASE_SOURCES =
  '--passphrase-file <path>, $SENDBRIDGE_PASSPHRASE, or the prompt (a terminal); never an argument, which any user of the machine sees in the process list';

/** A passphrase from a file: its first line as written (a trailing newline is not part of it). */
function passphraseFromFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--passphrase-file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  return text.split(/\r?\n/u)[0] ?? '';
}

export const MIN_PASSPHRASE_CHARS = E2E_PASSPHRASE_MIN_CHARS;

/**
 * The passphrase of an encrypted send or download: --passphrase-file, else $SENDBRIDGE_PASSPHRASE,
 * else asked on the terminal without echo (twice for a send, so a typo does not lock the
 * recipients out). Without any of them and no terminal, a usage error says where to put it.
 */
export async function readPassphrase(
  ctx: Context,
  values: Record<string, unknown>,
  purpose: 'send' | 'get',
): Promise<string> {
  let passphrase: string;
  if (typeof values['passphrase-file'] === 'string') passphrase = passphraseFromFile(values['passphrase-file']);
  else if (ctx.env.SENDBRIDGE_PASSPHRASE) passphrase = ctx.env.SENDBRIDGE_PASSPHRASE;
  else if ((ctx.stdin as NodeJS.ReadStream).isTTY) {
    passphrase = await readSecret(
      ctx,
      purpose === 'send' ? 'Passphrase (tell it to the recipients yourself): ' : 'Passphrase of this transfer: ',
      { trim: false },
    );
    if (purpose === 'send' && passphrase) {
      const again = await readSecret(ctx, 'The same passphrase again: ', { trim: false });
      if (again !== passphrase) throw new UsageError('the two passphrases differ; nothing was sent');
    }
  } else
    throw new UsageError(
      `${purpose === 'send' ? 'an encrypted send by email needs a passphrase' : 'this transfer is opened with a passphrase'}: give it with ${PASSPHRASE_SOURCES}`,
    );
  if (!passphrase) throw new UsageError('the passphrase is empty');
  if (purpose === 'send' && [...passphrase].length < MIN_PASSPHRASE_CHARS)
    throw new UsageError(`the passphrase is too short: at least ${MIN_PASSPHRASE_CHARS} characters`);
  return passphrase;
}

/** The message and exit code of a stored file that does not open (docs/e2e-format.md). */
export class TamperedFileError extends CliError {
  constructor(name: string) {
    super(`This file was changed after it was sent: ${name}`, EXIT.server, 'e2e_tampered');
    this.name = 'TamperedFileError';
  }
}

/** Whether an error (or one it wraps) is the format's tamper error. */
export function isTamper(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof E2eTamperError) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The transfer key of an encrypted transfer being downloaded: from the link's fragment (link
 * mode), else from the passphrase; either way checked against the transfer's check value
 * before a byte of any file is fetched.
 */
export async function downloadKey(
  ctx: Context,
  values: Record<string, unknown>,
  e2e: E2eTransferParams,
  fragment: string | undefined,
): Promise<Uint8Array> {
  if (e2e.v !== E2E_FORMAT_VERSION)
    throw new CliError('This transfer was encrypted by a newer SendBridge: update the CLI', EXIT.usage, 'e2e_version');
  if (e2e.mode === 'link') {
    const key = fragment ? keyFromFragment(fragment) : null;
    if (!key)
      throw new UsageError(
        'this transfer is end-to-end encrypted: give the whole link, with its #k=... part (quote it for the shell)',
      );
    if (!(await keyMatches(key, e2e.check)))
      throw new CliError('The key in this link does not open the transfer', EXIT.auth, 'e2e_wrong_key');
    return key;
  }
  if (!e2e.kdf) throw new CliError('the transfer has no passphrase parameters', EXIT.server, 'invalid_encryption');
  const passphrase = await readPassphrase(ctx, values, 'get');
  let key: Uint8Array;
  try {
    key = await keyFromPassphrase(passphrase, e2e.kdf);
  } catch {
    throw new CliError('the transfer has passphrase parameters this CLI refuses', EXIT.server, 'invalid_encryption');
  }
  if (!(await keyMatches(key, e2e.check)))
    throw new CliError('This passphrase does not open the transfer', EXIT.auth, 'e2e_wrong_passphrase');
  return key;
}
