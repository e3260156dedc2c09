/**
 * Reminders to recipients who have not downloaded: the sender's Remind action and
 * the scheduled reminder 24 hours before expiry, at most once per recipient. Pure rules; the
 * job and the data live in functions/services/reminders.ts and functions/data/reminders.ts.
 */
import { HOUR_MS } from './units';

/** The scheduled reminder goes this long before the transfer expires. */
export const REMINDER_BEFORE_EXPIRY_MS = 24 * HOUR_MS;
/**
 * A transfer that expires within a day of being sent would be "reminded" right after its own
 * mail: the scheduled reminder is skipped when it falls this close to the send.
 */
export const REMINDER_MIN_AFTER_SEND_MS = 12 * HOUR_MS;

/** When the scheduled reminder of a transfer expiring at `expiryDate` is due. */
export function reminderDueAt(expiryDate: number): number {
  return expiryDate - REMINDER_BEFORE_EXPIRY_MS;
}

export type ReminderDecision =
  /** mail the pending recipients now */
  | 'send'
  /** not due yet (the expiry moved later): look again at reminderDueAt(expiryDate) */
  | 'later'
  /** nothing to do for this transfer now: take it out of the queue */
  | 'close';

/**
 * What the job does with a due reminder: only a live transfer whose sender allows reminders is
 * reminded, inside the last 24 hours before its expiry, and not within 12 hours of its sending.
 */
export function reminderDecision(
  t: { status: string; expiryDate: number; dateSent?: number; purged?: boolean },
  senderAllows: boolean,
  now: number,
): ReminderDecision {
  if (t.status !== 'ready' || t.purged || now >= t.expiryDate) return 'close';
  if (now < reminderDueAt(t.expiryDate)) return 'later';
  if (!senderAllows) return 'close';
  if (t.dateSent !== undefined && now - t.dateSent < REMINDER_MIN_AFTER_SEND_MS) return 'close';
  return 'send';
}

/**
 * Recipients who have not downloaded yet: a download counts for a recipient when its record
 * carries their address (their own link was used). `downloadedBy` holds lower-cased addresses.
 */
export function notDownloaded<R extends { email: string }>(
  recipients: readonly R[],
  downloadedBy: ReadonlySet<string>,
): R[] {
  return recipients.filter((r) => !downloadedBy.has(r.email.toLowerCase()));
}
