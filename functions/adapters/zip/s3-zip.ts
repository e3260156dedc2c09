/**
 * "Download all" (architecture §3 step 5): builds one ZIP of a transfer's objects into S3,
 * streaming S3 -> ZIP framing -> S3 multipart in constant memory: at most
 * (concurrency + 1) part buffers, whatever the archive's size.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { LONG_OPERATION, uploadTimeout } from '../../lib/clients/s3';
import { S3_MAX_PARTS, S3_MAX_PART_BYTES, S3_MIN_PART_BYTES } from '../../domain/upload';
import { MiB } from '../../domain/units';
import { log } from '../../lib/log';
import { planZip, zipStream } from './zip-stream';

export const DEFAULT_ZIP_PART_BYTES = 16 * MiB;
export const DEFAULT_UPLOAD_CONCURRENCY = 2;
const MAX_UPLOAD_CONCURRENCY = 4;
/** Re-opens of a source whose body broke mid-stream, resuming with a range from the last byte. */
const SOURCE_RESUMES = 3;

export interface ZipSourceObject {
  readonly key: string;
  /** file name or relative path inside the archive (sanitised and made unique here) */
  readonly name: string;
  /** declared size; the object must have exactly this many bytes */
  readonly size: number;
  /** ms since the epoch */
  readonly mtime?: number;
}

export interface BuildZipOptions {
  readonly s3: S3Client;
  readonly sourceBucket: string;
  /** archive order */
  readonly entries: readonly ZipSourceObject[];
  readonly targetBucket: string;
  readonly targetKey: string;
  /** default 16 MiB; at least 5 MiB; grown automatically so no archive needs more than 10,000 parts */
  readonly partSize?: number;
  /** UploadPart requests in flight, 1-4 (default 2) */
  readonly concurrency?: number;
  readonly contentDisposition?: string;
  readonly signal?: AbortSignal;
  /** ZIP64 records even for a small archive */
  readonly forceZip64?: boolean;
}

export interface UploadResult {
  readonly size: number;
  readonly parts: number;
  readonly etag?: string;
}

export async function buildZipToS3(opts: BuildZipOptions): Promise<UploadResult> {
  const started = Date.now();
  const plan = planZip(opts.entries, { forceZip64: opts.forceZip64 });
  const body = zipStream(
    plan,
    (e) => readS3Object(opts.s3, { bucket: opts.sourceBucket, key: e.key, size: e.size, signal: opts.signal }),
    { signal: opts.signal },
  );
  const result = await multipartUpload(
    opts.s3,
    {
      bucket: opts.targetBucket,
      key: opts.targetKey,
      contentType: 'application/zip',
      contentDisposition: opts.contentDisposition,
    },
    body,
    { partSize: opts.partSize, concurrency: opts.concurrency, signal: opts.signal, expectedSize: plan.size },
  );
  log.info('zip built', {
    targetKey: opts.targetKey,
    files: plan.entries.length,
    bytes: result.size,
    parts: result.parts,
    ms: Date.now() - started,
  });
  return result;
}

/** A source object's size differs from what the transfer record declares. */
export class SourceSizeError extends Error {
  constructor(
    readonly key: string,
    readonly expected: number,
    readonly actual: number | string,
  ) {
    super(`source object ${key} has ${actual} bytes, expected ${expected}`);
    this.name = 'SourceSizeError';
  }
}

/**
 * The bytes of one object, streamed. If the body breaks mid-way (connection reset, idle
 * timeout while backpressure paused it), it resumes from the next byte with a ranged GET
 * pinned to the same ETag, so the consumer sees one uninterrupted stream of the same object.
 */
