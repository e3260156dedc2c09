/**
 * Thumbnails of end-to-end encrypted files: the server cannot read the file, so the sender's
 * browser makes the thumbnail before encrypting, seals it under the file's thumbnail key
 * (docs/e2e-format.md) and stores it where the thumbnails job would have put its own. The
 * server only lets it in (a size-pinned presigned PUT under the upload token) and checks it arrived.
 */
import { cipherSizeOf } from '../domain/e2e-params';
import { thumbnailKeyOf } from '../domain/previews';
import * as storage from '../adapters/storage';
import type { FileRecord, TransferRecord } from '../data/transfers';
import { setSealedThumbnail } from '../data/thumbnails';
import { badRequest, conflict } from '../lib/errors';
import { refOf } from './object-refs';

/** A sealed thumbnail is one sealed chunk of at most 512 KiB of WebP (a 400 px thumbnail is ~20-60 KiB). */
export const SEALED_THUMBNAIL_MAX_BYTES = cipherSizeOf(512 * 1024);
const PUT_EXPIRES_SECONDS = 15 * 60;
const SEALED_CONTENT_TYPE = 'application/octet-stream';

function requireSealed(f: FileRecord): void {
  if (!f.e2e) throw conflict('not_encrypted', 'Only an end-to-end encrypted file takes a thumbnail from the sender.');
}

/** POST /transfers/{id}/files/{fileId}/thumbnail: where to PUT the sealed thumbnail of `size` bytes. */
export async function signSealedThumbnail(t: TransferRecord, f: FileRecord, size: number): Promise<{ url: string }> {
  requireSealed(f);
  if (size > SEALED_THUMBNAIL_MAX_BYTES) throw badRequest('thumbnail_too_large', 'This thumbnail is too large.');
  const url = await storage.presignTypedPut(
    refOf(t, thumbnailKeyOf(f.key)),
    SEALED_CONTENT_TYPE,
    size,
    PUT_EXPIRES_SECONDS,
  );
  return { url };
}

/** POST /transfers/{id}/files/{fileId}/thumbnail/complete: the stored thumbnail is the file's from now on. */
export async function completeSealedThumbnail(t: TransferRecord, f: FileRecord): Promise<{ bytes: number }> {
  requireSealed(f);
  const bytes = await storage.objectSize(refOf(t, thumbnailKeyOf(f.key)));
  if (bytes === undefined) throw conflict('thumbnail_missing', 'No thumbnail was stored for this file.');
  if (bytes > SEALED_THUMBNAIL_MAX_BYTES) {
    await storage.deleteObject(refOf(t, thumbnailKeyOf(f.key)));
    throw badRequest('thumbnail_too_large', 'This thumbnail is too large.');
  }
  await setSealedThumbnail(t.slug, f.fileId, bytes);
  return { bytes };
}
