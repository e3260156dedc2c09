/**
 * S3's multipart rules that s3rver skips, added to its filesystem store so the local stack fails
 * where S3 would instead of storing (or crashing on) what S3 refuses: part numbers 1-10,000 on
 * UploadPart; on CompleteMultipartUpload every named part must exist with its ETag (InvalidPart),
 * in ascending order (InvalidPartOrder), and every part but the last must hold 5 MiB
 * (EntityTooSmall). Without the existence check s3rver's process dies on a part never uploaded.
 *
 * A CompleteMultipartUpload that names a full-object CRC-32 (x-amz-checksum-crc32 with
 * x-amz-checksum-type FULL_OBJECT) is checked as S3 checks it: the upload must have been started
 * with that algorithm and type (InvalidRequest), and the bytes must match (BadDigest).
 *
 * One test hook, no S3 rule: while a bucket holds the object HOLD_COMPLETE_KEY, its
 * CompleteMultipartUploads wait (polled, no fixed delay) until it is deleted, so a test can
 * make a completion outlast any route deterministically, as S3's minutes-long completes do.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { crc32 } from 'node:zlib';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);

interface Part {
  readonly number: number;
  readonly etag: string;
}

interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  existsObject(bucket: string, key: string): Promise<boolean>;
  putPart(bucket: string, uploadId: string, partNumber: number | string, content: unknown): Promise<unknown>;
  putObjectMultipart(bucket: string, uploadId: string, parts: Part[]): Promise<unknown>;
}

interface CompleteContext {
  readonly query: Record<string, unknown>;
  readonly headers: Record<string, string | string[] | undefined>;
}

type S3ErrorClass = new (code: string, message: string, detail?: Record<string, unknown>) => Error;

export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** The object whose presence in a bucket holds its CompleteMultipartUploads (tests, local trials). */
export const HOLD_COMPLETE_KEY = 'local-test/hold-complete-multipart';
const HOLD_POLL_MS = 100;
export const MAX_PART_NUMBER = 10_000;

const INVALID_PART =
  "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.";

/** The CRC-32 of the parts' bytes in order, as S3's base64 of the 4 bytes big-endian. */
async function crc32Of(files: readonly string[]): Promise<string> {
  let value = 0;
  for (const file of files) for await (const chunk of createReadStream(file)) value = crc32(chunk as Buffer, value);
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value >>> 0);
  return b.toString('base64');
}

/** What a CompleteMultipartUpload asked to check, by upload id, while s3rver's store completes it. */
const completeChecksums = new Map<string, { crc32?: string; type?: string }>();

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Patches s3rver's FilesystemStore (idempotent); returns false when s3rver's internals moved. */
export function applyS3MultipartRules(): boolean {
  const Store = require('s3rver/lib/stores/filesystem.js') as { prototype: FilesystemStore & { __s3Rules?: true } };
  const S3Error = require('s3rver/lib/models/error.js') as S3ErrorClass;
  const objectCtrl = require('s3rver/lib/controllers/object.js') as {
    completeMultipartUpload?: (ctx: CompleteContext) => Promise<unknown>;
  };
  const proto = Store.prototype;
  if (
    typeof proto.putPart !== 'function' ||
    typeof proto.putObjectMultipart !== 'function' ||
    typeof proto.existsObject !== 'function' ||
    typeof objectCtrl.completeMultipartUpload !== 'function'
  )
    return false;
  if (proto.__s3Rules) return true;
  proto.__s3Rules = true;

  const putPart = proto.putPart;
  proto.putPart = async function (bucket, uploadId, partNumber, content) {
    // s3rver passes the query string's value
    const n = Number(partNumber);
    if (!/^\d+$/u.test(String(partNumber)) || n < 1 || n > MAX_PART_NUMBER) {
      throw new S3Error(
        'InvalidArgument',
        `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`,
        { ArgumentName: 'partNumber', ArgumentValue: String(partNumber) },
      );
    }
    return putPart.call(this, bucket, uploadId, partNumber, content);
  };

  // the store sees no headers: the controller leaves the checksum asked for where the store finds it
  const completeCtrl = objectCtrl.completeMultipartUpload;
  objectCtrl.completeMultipartUpload = async (ctx) => {
    const uploadId = String(ctx.query.uploadId);
    const crc32 = ctx.headers['x-amz-checksum-crc32'];
    const type = ctx.headers['x-amz-checksum-type'];
    completeChecksums.set(uploadId, {
      ...(typeof crc32 === 'string' ? { crc32 } : {}),
      ...(typeof type === 'string' ? { type } : {}),
    });
    try {
      return await completeCtrl(ctx);
    } finally {
      completeChecksums.delete(uploadId);
    }
  };

  const complete = proto.putObjectMultipart;
  proto.putObjectMultipart = async function (bucket, uploadId, parts) {
    while (await this.existsObject(bucket, HOLD_COMPLETE_KEY)) await new Promise((r) => setTimeout(r, HOLD_POLL_MS));
    const uploadDir = path.join(this.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    for (let i = 1; i < parts.length; i += 1) {
      if (parts[i]!.number <= parts[i - 1]!.number)
        throw new S3Error(
          'InvalidPartOrder',
          'The list of parts was not in ascending order. The parts list must be specified in order by part number.',
        );
    }
    for (const [i, part] of parts.entries()) {
      const file = path.join(uploadDir, String(part.number));
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat || (await md5Of(file)) !== part.etag.replace(/"/gu, ''))
        throw new S3Error('InvalidPart', INVALID_PART, { PartNumber: part.number });
      if (i < parts.length - 1 && stat.size < MIN_PART_BYTES) {
        throw new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', {
          ProposedSize: stat.size,
          MinSizeAllowed: MIN_PART_BYTES,
          PartNumber: part.number,
        });
      }
    }
    const asked = completeChecksums.get(uploadId);
    if (asked?.crc32 !== undefined) {
      const started = JSON.parse(await fs.readFile(path.join(uploadDir, 'metadata'), 'utf8')) as Record<string, string>;
      const algorithm = started['x-amz-checksum-algorithm']?.toUpperCase();
      const type = started['x-amz-checksum-type']?.toUpperCase() ?? 'COMPOSITE';
      if (algorithm !== 'CRC32' || type !== 'FULL_OBJECT' || (asked.type ?? 'FULL_OBJECT').toUpperCase() !== type)
        throw new S3Error(
          'InvalidRequest',
          `The upload was created using the ${algorithm ?? 'null'} checksum algorithm and the ${type} checksum type; the complete request asked for a full-object CRC32.`,
        );
      const actual = await crc32Of(parts.map((p) => path.join(uploadDir, String(p.number))));
      if (actual !== asked.crc32)
        throw new S3Error('BadDigest', 'The CRC32 you specified did not match the calculated checksum.');
    }
    return complete.call(this, bucket, uploadId, parts);
  };
  return true;
}
