/**
 * S3's multipart rules that s3rver skips, added to its filesystem store so the local stack fails
 * where S3 would instead of storing (or crashing on) what S3 refuses: part numbers 1-10,000 on
 * UploadPart; on CompleteMultipartUpload every named part must exist with its ETag (InvalidPart),
 * in ascending order (InvalidPartOrder), and every part but the last must hold 5 MiB
 * (EntityTooSmall). Without the existence check s3rver's process dies on a part never uploaded.
 *
 * One test hook, no S3 rule: while a bucket holds the object HOLD_COMPLETE_KEY, its
 * CompleteMultipartUploads wait (polled, no fixed delay) until it is deleted, so a test can
 * make a completion outlast any route deterministically, as S3's minutes-long completes do.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
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

type S3ErrorClass = new (code: string, message: string, detail?: Record<string, unknown>) => Error;

export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** The object whose presence in a bucket holds its CompleteMultipartUploads (tests, local trials). */
export const HOLD_COMPLETE_KEY = 'local-test/hold-complete-multipart';
const HOLD_POLL_MS = 100;
export const MAX_PART_NUMBER = 10_000;

const INVALID_PART =
  "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.";

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Patches s3rver's FilesystemStore (idempotent); returns false when s3rver's internals moved. */
export function applyS3MultipartRules(): boolean {
  const Store = require('s3rver/lib/stores/filesystem.js') as { prototype: FilesystemStore & { __s3Rules?: true } };
  const S3Error = require('s3rver/lib/models/error.js') as S3ErrorClass;
  const proto = Store.prototype;
  if (
    typeof proto.putPart !== 'function' ||
    typeof proto.putObjectMultipart !== 'function' ||
    typeof proto.existsObject !== 'function'
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
    return complete.call(this, bucket, uploadId, parts);
  };
  return true;
}
