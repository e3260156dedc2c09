import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { LONG_OPERATION, presign, s3, uploadTimeout } from '../lib/clients/s3';
import { config } from '../lib/env';
import type { RegionId } from '../domain/regions';
import { GiB } from '../domain/units';
import { taggedDisposition } from '../domain/delivery-events';

/** Heads both buckets of every configured region; per region ok or the failing bucket's error. */
export async function checkBuckets(): Promise<Record<string, { ok: boolean; error?: string }>> {
  const entries = Object.entries(config().regionBuckets) as [
    RegionId,
    { bucket: string; anonBucket: string; awsRegion: string },
  ][];
  const results = await Promise.all(
    entries.map(async ([regionId, b]) => {
      try {
        await Promise.all(
          [b.bucket, b.anonBucket].map((Bucket) => s3(b.awsRegion).send(new HeadBucketCommand({ Bucket }))),
        );
        return [regionId, { ok: true }] as const;
      } catch (err) {
        return [regionId, { ok: false, error: describe(err) }] as const;
      }
    }),
  );
  return Object.fromEntries(results);
}

function describe(err: unknown): string {
  if (err && typeof err === 'object' && 'name' in err) return String((err as { name: unknown }).name);
  return String(err);
}

/** Where a transfer's objects live: the region's bucket, or its anon bucket for guests. */
export function bucketFor(regionId: RegionId, anon: boolean): { bucket: string; awsRegion: string } {
  const b = config().regionBuckets[regionId];
  if (!b) throw new Error(`no buckets configured for region ${regionId}`);
  return { bucket: anon ? b.anonBucket : b.bucket, awsRegion: b.awsRegion };
}

export interface ObjectRef {
  readonly regionId: RegionId;
  readonly anon: boolean;
  readonly key: string;
}

function client(ref: Pick<ObjectRef, 'regionId' | 'anon'>) {
  const { bucket, awsRegion } = bucketFor(ref.regionId, ref.anon);
  return { Bucket: bucket, s3: s3(awsRegion) };
}

/** Presigned PUT of a whole object; the signed Content-Length pins its size in S3. */
export async function presignPut(ref: ObjectRef, size: number, expiresIn: number): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  return presign(c, new PutObjectCommand({ Bucket, Key: ref.key, ContentLength: size }), expiresIn);
}

/**
 * A multipart upload S3 keeps a full-object CRC-32 of: its completion can hand S3 the CRC-32 the
 * uploader recorded (completeMultipart), and S3 refuses bytes that do not match it (BadDigest).
 * Parts need no checksum of their own for this type, so presigned part PUTs stay unchanged.
 */
export async function startMultipart(ref: ObjectRef): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  const out = await c.send(
    new CreateMultipartUploadCommand({
      Bucket,
      Key: ref.key,
      ContentType: 'application/octet-stream',
      ChecksumAlgorithm: 'CRC32',
      ChecksumType: 'FULL_OBJECT',
    }),
  );
  if (!out.UploadId) throw new Error('CreateMultipartUpload returned no UploadId');
  return out.UploadId;
}

export async function presignPart(
  ref: ObjectRef,
  uploadId: string,
  partNumber: number,
  size: number,
  expiresIn: number,
): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  return presign(
    c,
    new UploadPartCommand({ Bucket, Key: ref.key, UploadId: uploadId, PartNumber: partNumber, ContentLength: size }),
    expiresIn,
  );
}

/** S3's form of a CRC-32: the 4 bytes big-endian, base64. */
export function crc32Header(crc32: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc32 >>> 0);
  return b.toString('base64');
}

/**
 * Puts the parts together. With `crc32` (the whole file's, of an upload started with its
 * full-object type) S3 checks the object against it and answers BadDigest (400) on a mismatch.
 */
export async function completeMultipart(
  ref: ObjectRef,
  uploadId: string,
  parts: readonly { partNumber: number; etag: string }[],
  crc32?: number,
): Promise<void> {
  const { s3: c, Bucket } = client(ref);
  await c.send(
    new CompleteMultipartUploadCommand({
      Bucket,
      Key: ref.key,
      UploadId: uploadId,
      MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      ...(crc32 === undefined ? {} : { ChecksumCRC32: crc32Header(crc32), ChecksumType: 'FULL_OBJECT' as const }),
    }),
    LONG_OPERATION,
  );
}

