/**
 * Reminders to recipients who have not downloaded ("Per-recipient tracking"):
 *   - every email transfer with recipients has a reminder queued at its expiry - 24 h
 *     (`scheduleReminder`: on sending, forwarding, and whenever the expiry changes);
 *   - the scheduled job (jobs/expiry-reminders.ts, every 15 minutes) mails the recipients
 *     without a download, when the sender's setting allows it (default on), at most once per
 *     recipient: each address is claimed with a condition before its mail goes out, so neither
 *     a repeated nor a concurrent run mails anyone twice;
 *   - the sender's Remind action (services/transfer-actions.ts) mails them at any time.
 */
import { reminderDecision, reminderDueAt, notDownloaded } from '../domain/reminders';
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import * as reminders from '../data/reminders';
import { getProfile } from '../data/users';
import { errorFields, log } from '../lib/log';
import { mailTransferReminder } from './mail';
import { currentVersions } from '../domain/file-versions';

/** Queues (or moves) the scheduled reminder of an email transfer with recipients. */
export async function scheduleReminder(
  t: Pick<TransferRecord, 'slug' | 'sendAs' | 'recipients' | 'expiryDate'>,
): Promise<void> {
  if (t.sendAs !== 'email' || t.recipients.length === 0) return;
  await reminders.queueReminder(t.slug, reminderDueAt(t.expiryDate));
}

/** As `scheduleReminder`, for callers whose own action must not fail because of it (the send itself). */
export async function trySchedulingReminder(
  t: Pick<TransferRecord, 'slug' | 'sendAs' | 'recipients' | 'expiryDate'>,
): Promise<void> {
  try {
    await scheduleReminder(t);
  } catch (err) {
    log.error('reminder not scheduled', { slug: t.slug, ...errorFields(err) });
  }
}

/** The current version of each uploaded file: what recipients get (domain/file-versions.ts). */
async function sentFiles(slug: string): Promise<FileRecord[]> {
  return currentVersions((await data.listFiles(slug)).filter((f) => f.status === 'uploaded'));
}

/** The transfer's recipients who have not downloaded yet. */
export async function pendingRecipients(t: TransferRecord): Promise<TransferRecord['recipients'][number][]> {
  return notDownloaded(t.recipients, await reminders.downloadedBy(t.slug));
}

/**
 * The sender's Remind action: mails every recipient without a download now, and notes when.
 * Returns the addresses mailed.
 */
export async function remindNow(t: TransferRecord, now: number): Promise<string[]> {
  const pending = await pendingRecipients(t);
  if (pending.length === 0) return [];
  const failed = new Set(await mailTransferReminder(t, await sentFiles(t.slug), pending, 'reminder'));
  const sent = pending.map((r) => r.email).filter((e) => !failed.has(e));
  await reminders.recordReminded(t.slug, sent, now);
  return sent;
}

export interface ReminderRunResult {
  readonly examined: number;
  /** recipients mailed */
  readonly reminded: number;
  /** reminders taken out of the queue without mail (expired, deleted, setting off, nobody left) */
  readonly closed: number;
  /** reminders moved to a later due time (the expiry was extended) */
  readonly moved: number;
  readonly failed: number;
}

/** One transfer's due reminder; what happened to it. */
async function runOne(slug: string, now: number): Promise<{ reminded: number; closed: boolean; moved: boolean }> {
  const r = await reminders.getReminder(slug);
  if (!r?.queued || r.dueAt === undefined || r.dueAt > now) return { reminded: 0, closed: false, moved: false };
  const t = await data.getTransfer(slug);
  if (!t || t.status === 'deleted' || t.status === 'cancelled') {
    await reminders.deleteReminder(slug);
    return { reminded: 0, closed: true, moved: false };
  }
  const profile = t.senderId ? await getProfile(t.senderId) : undefined;
  const decision = reminderDecision(t, profile?.transferSettings?.expiryReminders !== false, now);
  if (decision === 'later') {
    return {
      reminded: 0,
      closed: false,
      moved: await reminders.requeueReminder(slug, r.dueAt, reminderDueAt(t.expiryDate)),
    };
  }
  if (decision === 'close')
    return { reminded: 0, closed: await reminders.unqueueReminder(slug, r.dueAt), moved: false };

  const already = new Set(r.reminded);
  const candidates = (await pendingRecipients(t)).filter((p) => !already.has(p.email));
  const claimed: typeof candidates = [];
  for (const p of candidates) if (await reminders.claimRecipient(slug, p.email)) claimed.push(p);
  const failed = claimed.length
    ? new Set(await mailTransferReminder(t, await sentFiles(slug), claimed, 'reminder-scheduled'))
    : new Set<string>();
  // A recipient whose mail failed is given back and the reminder stays queued: the next run tries again.
  for (const email of failed) await reminders.releaseRecipient(slug, email);
  const sent = claimed.map((p) => p.email).filter((e) => !failed.has(e));
  await reminders.recordReminded(slug, sent, now);
  if (failed.size === 0) await reminders.unqueueReminder(slug, r.dueAt);
  return { reminded: sent.length, closed: false, moved: false };
}

/** The scheduled job: every reminder due by `now`, a page at a time (gsi2 partition REMIND). */
export async function runDueReminders(
  opts: { now?: number; pageSize?: number; timeLeftMs?: () => number } = {},
): Promise<ReminderRunResult> {
  const now = opts.now ?? Date.now();
  const timeLeft = opts.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const result = { examined: 0, reminded: 0, closed: 0, moved: 0, failed: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await reminders.listRemindersDue(now, opts.pageSize ?? 25, startKey);
    startKey = page.next;
    for (const slug of page.slugs) {
      if (timeLeft() < 15_000) return result;
      result.examined += 1;
      try {
        const one = await runOne(slug, now);
        result.reminded += one.reminded;
        if (one.closed) result.closed += 1;
        if (one.moved) result.moved += 1;
      } catch (err) {
        result.failed += 1;
        log.error('reminder failed', { slug, ...errorFields(err) });
      }
    }
  } while (startKey);
  return result;
}
