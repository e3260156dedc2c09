/**
 * Previews of a transfer's files for the download page (behind the same gate as a
 * download: 404 / 410 / 401 before anything) and the TransferModal (its sender, admin or a team
 * mate it was shared with). Every URL is a 600 s presigned GET served inline with the type the
 * file's kind allows (domain/previews.ts), never the stored one.
 *
 * Thumbnails are made on demand: the first previews call that sees an image without one claims
 * it (a conditional write on its file item) and starts the `thumbnails` job for the claimed
 * files; the answer says 'pending' and the page asks again. The job makes each thumbnail once,
 * stores it beside the object (`<key>.thumb.webp`, under the transfer's prefix, so delete and
 * the sweep's purge remove it) and adds its bytes to the transfer's stored bytes.
 */
import { IMAGE_PREVIEW_MAX_BYTES, IMAGE_URL_EXPIRES_SECONDS } from '../domain/upload';
import {
  PREVIEWS_PER_PAGE,
  previewRuleOf,
  thumbnailKeyOf,
  type FilePreview,
  type PreviewsResponse,
  type ThumbnailState,
} from '../domain/previews';
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import { claimThumbnail, finishThumbnail, releaseThumbnailClaim } from '../data/thumbnails';
import * as storage from '../adapters/storage';
import { startJob } from '../adapters/jobs';
import { HttpError, badRequest, gone } from '../lib/errors';
import { errorFields, log } from '../lib/log';
import { refOf } from './object-refs';
import { openTransfer, type Viewer } from './downloads';
import { requireReader } from './sharing';
import { chargeStoredBytes } from './limits';
import { expiredAgoText } from '../domain/format';
import { supersededFileIds } from '../domain/file-versions';

/** A build not finished in this time is taken to have crashed: the next call may claim it again. */
export const THUMBNAIL_STALE_MS = 5 * 60 * 1000;
/** Images one job run makes at most (the rest are claimed by the page's next call). */
export const THUMBNAILS_PER_JOB = 20;

export interface ThumbnailJobInput {
  readonly slug: string;
  readonly fileIds: readonly string[];
  /** the claims' time: the job finishes only its own claims */
  readonly claimedAt: number;
}

function baseName(name: string): string {
  return name.split(/[\\/]/u).pop() || name;
}

/** POST /getDownload/previews: whoever may download the transfer now (the download page's rules). */
export async function downloadPreviews(
  slug: string,
  viewer: Viewer,
  now = Date.now(),
  cursor?: string,
): Promise<PreviewsResponse> {
  const t = await openTransfer(slug, viewer, now);
  return previewsOf(t, now, cursor);
}

/** GET /transfers/{id}/previews: the TransferModal's reader; an expired transfer has none (410). */
export async function modalPreviews(
  slug: string,
  userId: string,
  now = Date.now(),
  cursor?: string,
): Promise<PreviewsResponse> {
  const { t } = await requireReader(slug, userId);
  if (t.status !== 'ready' || now >= t.expiryDate || t.purged) {
    if (t.status === 'uploading') throw new HttpError(409, 'transfer_not_sent', 'This transfer has not been sent yet.');
    throw gone('transfer_expired', expiredAgoText(t.expiryDate, now));
  }
  return previewsOf(t, now, cursor);
}

/**
 * One page of the uploaded files, after the cursor's file (the last of the previous page), in
 * the transfer's file order; every URL a page carries keeps it far under Lambda's 6 MB.
 */
async function pageOf(slug: string, cursor: string | undefined): Promise<{ files: FileRecord[]; nextCursor?: string }> {
  const all = await data.listFiles(slug);
  // recipients and the modal's previews show the current version of each file
  const replaced = supersededFileIds(all.filter((f) => f.status === 'uploaded'));
  const shown = (f: FileRecord) => f.status === 'uploaded' && !replaced.has(f.fileId);
  const start = cursor === undefined ? 0 : all.findIndex((f) => f.fileId === cursor) + 1;
  if (start === 0 && cursor !== undefined)
    throw badRequest('invalid_cursor', 'This page cursor is not a file of the transfer.');
  const files: FileRecord[] = [];
  let i = start;
  for (; i < all.length && files.length < PREVIEWS_PER_PAGE; i += 1) if (shown(all[i]!)) files.push(all[i]!);
  const more = all.slice(i).some(shown);
  return more ? { files, nextCursor: all[i - 1]!.fileId } : { files };
}