/** Best effort: S3 also drops incomplete uploads by lifecycle; s3rver answers 405 to Abort. */
export async function abortMultipart(ref: ObjectRef, uploadId: string): Promise<void> {
  const { s3: c, Bucket } = client(ref);
  try {
    await c.send(new AbortMultipartUploadCommand({ Bucket, Key: ref.key, UploadId: uploadId }));
  } catch {
    // already completed, aborted, or unsupported by the emulator
  }
}

/** Deletes one object (S3 answers success for a missing one). */
export async function deleteObject(ref: ObjectRef): Promise<void> {
  const { s3: c, Bucket } = client(ref);
  await c.send(new DeleteObjectCommand({ Bucket, Key: ref.key }));
}

/** The stored size, or undefined when the object does not exist. */
export async function objectSize(ref: ObjectRef): Promise<number | undefined> {
  const { s3: c, Bucket } = client(ref);
  try {
    const out = await c.send(new HeadObjectCommand({ Bucket, Key: ref.key }));
    return out.ContentLength ?? 0;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (err as { name?: string }).name === 'NotFound') return undefined;
    throw err;
  }
}

/**
 * RFC 6266 attachment header: an ASCII fallback `filename` (quotes, backslashes and controls
 * replaced) and the exact UTF-8 name in `filename*`, so every browser saves it under its name
 * and never renders it inline.
 */
export function attachmentDisposition(fileName: string): string {
  const base = fileName.split(/[\\/]/u).pop() || 'download';
  const ascii = base.replace(/[^\x20-\x7e]/gu, '_').replace(/["\\%]/gu, '_') || 'download';
  const encoded = encodeURIComponent(base).replace(/['()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Short-lived GET that downloads as an attachment with the original name. With `deliveryId` the
 * signed disposition carries the grant's id, which the storage's request log reports back
 * (domain/delivery-events.ts).
 */
export async function presignDownload(
  ref: ObjectRef,
  fileName: string,
  expiresIn: number,
  deliveryId?: string,
): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  const disposition = attachmentDisposition(fileName);
  return presign(
    c,
    new GetObjectCommand({
      Bucket,
      Key: ref.key,
      ResponseContentDisposition: deliveryId ? taggedDisposition(disposition, deliveryId) : disposition,
      ResponseContentType: 'application/octet-stream',
    }),
    expiresIn,
  );
}

/** Deletes every object under a prefix, a page (1,000 keys) at a time; returns how many. */
export async function deletePrefix(ref: Pick<ObjectRef, 'regionId' | 'anon'>, prefix: string): Promise<number> {
  const { s3: c, Bucket } = client(ref);
  let deleted = 0;
  let ContinuationToken: string | undefined;
  do {
    const page = await c.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken, MaxKeys: 1000 }));
    const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (objects.length > 0) {
      await c.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: objects, Quiet: true } }));
      deleted += objects.length;
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return deleted;
}

/** Short-lived GET shown inline (profile pictures and logos, stored only as image types). */
export async function presignDownloadInline(ref: ObjectRef, expiresIn: number): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  return presign(c, new GetObjectCommand({ Bucket, Key: ref.key }), expiresIn);
}

/** Short-lived HEAD (the speed test times it; the buckets block public access). */
export async function presignHead(ref: ObjectRef, expiresIn: number): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  return presign(c, new HeadObjectCommand({ Bucket, Key: ref.key }), expiresIn);
}

/** Presigned PUT that pins the content type and length (both signed). */
export async function presignTypedPut(
  ref: ObjectRef,
  contentType: string,
  size: number,
  expiresIn: number,
): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  return presign(
    c,
    new PutObjectCommand({ Bucket, Key: ref.key, ContentType: contentType, ContentLength: size }),
    expiresIn,
  );
}

export async function objectHead(ref: ObjectRef): Promise<{ size: number; contentType?: string } | undefined> {
  const { s3: c, Bucket } = client(ref);
  try {
    const out = await c.send(new HeadObjectCommand({ Bucket, Key: ref.key }));
    return { size: out.ContentLength ?? 0, ...(out.ContentType ? { contentType: out.ContentType } : {}) };
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (err as { name?: string }).name === 'NotFound') return undefined;
    throw err;
  }
}

// ---- server-side copy (forwarded transfers) --------------------------------------------------

