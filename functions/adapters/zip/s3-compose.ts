/**
 * Builds a ZIP inside S3 from a composed plan (zip-compose.ts): copy parts by UploadPartCopy,
 * assembled parts streamed from the framing and ranged GETs into UploadPart. The work is
 * resumable: what is done is kept beside the archive (`<key>.build.json`: the upload id and each
 * finished part's ETag), so an invocation that reaches its deadline pauses and the next one
 * takes up the parts left, and a retried invocation redoes at most the parts it had in flight.
 *
 * Where the store has no ranged UploadPartCopy (s3rver answers NotImplemented), a copy part is
 * read and uploaded instead; then every byte passes through, and each entry's recorded CRC-32 is
 * checked against the bytes before the archive is completed.
 */
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { LONG_OPERATION, uploadTimeout } from '../../lib/clients/s3';
import { log } from '../../lib/log';
import { type ComposedPart, type ComposePlan, type FramedEntry, framingBytes, planComposedZip } from './zip-compose';
import { crc32, crc32Combine } from './zip-format';

export interface ComposedSource extends FramedEntry {
  /** the source object's key in the source bucket */
  readonly key: string;
}

export interface ComposeBuildOptions {
  readonly s3: S3Client;
  readonly sourceBucket: string;
  /** archive order; names already sanitised and unique, CRC-32 as recorded at upload */
  readonly entries: readonly ComposedSource[];
  readonly targetBucket: string;
  readonly targetKey: string;
  readonly contentDisposition?: string;
  /** requests in flight (default 8, at most 16) */
  readonly concurrency?: number;
  /** no part is started after this time (ms since the epoch): the build pauses with its progress kept */
  readonly deadline?: number;
  readonly signal?: AbortSignal;
  readonly now?: () => number;
  /** the plan's sizing (tests); S3's own limits by default */
  readonly planOptions?: Parameters<typeof planComposedZip>[1];
}

export type ComposeResult =
  | { readonly status: 'complete'; readonly size: number; readonly parts: number; readonly etag?: string }
  | { readonly status: 'paused'; readonly done: number; readonly parts: number };

/** An entry's bytes are not what its recorded CRC-32 says. */
export class CrcMismatchError extends Error {
  override readonly name = 'CrcMismatchError';
  constructor(
    readonly key: string,
    readonly recorded: number,
    readonly actual: number,
  ) {
    super(`source ${key}: CRC-32 ${actual.toString(16)} differs from the recorded ${recorded.toString(16)}`);
  }
}

interface BuildState {
  readonly version: 1;
  /** the entries the plan came from: another set of files is another archive */
  readonly planHash: string;
  readonly uploadId: string;
  /** part number -> ETag */
  readonly parts: Record<string, string>;
  /** CRC-32 of source ranges read through, by `entry:start:end`, to check entries read whole */
  readonly ranges: Record<string, number>;
}

const PART_ATTEMPTS = 3;
const SAVE_EVERY_PARTS = 25;
const MAX_CONCURRENCY = 16;

export const buildStateKey = (targetKey: string) => `${targetKey}.build.json`;

function planHashOf(entries: readonly ComposedSource[], plan: ComposePlan): string {
  const h = createHash('sha256');
  for (const e of entries)
    h.update(`${e.key}\0${Buffer.from(e.nameBytes).toString('hex')}\0${e.size}\0${e.crc}\0${e.mtimeMs}\n`);
  h.update(`${plan.parts.length}:${plan.size}:${plan.forceZip64}`);
  return h.digest('hex');
}

