/**
 * A link that works while the upload runs (docs/decisions/0074-a-link-that-works-while-uploading.md):
 * which transfers are shared at their start, how far their upload is, who waits for their
 * completion, and who is told when the sender withdraws one. The download routes' gate stays
 * services/downloads.ts `openTransfer`; this module never serves a byte.
 */
import { estimateSecondsLeft, type LiveUploadView, type UploadEvent } from '../domain/live-upload';
import { mailTitleOf } from '../domain/mail-title';
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import { ttlIn } from '../data/keys';
import { errorFields, log } from '../lib/log';
import { mailLiveComplete, mailLiveWithdrawn, mailTransferStarted, type MailedWatcher } from './mail';

/** Shared at its start: a link send, or an email send whose recipients were mailed at creation. */
export function isLive(t: Pick<TransferRecord, 'liveAt'>): boolean {
  return t.liveAt !== undefined;
}

/** Whether a new transfer is shared at its start (a file request's upload never is: it goes to the requester). */
export function livesFromStart(send: { sendAs: string; mailNow?: boolean | undefined }): boolean {
  return send.sendAs === 'link' || send.mailNow === true;
}

/**
 * How far the upload is: complete files, the bytes of the recorded parts of the others, and the
 * time left from the pieces the server heard of (recorded parts, completed single files).
 * Parts of files not complete are counted, never listed or served.
 */
export async function liveUploadView(
  t: Pick<TransferRecord, 'slug' | 'createdAt'>,
  files: readonly FileRecord[],
  now: number,
): Promise<LiveUploadView> {
  const parts = await data.listTransferParts(t.slug);
  const byId = new Map(files.map((f) => [f.fileId, f]));
  const done = files.filter((f) => f.status === 'uploaded');
  let bytesDone = done.reduce((sum, f) => sum + f.size, 0);
  const events: UploadEvent[] = [];
  for (const p of parts) {
    const f = byId.get(p.fileId);
    // parts left by a file that is no longer in the transfer count for nothing
    if (!f) continue;
    if (f.status !== 'uploaded') bytesDone += p.size;
    if (p.at !== undefined) events.push({ at: p.at, bytes: p.size });
  }
  for (const f of done)
    if (f.mode === 'single' && f.uploadedAt !== undefined) events.push({ at: f.uploadedAt, bytes: f.size });
  const totalBytes = files.reduce((sum, f) => sum + f.size, 0);
  const secondsLeft = estimateSecondsLeft(events, totalBytes - bytesDone, t.createdAt, now);
  return {
    fileCount: files.length,
    filesDone: done.length,
    totalBytes,
    bytesDone: Math.min(bytesDone, totalBytes),
    ...(secondsLeft !== undefined ? { secondsLeft } : {}),
  };
}

/** A day past the last moment the upload can finish: the waiting list is gone with the table's ttl after that. */
const WATCH_KEPT_SECONDS = 24 * 3600;

/**
 * "Mail me when it's complete" on a transfer still uploading: `email` joins its waiting list
 * once (a second ask is answered alike and mails nothing more). The caller passed the download
 * gate and the rate limits.
 */
export async function addWatcher(t: TransferRecord, email: string, lang: string, now: number): Promise<void> {
  const until = Math.max(t.uploadTokenExpiresAt, t.expiryDate);
  const ttl = ttlIn((until - now) / 1000 + WATCH_KEPT_SECONDS, now);
  await data.putWatcher(t.slug, { email, lang, createdAt: now }, ttl);
}

/** At creation: mails the recipients of a send shared at its start (their mail at completion is not sent again). */
export async function mailAtStart(t: TransferRecord, files: readonly FileRecord[]): Promise<void> {
  if (t.recipientsMailedAt === undefined || t.recipients.length === 0) return;
  const failed = await mailTransferStarted(t, files);
  if (failed.length > 0)
    log.warn('live transfer mail not sent to every recipient', { slug: t.slug, failed: failed.length });
}

/** At the first completion of a live transfer: everyone waiting gets the transfer mail, its files all in. Never fails the completion. */
export async function mailWatchersOnCompletion(t: TransferRecord, files: readonly FileRecord[]): Promise<void> {
  if (!isLive(t)) return;
  try {
    const watchers = await data.listWatchers(t.slug);
    if (watchers.length > 0) await mailLiveComplete(t, files, watchers);
  } catch (err) {
    log.error('live completion mail not sent', { slug: t.slug, ...errorFields(err) });
  }
}

/** A live transfer the expiry sweep abandoned (its upload never finished): told as a cancel is. */
export async function mailAbandoned(slug: string): Promise<void> {
  const t = await data.getTransfer(slug);
  if (!t || t.status !== 'cancelled') return;
  await mailWithdrawn(t, await data.listFiles(slug));
}

/**
 * A live transfer was cancelled before it completed: everyone waiting and every recipient
 * already mailed is told it was withdrawn, each address once. Never fails the cancel.
 */
export async function mailWithdrawn(t: TransferRecord, files: readonly FileRecord[]): Promise<void> {
  if (!isLive(t)) return;
  try {
    const to = new Map<string, MailedWatcher>();
    if (t.recipientsMailedAt !== undefined)
      for (const r of t.recipients) to.set(r.email, { email: r.email, lang: t.lang });
    for (const w of await data.listWatchers(t.slug)) if (!to.has(w.email)) to.set(w.email, w);
    if (to.size > 0) await mailLiveWithdrawn(t, [...to.values()], mailTitleOf(files));
  } catch (err) {
    log.error('withdrawn mail not sent', { slug: t.slug, ...errorFields(err) });
  }
}