/** S3's ceiling for one CopyObject, and for one UploadPartCopy part. */
export const MAX_COPY_OBJECT_BYTES = 5 * GiB;
/** S3 allows at most 10,000 parts; copies smaller than this use fewer, larger requests. */
export const COPY_PART_BYTES = GiB;
const MAX_PARTS = 10_000;
/** Part copies of one object in flight together (each is a server-side copy, not a transfer through us). */
const PART_COPY_CONCURRENCY = 8;

/**
 * How copies are cut: S3's limits in production; the S3 conformance tests shrink them to run a
 * multipart copy of a few MiB against moto (S3's 5 MiB minimum part still holds there).
 */
export interface CopySizing {
  /** largest object copied with one CopyObject */
  readonly singleCopyMax: number;
  /** part size of a multipart copy (grown when 10,000 parts would not do) */
  readonly partBytes: number;
}
const S3_COPY_SIZING: CopySizing = { singleCopyMax: MAX_COPY_OBJECT_BYTES, partBytes: COPY_PART_BYTES };

/** Byte ranges (inclusive ends) of a multipart copy: 1 GiB parts, larger when 10,000 would not do, never above 5 GiB. */
export function copyPartRanges(
  size: number,
  basePartBytes = COPY_PART_BYTES,
): { partNumber: number; start: number; end: number }[] {
  if (!Number.isSafeInteger(size) || size <= 0)
    throw new RangeError('copy size must be a positive whole number of bytes');
  const partSize = Math.max(basePartBytes, Math.ceil(size / MAX_PARTS));
  if (partSize > MAX_COPY_OBJECT_BYTES) throw new RangeError('object too large to copy');
  const ranges: { partNumber: number; start: number; end: number }[] = [];
  for (let start = 0, partNumber = 1; start < size; start += partSize, partNumber += 1) {
    ranges.push({ partNumber, start, end: Math.min(size, start + partSize) - 1 });
  }
  return ranges;
}

function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Copies an object inside S3 (same region): never through this function's memory or network.
 * Up to 5 GiB in one CopyObject; above, a multipart upload whose parts are UploadPartCopy
 * ranges of the source, aborted when any part fails. Throws S3's error (NoSuchKey when the
 * source is gone).
 */
export async function copyObject(
  from: ObjectRef,
  to: ObjectRef,
  size: number,
  sizing: CopySizing = S3_COPY_SIZING,
): Promise<void> {
  const src = client(from);
  const dest = client(to);
  if (bucketFor(from.regionId, from.anon).awsRegion !== bucketFor(to.regionId, to.anon).awsRegion) {
    throw new Error('server-side copies stay in one AWS region');
  }
  const CopySource = copySource(src.Bucket, from.key);
  if (size <= sizing.singleCopyMax) {
    // Tags are not copied: the source may carry GuardDuty's scan tag, and copying tags needs
    // s3:GetObjectTagging and s3:PutObjectTagging, which no function role holds. A copy under the
    // scanned prefix is a new object that GuardDuty scans (and tags) itself.
    await dest.s3.send(
      new CopyObjectCommand({
        Bucket: dest.Bucket,
        Key: to.key,
        CopySource,
        MetadataDirective: 'COPY',
        TaggingDirective: 'REPLACE',
      }),
      LONG_OPERATION,
    );
    return;
  }
  const started = await dest.s3.send(
    new CreateMultipartUploadCommand({ Bucket: dest.Bucket, Key: to.key, ContentType: 'application/octet-stream' }),
  );
  const UploadId = started.UploadId;
  if (!UploadId) throw new Error('CreateMultipartUpload returned no UploadId');
  try {
    const ranges = copyPartRanges(size, sizing.partBytes);
    const parts: { PartNumber: number; ETag: string }[] = new Array(ranges.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PART_COPY_CONCURRENCY, ranges.length) }, async () => {
        while (next < ranges.length) {
          const i = next++;
          const r = ranges[i]!;
          const out = await dest.s3.send(
            new UploadPartCopyCommand({
              Bucket: dest.Bucket,
              Key: to.key,
              UploadId,
              PartNumber: r.partNumber,
              CopySource,
              CopySourceRange: `bytes=${r.start}-${r.end}`,
            }),
            LONG_OPERATION,
          );
          const ETag = out.CopyPartResult?.ETag;
          if (!ETag) throw new Error(`UploadPartCopy of part ${r.partNumber} returned no ETag`);
          parts[i] = { PartNumber: r.partNumber, ETag };
        }
      }),
    );
    await dest.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: dest.Bucket,
        Key: to.key,
        UploadId,
        MultipartUpload: { Parts: parts },
      }),
      LONG_OPERATION,
    );
  } catch (err) {
    await abortMultipart(to, UploadId);
    throw err;
  }
}

