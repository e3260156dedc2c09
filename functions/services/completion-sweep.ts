/**
 * The complete-upload job's schedule: completion claims whose job died (its Lambda cut off, its
 * async retries spent) are started again, so a big file whose sender went away still completes
 * and its transfer is sent. A claim is restarted at most STALE_MAX_RESTARTS times by the
 * schedule; after that only the sender's next complete call starts it (and the log says why).
 */
import { randomUUID } from 'node:crypto';
import * as data from '../data/transfers';
import * as storage from '../adapters/storage';
import { errorFields, log } from '../lib/log';
import { COMPLETION_LEASE_MS, type CompleteJobInput } from './completion';
import { refOf } from './object-refs';

export const STALE_MAX_RESTARTS = 3;
/** Claims looked at per run; the rest wait for the next (every 5 minutes). */
export const STALE_PAGE = 25;

export interface StaleSweepResult {
  readonly restarted: number;
  /** out of the queue: restarts spent, a stray entry, or a transfer that is gone */
  readonly dropped: number;
  /** a cancelled transfer's object put together after the cancel cleaned up, deleted */
  readonly cleaned: number;
}

export async function restartStaleCompletions(
  start: (input: CompleteJobInput) => Promise<void>,
  now = Date.now(),
): Promise<StaleSweepResult> {
  let restarted = 0;
  let dropped = 0;
  let cleaned = 0;
  for (const { slug, fileId } of await data.listStaleCompletions(now, STALE_PAGE)) {
    const [t, f] = await Promise.all([data.getTransfer(slug), data.getFile(slug, fileId)]);
    if (!f) continue;
    if (f.status !== 'completing' || !t || t.status === 'expired') {
      // finished meanwhile, or the expiry sweep purges what it left
      await data.dropStaleCompletion(slug, fileId);
      dropped += 1;
      continue;
    }
    if (t.status === 'cancelled') {
      // the job died between S3's answer and its own check of the cancel: its object goes too
      const ref = refOf(t, f.key);
      await storage.deleteObject(ref);
      if (f.uploadId) await storage.abortMultipart(ref, f.uploadId);
      await data.dropStaleCompletion(slug, fileId);
      cleaned += 1;
      continue;
    }
    const attempt = randomUUID();
    if (!(await data.claimStaleCompletion(slug, fileId, attempt, now + COMPLETION_LEASE_MS, now, STALE_MAX_RESTARTS))) {
      const again = await data.getFile(slug, fileId);
      // another claim won meanwhile: it is in the queue under its own lease
      if (again?.status === 'completing' && (again.completeLeaseUntil ?? 0) < now) {
        log.error('file completion not restarted: restarts spent', { slug, fileId, restarts: again.completeRestarts });
        await data.dropStaleCompletion(slug, fileId);
        dropped += 1;
      }
      continue;
    }
    log.warn('file completion started again by the schedule', { slug, fileId });
    try {
      await start({ slug, fileId, attempt });
      restarted += 1;
    } catch (err) {
      log.error('complete-upload job not started again', { slug, fileId, ...errorFields(err) });
      await data.expireFileCompletion(slug, fileId, attempt).catch(() => false);
    }
  }
  return { restarted, dropped, cleaned };
}