export async function* readS3Object(
  s3: S3Client,
  o: { bucket: string; key: string; size: number; signal?: AbortSignal; resumes?: number },
): AsyncGenerator<Uint8Array, void, undefined> {
  let received = 0;
  let etag: string | undefined;
  let resumes = 0;
  for (;;) {
    const resuming = received > 0;
    // The SDK's Body in Node is the answer's own stream (http.IncomingMessage): read as it arrives, never buffered.
    const res = await s3.send(
      new GetObjectCommand({
        Bucket: o.bucket,
        Key: o.key,
        ...(resuming ? { Range: `bytes=${received}-`, ...(etag ? { IfMatch: etag } : {}) } : {}),
      }),
      o.signal ? { abortSignal: o.signal } : {},
    );
    if (!resuming) {
      etag = res.ETag;
      if (res.ContentLength !== undefined && res.ContentLength !== o.size) {
        destroyBody(res.Body);
        throw new SourceSizeError(o.key, o.size, res.ContentLength);
      }
    }
    const body = res.Body as AsyncIterable<Uint8Array> | undefined;
    if (!body || !(Symbol.asyncIterator in body)) throw new Error(`GetObject ${o.key}: body is not a Node stream`);
    try {
      for await (const chunk of body) {
        received += chunk.length;
        if (received > o.size) throw new SourceSizeError(o.key, o.size, `more than ${o.size}`);
        yield chunk;
      }
      if (received !== o.size) throw new SourceSizeError(o.key, o.size, received);
      return;
    } catch (err) {
      if (err instanceof SourceSizeError || o.signal?.aborted || resumes >= (o.resumes ?? SOURCE_RESUMES)) throw err;
      resumes++;
      log.warn('zip source stream broke, resuming', {
        key: o.key,
        received,
        resumes,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
}

function destroyBody(body: unknown): void {
  const b = body as { destroy?: () => void } | undefined;
  b?.destroy?.();
}

export interface UploadTarget {
  readonly bucket: string;
  readonly key: string;
  readonly contentType?: string;
  readonly contentDisposition?: string;
}

export interface MultipartOptions {
  readonly partSize?: number;
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** when known: grows the part size to stay within 10,000 parts, and is checked before completing */
  readonly expectedSize?: number;
}

/** Part size: the requested one, or larger so `expectedSize` fits in 10,000 parts (whole MiB). */
export function effectivePartSize(requested: number, expectedSize?: number): number {
  if (!Number.isSafeInteger(requested) || requested < S3_MIN_PART_BYTES || requested > S3_MAX_PART_BYTES) {
    throw new RangeError(
      `part size must be between ${S3_MIN_PART_BYTES} and ${S3_MAX_PART_BYTES} bytes, got ${requested}`,
    );
  }
  if (expectedSize === undefined) return requested;
  const needed = Math.ceil(expectedSize / S3_MAX_PARTS / MiB) * MiB;
  if (needed > S3_MAX_PART_BYTES) throw new RangeError(`${expectedSize} bytes exceed what 10,000 parts can hold`);
  return Math.max(requested, needed);
}

/**
 * Writes a byte stream into one S3 object by multipart upload. Parts are cut at exactly
 * `partSize` bytes and uploaded while the stream is still read, at most `concurrency` at a
 * time; when all are busy, the stream is not pulled (backpressure). Part buffers are reused.
 * On any failure the upload is aborted; Abort errors are ignored (s3rver answers 405).
 */
export async function multipartUpload(
  s3: S3Client,
  target: UploadTarget,
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  opts: MultipartOptions = {},
): Promise<UploadResult> {
  const partSize = effectivePartSize(opts.partSize ?? DEFAULT_ZIP_PART_BYTES, opts.expectedSize);
  const concurrency = opts.concurrency ?? DEFAULT_UPLOAD_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_UPLOAD_CONCURRENCY) {
    throw new RangeError(`concurrency must be 1-${MAX_UPLOAD_CONCURRENCY}, got ${concurrency}`);
  }
  const { signal } = opts;
  const Bucket = target.bucket;
  const Key = target.key;
  const created = await s3.send(
    new CreateMultipartUploadCommand({
      Bucket,
      Key,
      ...(target.contentType ? { ContentType: target.contentType } : {}),
      ...(target.contentDisposition ? { ContentDisposition: target.contentDisposition } : {}),
    }),
    signal ? { abortSignal: signal } : {},
  );
  const UploadId = created.UploadId;
  if (!UploadId) throw new Error(`CreateMultipartUpload ${Key}: no UploadId`);

  const free: Buffer[] = [];
  const inFlight = new Set<Promise<void>>();
  const parts: CompletedPart[] = [];
  let failure: { error: unknown } | undefined;
  let partNumber = 0;
  let total = 0;

  const uploadPart = (buf: Buffer, length: number) => {
    const PartNumber = ++partNumber;
    const p: Promise<void> = s3
      .send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: buf.subarray(0, length) }), {
        ...uploadTimeout(length),
        ...(signal ? { abortSignal: signal } : {}),
      })
      .then((r) => {
        if (!r.ETag) throw new Error(`UploadPart ${PartNumber}: no ETag`);
        parts[PartNumber - 1] = { PartNumber, ETag: r.ETag };
        free.push(buf);
      })
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  try {
    let current: Buffer | undefined;
    let filled = 0;
    for await (const chunk of body) {
      signal?.throwIfAborted();
      let at = 0;
      while (at < chunk.length) {
        if (!current) {
          while (inFlight.size >= concurrency) await Promise.race(inFlight);
          if (failure) throw failure.error;
          current = free.pop() ?? Buffer.allocUnsafe(partSize);
          filled = 0;
        }
        const n = Math.min(chunk.length - at, partSize - filled);
        current.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === partSize) {
          uploadPart(current, filled);
          current = undefined;
        }
      }
      total += chunk.length;
      if (failure) throw failure.error;
    }
    // The last part may be short; an empty stream still needs one (empty) part.
    if (current || partNumber === 0) uploadPart(current ?? Buffer.alloc(0), filled);
    await Promise.all(inFlight);
    if (failure) throw failure.error;
    if (opts.expectedSize !== undefined && total !== opts.expectedSize) {
      throw new Error(`stream for ${Key} had ${total} bytes, expected ${opts.expectedSize}`);
    }
    const done = await s3.send(
      new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
      { ...LONG_OPERATION, ...(signal ? { abortSignal: signal } : {}) },
    );
    return { size: total, parts: partNumber, ...(done.ETag ? { etag: done.ETag } : {}) };
  } catch (err) {
    await Promise.allSettled([...inFlight]);
    // Not with the (possibly aborted) signal: the parts must go either way.
    await s3.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
    throw err;
  }
}
