/**
 * An image's thumbnail, made with sharp (libvips) from the object streamed out of
 * S3 and stored beside it as WebP. Only the thumbnails job imports this module; sharp is a
 * native package the job's Lambda ships outside its bundle (lib/lambda-bundles.ts).
 */
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { THUMBNAIL_CONTENT_TYPE, THUMBNAIL_MAX_PX } from '../domain/previews';
import { putSmallObject, readObject, type ObjectRef } from './storage';

export class ImageTooLargeError extends Error {
  constructor(limit: number) {
    super(`the object is larger than the ${limit} bytes an image preview may have`);
    this.name = 'ImageTooLargeError';
  }
}

/** Passes bytes through and fails once more than `limit` went by (the stored object is not trusted to be its recorded size). */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) done(new ImageTooLargeError(limit));
      else done(null, chunk);
    },
  });
}

/**
 * Reads the image at `source` (at most `maxBytes`), writes a WebP of at most THUMBNAIL_MAX_PX on
 * its longest side to `target`, turned upright by its EXIF orientation, without metadata (no GPS
 * position leaves the original). Returns the thumbnail's size. Throws on anything sharp cannot read.
 */
export async function makeThumbnail(
  source: ObjectRef,
  target: ObjectRef,
  maxBytes: number,
): Promise<{ bytes: number }> {
  const { default: sharp } = await import('sharp');
  const { body } = await readObject(source);
  const image = sharp({ sequentialRead: true, failOn: 'error', animated: false })
    .rotate()
    .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 });
  const output = image.toBuffer();
  output.catch(() => undefined); // a failed read rejects through pipeline() below
  await pipeline(body, byteLimit(maxBytes), image);
  const thumbnail = await output;
  await putSmallObject(target, thumbnail, THUMBNAIL_CONTENT_TYPE);
  return { bytes: thumbnail.byteLength };
}