/** Builds (or resumes building) the archive; see the module's comment. */
export async function buildComposedZip(opts: ComposeBuildOptions): Promise<ComposeResult> {
  const now = opts.now ?? Date.now;
  const concurrency = opts.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY)
    throw new RangeError(`concurrency must be 1-${MAX_CONCURRENCY}, got ${concurrency}`);
  const plan = planComposedZip(
    opts.entries.map((e) => ({ nameBytes: e.nameBytes.length, size: e.size })),
    opts.planOptions,
  );
  const planHash = planHashOf(opts.entries, plan);
  const Bucket = opts.targetBucket;
  const Key = opts.targetKey;
  const s3 = opts.s3;
  /** The request's options: its timeout, and the build's abort signal. */
  const with_ = (extra: { requestTimeout?: number } = {}) => ({
    ...extra,
    ...(opts.signal ? { abortSignal: opts.signal } : {}),
  });

  let state = await readState(opts);
  if (state && state.planHash !== planHash) {
    await opts.s3
      .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: state.uploadId }))
      .catch(() => undefined);
    state = undefined;
  }
  if (!state) {
    const created = await s3.send(
      new CreateMultipartUploadCommand({
        Bucket,
        Key,
        ContentType: 'application/zip',
        ...(opts.contentDisposition ? { ContentDisposition: opts.contentDisposition } : {}),
      }),
      with_(),
    );
    if (!created.UploadId) throw new Error(`CreateMultipartUpload ${Key}: no UploadId`);
    state = { version: 1, planHash, uploadId: created.UploadId, parts: {}, ranges: {} };
    await writeState(opts, state);
  }
  const s: BuildState = state;
  const UploadId = s.uploadId;
  let rangedCopy = true;
  let unsaved = 0;

  /** A ranged GET of a source, CRC-32 of the range kept for the entry's check. */
  async function* readRange(entry: number, start: number, end: number): AsyncGenerator<Uint8Array> {
    if (end <= start) return;
    const src = opts.entries[entry]!;
    const res = await s3.send(
      new GetObjectCommand({ Bucket: opts.sourceBucket, Key: src.key, Range: `bytes=${start}-${end - 1}` }),
      with_(),
    );
    const body = res.Body as AsyncIterable<Uint8Array> | undefined;
    if (!body || !(Symbol.asyncIterator in body)) throw new Error(`GetObject ${src.key}: body is not a stream`);
    let crc = 0;
    let got = 0;
    for await (const chunk of body) {
      crc = crc32(chunk, crc);
      got += chunk.length;
      yield chunk;
    }
    if (got !== end - start) throw new Error(`GetObject ${src.key} ${start}-${end - 1}: ${got} bytes`);
    s.ranges[`${entry}:${start}:${end}`] = crc;
  }

  async function* partBytes(part: ComposedPart): AsyncGenerator<Uint8Array> {
    if (part.kind === 'copy') {
      yield* readRange(part.entry, part.start, part.end);
      return;
    }
    for (const piece of part.pieces) {
      if (piece.kind === 'read') yield* readRange(piece.entry, piece.start, piece.end);
      else yield framingBytes(piece, plan, opts.entries);
    }
  }

  async function uploadBytes(part: ComposedPart): Promise<string> {
    const out = await s3.send(
      new UploadPartCommand({
        Bucket,
        Key,
        UploadId,
        PartNumber: part.number,
        ContentLength: part.size,
        Body: Readable.from(partBytes(part)),
      }),
      with_(uploadTimeout(part.size)),
    );
    if (!out.ETag) throw new Error(`UploadPart ${part.number}: no ETag`);
    return out.ETag;
  }

  async function copyRange(part: Extract<ComposedPart, { kind: 'copy' }>): Promise<string> {
    const src = opts.entries[part.entry]!;
    const out = await s3.send(
      new UploadPartCopyCommand({
        Bucket,
        Key,
        UploadId,
        PartNumber: part.number,
        CopySource: `${opts.sourceBucket}/${src.key.split('/').map(encodeURIComponent).join('/')}`,
        CopySourceRange: `bytes=${part.start}-${part.end - 1}`,
      }),
      with_(LONG_OPERATION),
    );
    const etag = out.CopyPartResult?.ETag;
    if (!etag) throw new Error(`UploadPartCopy ${part.number}: no ETag`);
    return etag;
  }

  async function runPart(part: ComposedPart): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (part.kind === 'copy' && rangedCopy) {
          try {
            s.parts[part.number] = await copyRange(part);
            return;
          } catch (err) {
            if ((err as { name?: string }).name !== 'NotImplemented') throw err;
            // The store cannot copy a range: every copy part is read through from now on.
            if (rangedCopy) log.warn('zip compose: no ranged UploadPartCopy, reading copy parts', { key: Key });
            rangedCopy = false;
          }
        }
        s.parts[part.number] = await uploadBytes(part);
        return;
      } catch (err) {
        if (opts.signal?.aborted || attempt >= PART_ATTEMPTS || err instanceof CrcMismatchError) throw err;
        log.warn('zip compose: part failed, retrying', {
          part: part.number,
          attempt,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  const todo = plan.parts.filter((p) => !s.parts[p.number]);
  let next = 0;
  let failure: { error: unknown } | undefined;
  let paused = false;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, todo.length) }, async () => {
      while (!failure && next < todo.length) {
        if (opts.deadline !== undefined && now() >= opts.deadline) {
          paused = true;
          return;
        }
        const part = todo[next++]!;
        try {
          await runPart(part);
        } catch (error) {
          failure ??= { error };
          return;
        }
        if (++unsaved >= SAVE_EVERY_PARTS) {
          unsaved = 0;
          await writeState(opts, s);
        }
      }
    }),
  );
  await writeState(opts, s);
  if (failure) throw failure.error;
  const done = plan.parts.filter((p) => s.parts[p.number]).length;
  if (paused || done < plan.parts.length) return { status: 'paused', done, parts: plan.parts.length };

  checkReadEntries(opts.entries, s.ranges);
  const completed = await s3.send(
    new CompleteMultipartUploadCommand({
      Bucket,
      Key,
      UploadId,
      MultipartUpload: { Parts: plan.parts.map((p) => ({ PartNumber: p.number, ETag: s.parts[p.number]! })) },
    }),
    with_(LONG_OPERATION),
  );
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key }), with_());
  if (head.ContentLength !== plan.size)
    throw new Error(`archive ${Key} is ${head.ContentLength} bytes, planned ${plan.size}`);
  await opts.s3.send(new DeleteObjectCommand({ Bucket, Key: buildStateKey(Key) })).catch(() => undefined);
  return {
    status: 'complete',
    size: plan.size,
    parts: plan.parts.length,
    ...(completed.ETag ? { etag: completed.ETag } : {}),
  };
}