async function previewsOf(t: TransferRecord, now: number, cursor: string | undefined): Promise<PreviewsResponse> {
  const { files, nextCursor } = await pageOf(t.slug, cursor);
  const claimed: string[] = [];
  const previews = await Promise.all(
    files.map(async (f): Promise<FilePreview> => {
      const rule = previewRuleOf(f);
      const base = {
        fileId: f.fileId,
        kind: rule.kind,
        icon: rule.icon,
        ...(f.recording ? { recording: f.recording } : {}),
      };
      if (f.e2e) return { ...base, ...(await sealedPreview(t, f)) };
      // a file not (yet) found clean by the malware scan has no preview
      if (!rule.contentType || (f.scanStatus ?? 'clean') !== 'clean') return base;
      const url = await storage.presignInline(
        refOf(t, f.key),
        rule.contentType,
        baseName(f.fileName),
        IMAGE_URL_EXPIRES_SECONDS,
      );
      if (!rule.thumbnail) return { ...base, url };
      return { ...base, url, thumbnail: await thumbnailState(t, f, now, claimed) };
    }),
  );
  if (claimed.length > 0) await startThumbnails(t.slug, claimed, now);
  return { expiresIn: IMAGE_URL_EXPIRES_SECONDS, files: previews, ...(nextCursor ? { nextCursor } : {}) };
}

/**
 * An end-to-end encrypted file's preview: its sealed bytes, which the recipient's browser opens
 * (any kind: only the browser knows what is inside), and the thumbnail the sender's browser sealed.
 * Never a thumbnail job: the server cannot read the file.
 */
async function sealedPreview(t: TransferRecord, f: FileRecord): Promise<Pick<FilePreview, 'url' | 'thumbnail'>> {
  const url = await storage.presignInline(
    refOf(t, f.key),
    SEALED_CONTENT_TYPE,
    'sealed.bin',
    IMAGE_URL_EXPIRES_SECONDS,
  );
  if (f.thumbStatus !== 'ready') return { url };
  const thumb = await storage.presignImage(
    refOf(t, thumbnailKeyOf(f.key)),
    SEALED_CONTENT_TYPE,
    IMAGE_URL_EXPIRES_SECONDS,
  );
  return { url, thumbnail: { status: 'ready', url: thumb } };
}

const SEALED_CONTENT_TYPE = 'application/octet-stream';

async function thumbnailState(
  t: TransferRecord,
  f: FileRecord,
  now: number,
  claimed: string[],
): Promise<ThumbnailState> {
  if (f.thumbStatus === 'ready') {
    return {
      status: 'ready',
      url: await storage.presignImage(refOf(t, thumbnailKeyOf(f.key)), 'image/webp', IMAGE_URL_EXPIRES_SECONDS),
    };
  }
  if (f.thumbStatus === 'failed') return { status: 'failed' };
  const stale = f.thumbStatus === 'building' && (f.thumbStartedAt ?? 0) < now - THUMBNAIL_STALE_MS;
  if (
    (f.thumbStatus === undefined || stale) &&
    claimed.length < THUMBNAILS_PER_JOB &&
    (await claimThumbnail(t.slug, f.fileId, now, now - THUMBNAIL_STALE_MS))
  ) {
    claimed.push(f.fileId);
  }
  return { status: 'pending' };
}

async function startThumbnails(slug: string, fileIds: string[], claimedAt: number): Promise<void> {
  try {
    await startJob('thumbnails', { slug, fileIds, claimedAt } satisfies ThumbnailJobInput);
  } catch (err) {
    // The previews still answer; the claims go back so the page's next call starts the job again.
    log.error('thumbnails job not started', { slug, ...errorFields(err) });
    await Promise.all(fileIds.map((id) => releaseThumbnailClaim(slug, id, claimedAt)));
  }
}

/**
 * The thumbnails job: each claimed image read from S3 (at most 100 MB, spec §5) into sharp,
 * its thumbnail stored beside it and counted as the transfer's; an unreadable image is
 * marked failed (its icon shows), once. A transfer gone meanwhile gets nothing made.
 */
export async function buildThumbnails(
  input: ThumbnailJobInput,
  make: (source: storage.ObjectRef, target: storage.ObjectRef, maxBytes: number) => Promise<{ bytes: number }>,
): Promise<{ made: number; failed: number }> {
  const result = { made: 0, failed: 0 };
  for (const fileId of input.fileIds) {
    // Read again before each image: a delete or the purge may come while the job runs.
    const t = await data.getTransfer(input.slug);
    if (t?.status !== 'ready' || t.purged) {
      await Promise.all(input.fileIds.map((id) => releaseThumbnailClaim(input.slug, id, input.claimedAt)));
      return result;
    }
    const f = await data.getFile(input.slug, fileId);
    if (f?.thumbStatus !== 'building' || f.thumbStartedAt !== input.claimedAt) continue;
    if (!previewRuleOf(f).thumbnail) {
      await finishThumbnail(input.slug, fileId, input.claimedAt, { status: 'failed' });
      continue;
    }
    const target = refOf(t, thumbnailKeyOf(f.key));
    try {
      const { bytes } = await make(refOf(t, f.key), target, IMAGE_PREVIEW_MAX_BYTES);
      if (await finishThumbnail(input.slug, fileId, input.claimedAt, { status: 'ready', bytes })) {
        await chargeStoredBytes(t, bytes);
        result.made += 1;
      }
    } catch (err) {
      log.warn('thumbnail not made', { slug: input.slug, fileId, ...errorFields(err) });
      await storage.deleteObject(target).catch(() => undefined);
      await finishThumbnail(input.slug, fileId, input.claimedAt, { status: 'failed' });
      result.failed += 1;
    }
  }
  return result;
}
