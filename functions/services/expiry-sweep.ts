/**
 * The expiry sweep (architecture §3 step 6). Walks the sweep index (gsi2, due time order) a
 * page at a time. Each step is conditional on the due time it read, so a concurrent extension
 * wins, and every step is safe to repeat:
 *   uploading, resume window over -> multipart uploads aborted, objects deleted, cancelled
 *     (one shared while uploading then answers 410 withdrawn, and the complete-upload job, which
 *     has the mail templates, tells whoever waits for it: they would double the sweep's bundle)
 *   ready, expiry reached          -> marked expired, due again at the end of the grace period
 *   expired, grace period over     -> objects (files and ZIPs) deleted, purged; the record stays for the 410
 *   deleted, an hour later         -> objects deleted again if a failed delete left any (idempotent)
 * A file request's upload goes the same way; its storage goes back to the requester
 * (its storageOwner), and once purged or deleted it leaves the request's list and counters.
 */
import { deleteReviewItems } from '../data/reviews';
import * as data from '../data/transfers';
import type { TransferRecord } from '../data/transfers';
import * as storage from '../adapters/storage';
import { errorFields, log } from '../lib/log';
import { locOf, refOf } from './object-refs';
import { purgeAt } from './downloads';
import { releaseTransfer } from './limits';
import { publishEvent } from './events';
import { removeUpload } from '../data/requests';
import { startJob } from '../adapters/jobs';
import { COMPLETE_JOB } from '../domain/jobs';

export interface SweepResult {
  readonly examined: number;
  readonly expired: number;
  readonly purged: number;
  readonly abandoned: number;
  readonly failed: number;
  readonly objectsDeleted: number;
}

async function deleteObjects(t: TransferRecord): Promise<number> {
  const files = await data.listFiles(t.slug);
  await Promise.all(
    files
      .filter((f) => f.status === 'pending' && f.mode === 'multipart')
      .map((f) => storage.abortMultipart(refOf(t, f.key), f.uploadId!)),
  );
  return (
    (await storage.deletePrefix(locOf(t), `t/${t.slug}/`)) + (await storage.deletePrefix(locOf(t), `z/${t.slug}/`))
  );
}

/** Hands the withdrawn mail of an abandoned live transfer to the complete-upload job; never fails the sweep. */
async function tellWithdrawn(slug: string): Promise<void> {
  try {
    await startJob(COMPLETE_JOB, { withdrawn: slug });
  } catch (err) {
    log.error('withdrawn mail not handed over', { slug, ...errorFields(err) });
  }
}

export async function sweepExpired(
  opts: { now?: number; pageSize?: number; timeLeftMs?: () => number } = {},
): Promise<SweepResult> {
  const now = opts.now ?? Date.now();
  const timeLeft = opts.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const result = { examined: 0, expired: 0, purged: 0, abandoned: 0, failed: 0, objectsDeleted: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await data.listSweepDue(now, opts.pageSize ?? 25, startKey);
    startKey = page.next;
    for (const slug of page.slugs) {
      if (timeLeft() < 15_000) return result;
      result.examined += 1;
      try {
        const t = await data.getTransfer(slug);
        const due = t?.sweepDueAt;
        if (!t || due === undefined || due > now) continue;
        if (t.status === 'uploading') {
          result.objectsDeleted += await deleteObjects(t);
          if (await data.setStatus(slug, 'cancelled', { from: ['uploading'], expectedSweepDueAt: due })) {
            result.abandoned += 1;
            await releaseTransfer(t, { unsent: true });
            if (t.liveAt !== undefined) await tellWithdrawn(slug);
          }
        } else if (t.status === 'ready' && now >= t.expiryDate) {
          if (await data.markExpired(slug, { sweepDueAt: purgeAt(t), expectedSweepDueAt: due })) {
            result.expired += 1;
            // once, by the sweep that marked it (publishEvent logs and never throws)
            await publishEvent({
              type: 'transfer.expired',
              userId: t.requestId ? t.storageOwner : t.senderId,
              at: now,
              data: {
                transferId: slug,
                expiredAt: new Date(t.expiryDate).toISOString(),
                totalDownloads: t.totalDownloads,
              },
            });
          }
        } else if (t.status === 'expired' && now >= purgeAt(t)) {
          result.objectsDeleted += await deleteObjects(t);
          if (await data.setStatus(slug, 'expired', { from: ['expired'], purged: true, expectedSweepDueAt: due })) {
            result.purged += 1;
            await releaseTransfer(t, { unsent: false });
            // the review (comments name people and quote them) goes with the files
            if (t.review) await deleteReviewItems(slug);
            // A purged upload to a file request leaves the request's list and counters.
            if (t.requestId) await removeUpload(t.requestId, slug);
          }
        } else if (t.status === 'deleted') {
          // A delete's second look: whatever a failed delete left behind goes now.
          result.objectsDeleted += await deleteObjects(t);
          await releaseTransfer(t, { unsent: false });
          if (t.requestId) await removeUpload(t.requestId, slug);
          // the review (comments name people and quote them) goes with the files; its routes answered 404 since the delete
          if (t.review) await deleteReviewItems(slug);
          await data.setStatus(slug, 'deleted', { from: ['deleted'], expectedSweepDueAt: due });
        } else if (t.status === 'ready' || t.status === 'expired') {
          // Due early (e.g. an extension moved the expiry): look again when the next step is due.
          const next = t.status === 'ready' ? t.expiryDate : purgeAt(t);
          await data.setStatus(slug, t.status, { from: [t.status], sweepDueAt: next, expectedSweepDueAt: due });
        } else {
          await data.setStatus(slug, t.status, { expectedSweepDueAt: due });
        }
      } catch (err) {
        result.failed += 1;
        log.error('sweep step failed', { slug, ...errorFields(err) });
      }
    }
  } while (startKey);
  return result;
}