/**
 * Every entry whose bytes were all read (ranges covering it from 0 to its size) must have its
 * recorded CRC-32; entries S3 copied were checked by S3 against the checksum of their upload.
 */
function checkReadEntries(entries: readonly ComposedSource[], ranges: Readonly<Record<string, number>>): void {
  const byEntry = new Map<number, { start: number; end: number; crc: number }[]>();
  for (const [id, crc] of Object.entries(ranges)) {
    const [entry, start, end] = id.split(':').map(Number) as [number, number, number];
    byEntry.set(entry, [...(byEntry.get(entry) ?? []), { start, end, crc }]);
  }
  entries.forEach((e, i) => {
    const list = (byEntry.get(i) ?? []).sort((a, b) => a.start - b.start);
    let at = 0;
    let crc = 0;
    for (const r of list) {
      if (r.start !== at) return; // not read whole: S3 copied part of it
      crc = crc32Combine(crc, r.crc, r.end - r.start);
      at = r.end;
    }
    if (at === e.size && e.size > 0 && crc !== e.crc >>> 0) throw new CrcMismatchError(e.key, e.crc >>> 0, crc);
    if (e.size === 0 && e.crc >>> 0 !== 0) throw new CrcMismatchError(e.key, e.crc >>> 0, 0);
  });
}

async function readState(opts: ComposeBuildOptions): Promise<BuildState | undefined> {
  try {
    const res = await opts.s3.send(
      new GetObjectCommand({ Bucket: opts.targetBucket, Key: buildStateKey(opts.targetKey) }),
    );
    const text = await (res.Body as { transformToString(): Promise<string> }).transformToString();
    const parsed = JSON.parse(text) as BuildState;
    return parsed.version === 1 && typeof parsed.uploadId === 'string' ? parsed : undefined;
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return undefined;
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

async function writeState(opts: ComposeBuildOptions, state: BuildState): Promise<void> {
  await opts.s3.send(
    new PutObjectCommand({
      Bucket: opts.targetBucket,
      Key: buildStateKey(opts.targetKey),
      Body: JSON.stringify(state),
      ContentType: 'application/json',
    }),
  );
}