/** Whether an S3 error says the object (or its source) does not exist. */
export function isMissingObject(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === 'NoSuchKey' || e?.Code === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404
  );
}

// ---- branding images ----------------------------------------------------------------------

/** The first `bytes` bytes of an object (a ranged GET), to check what it really is; undefined when absent. */
export async function readObjectHead(ref: ObjectRef, bytes: number): Promise<Uint8Array | undefined> {
  const { s3: c, Bucket } = client(ref);
  try {
    const out = await c.send(new GetObjectCommand({ Bucket, Key: ref.key, Range: `bytes=0-${bytes - 1}` }));
    const chunks: Buffer[] = [];
    let got = 0;
    // Node's Readable (the SDK's Body in Node): breaking out of the loop destroys it.
    for await (const chunk of out.Body as Readable) {
      chunks.push(chunk as Buffer);
      got += (chunk as Buffer).length;
      if (got >= bytes) break;
    }
    return new Uint8Array(Buffer.concat(chunks).subarray(0, bytes));
  } catch (err) {
    if (isMissingObject(err) || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416)
      return undefined;
    throw err;
  }
}

/**
 * Short-lived GET of a checked branding image: the answer's Content-Type is the type its bytes
 * were checked to be, shown inline, never what the uploader declared (S3 cannot add
 * X-Content-Type-Options itself: docs/decisions/ "Branding images").
 */
export async function presignImage(ref: ObjectRef, contentType: string, expiresIn: number): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  return presign(
    c,
    new GetObjectCommand({
      Bucket,
      Key: ref.key,
      ResponseContentType: contentType,
      ResponseContentDisposition: 'inline',
    }),
    expiresIn,
  );
}

// ---- previews ---------------------------------------------------------------------------------

/**
 * Short-lived GET shown inline with a type we choose (never the stored one): the preview of a
 * file whose kind allows it (domain/previews.ts); the name rides along for the viewer's save.
 */
export async function presignInline(
  ref: ObjectRef,
  contentType: string,
  fileName: string,
  expiresIn: number,
): Promise<string> {
  const { s3: c, Bucket } = client(ref);
  const disposition = attachmentDisposition(fileName).replace(/^attachment;/u, 'inline;');
  return presign(
    c,
    new GetObjectCommand({
      Bucket,
      Key: ref.key,
      ResponseContentType: contentType,
      ResponseContentDisposition: disposition,
    }),
    expiresIn,
  );
}

/** The object's bytes as a stream (destroy it to stop early). */
export async function readObject(ref: ObjectRef): Promise<{ body: Readable; size?: number }> {
  const { s3: c, Bucket } = client(ref);
  const out = await c.send(new GetObjectCommand({ Bucket, Key: ref.key }));
  // In Node the SDK's Body is an http.IncomingMessage: a Readable.
  return { body: out.Body as Readable, ...(out.ContentLength !== undefined ? { size: out.ContentLength } : {}) };
}

/**
 * The object's bytes from `offset` to its end (a ranged GET when offset > 0), with its ETag.
 * `ifMatch` makes S3 refuse (412) an object that changed since that ETag was read.
 */
export async function readObjectFrom(
  ref: ObjectRef,
  offset: number,
  ifMatch?: string,
): Promise<{ body: Readable; etag: string }> {
  const { s3: c, Bucket } = client(ref);
  const out = await c.send(
    new GetObjectCommand({
      Bucket,
      Key: ref.key,
      ...(offset > 0 ? { Range: `bytes=${offset}-` } : {}),
      ...(ifMatch ? { IfMatch: ifMatch } : {}),
    }),
  );
  return { body: out.Body as Readable, etag: out.ETag ?? '' };
}

/** Stores a small object (a thumbnail) whole. */
export async function putSmallObject(ref: ObjectRef, body: Uint8Array, contentType: string): Promise<void> {
  const { s3: c, Bucket } = client(ref);
  await c.send(
    new PutObjectCommand({ Bucket, Key: ref.key, Body: body, ContentType: contentType }),
    uploadTimeout(body.byteLength),
  );
}
