/**
 * The TransferModal's actions on a sent transfer (contract functions/domain/dashboard-api.ts):
 * forward (a server-side copy under a new slug), mail the link again, remind recipients who
 * have not downloaded, change the expiry, change or remove the password. Every action first
 * proves the caller owns the transfer (`requireOwner`: 404 / 403), before reading anything else.
 */
import type * as z from 'zod/mini';
import type {
  changeExpiryRequestSchema,
  changePasswordRequestSchema,
  emailSendRequestSchema,
  forwardRequestSchema,
  ForwardResponse,
  TransferState,
} from '../domain/dashboard-api';
import {
  CUSTOM_DATE_MARKER,
  DEFAULT_EXPIRY_SECONDS,
  checkCustomExpiry,
  purgeDateOf,
  expiryDateFor,
  isExpiryAllowed,
} from '../domain/expiry';
import { E2E_REFUSALS } from '../domain/e2e-params';
import { servable } from '../domain/malware-scan';
import { totalSize } from '../domain/file-filters';
import { GiB } from '../domain/units';
import { FILE_ID_LENGTH } from '../domain/transfer-api';
import { firstFileNameOf, searchTextOf } from '../domain/transfer-search';
import { problemText, transferDraftSchema, type Problem, type ProblemCode } from '../domain/validation';
import { randomString, generateSlug } from '../domain/slug';
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import {
  claimCopy,
  dequeueCopy,
  listQueuedCopies,
  queueCopy,
  setExpiryChoice,
  setPasswordHash,
  type QueuedCopy,
} from '../data/transfer-actions';
import { releaseSend } from '../data/users';
import { rememberRecipients } from './contacts';
import { hitRateWindow } from '../data/verification';
import * as storage from '../adapters/storage';
import { badRequest, conflict, gone, notFound, problemsError, tooManyRequests } from '../lib/errors';
import { hashPassword, hashToken, newToken } from '../lib/secrets';
import { errorFields, log } from '../lib/log';
import { mapLimited } from '../lib/concurrency';
import { draftError } from './draft-error';
import { releaseTransfer, reserveForSend } from './limits';
import { mailTransferAgain, mailTransferSent } from './mail';
import { remindNow, scheduleReminder, trySchedulingReminder } from './reminders';
import { downloadLink, locOf, refOf, requireOwner, type Sender } from './transfers';
import { linkOriginOf } from './link-origin';
import { currentVersions } from '../domain/file-versions';

type UserSender = Extract<Sender, { kind: 'user' }>;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SECOND = 1000;
/** Mails of one transfer's recipients the sender may ask for (resend and remind, each). */
export const MAIL_AGAIN_LIMIT = { limit: 10, windowSeconds: 3600 };
/**
 * A forward's copy is written as an upload in progress first: if it is never finished (the
 * function died while copying, and the job's retries too), the sweep finds it once this has
 * passed and removes it with its reservation.
 */
const FORWARD_ABANDON_MS = 3 * 3600 * SECOND;
/** Objects copied together (each copy runs inside S3). */
const COPY_CONCURRENCY = 8;
/**
 * Forwards up to this size are copied before the request answers (S3 copies well above
 * 100 MB/s, inside API Gateway's 30 s); larger ones in the forward-copy job.
 */
export const INLINE_COPY_MAX_BYTES = 2 * GiB;

const NOT_FOUND_MESSAGE = 'This transfer does not exist.';

/** Sent, not expired: what forward, resend and remind need. */
function assertLive(t: TransferRecord, now: number): void {
  if (t.status === 'uploading') throw conflict('transfer_not_sent', 'This transfer has not been sent yet.');
  if (t.status !== 'ready' || t.purged || now >= t.expiryDate)
    throw gone('transfer_expired', 'This transfer has expired.');
}

function assertEmailTransfer(t: TransferRecord): void {
  if (t.sendAs !== 'email' || t.recipients.length === 0) {
    throw conflict('not_email_transfer', 'This transfer was sent as a link: it has no recipients to mail.');
  }
}

async function assertMayMailAgain(scope: 'resend' | 'remind', slug: string, now: number): Promise<void> {
  const hit = await hitRateWindow(scope, slug, MAIL_AGAIN_LIMIT.limit, MAIL_AGAIN_LIMIT.windowSeconds, now);
  if (!hit.allowed) {
    throw tooManyRequests(
      hit.retryAfterSeconds,
      `The recipients of this transfer were mailed too often. Try again in ${Math.ceil(hit.retryAfterSeconds / 60)} minutes.`,
    );
  }
}

/** The current version of each uploaded file: what recipients get (domain/file-versions.ts). */
async function sentFiles(slug: string): Promise<FileRecord[]> {
  return currentVersions((await data.listFiles(slug)).filter((f) => f.status === 'uploaded'));
}

// ---- forward ----------------------------------------------------------------------------------

/**
 * POST /transfers/forward: the sender's sent, unexpired transfer copied under a new slug,
 * inside S3 (storage.copyObject: CopyObject, or UploadPartCopy above 5 GiB), never uploaded
 * again. The copy is a new send: it needs the plan's room and a monthly send (reserved first,
 * given back if anything fails), gets a fresh default expiry and no password, and its
 * recipients get the transfer mail with their own links. A forward racing a delete of the
 * source either copies every file or fails with 404 and leaves nothing behind.
 *
 * Up to `INLINE_COPY_MAX_BYTES` the copy is made before answering; a larger one is queued for
 * the forward-copy job (every minute, 15 minutes a run, not API Gateway's 30 s) and the answer
 * says `copying`: the new transfer is sent, and mailed, once its objects are all copied.
 */
export async function forwardTransfer(
  body: z.output<typeof forwardRequestSchema>,
  sender: UserSender,
  now = Date.now(),
  opts: { inlineMaxBytes?: number } = {},
): Promise<ForwardResponse> {
  const source = await requireOwner(body.slug, sender.userId);
  assertLive(source, now);
  if (source.e2e) throw conflict('encrypted_forward', E2E_REFUSALS.encrypted_forward);
  const all = await sentFiles(source.slug);
  // only scanned files travel: none while the scan runs, never a quarantined one.
  if (all.some((f) => f.scanStatus === 'pending'))
    throw conflict('scan_pending', 'The files are still being checked. Try again in a moment.');
  const files = all.filter((f) => servable(f.scanStatus));
  if (files.length === 0) throw notFound('transfer_empty', NOT_FOUND_MESSAGE);
  // The same rules as a new send of these files by this sender: recipients, links, plan size.
  const parsed = transferDraftSchema({ role: sender.role, now }).safeParse({
    sendAs: body.sendAs,
    senderEmail: source.senderEmail,
    message: body.message,
    emailTo: body.emailTo,
    region: source.region,
    expirySeconds: DEFAULT_EXPIRY_SECONDS,
    fileObjects: files.map((f) => ({
      fileName: f.fileName,
      ...(f.itemPath ? { itemPath: f.itemPath } : {}),
      size: f.size,
    })),
  });
  if (!parsed.success) throw draftError(parsed.error);
  const draft = parsed.data;

  const bytes = totalSize(files);
  const reservation = await reserveForSend(sender.profile, bytes, now, { countsAsSend: true });
  let copy: { record: TransferRecord; files: FileRecord[] };
  try {
    copy = await createCopyRecord();
  } catch (err) {
    await releaseSend(reservation.storageOwner, reservation.reservedBytes, reservation.sendMonth ?? null).catch(
      () => undefined,
    );
    throw err;
  }
  const { record } = copy;
  if (draft.sendAs === 'email') await rememberRecipients(sender.userId, draft.emailTo, now);
  const answer = {
    slug: record.slug,
    link: downloadLink(record.slug, await linkOriginOf(record)),
    expiryDate: record.expiryDate,
  };
  const pairs = files.map((f, i) => ({ from: f, to: copy.files[i]! }));

  if (bytes > (opts.inlineMaxBytes ?? INLINE_COPY_MAX_BYTES)) {
    try {
      await queueCopy({ slug: record.slug, files: pairs.map((p) => [p.from.fileId, p.to.fileId] as const) }, now);
    } catch (err) {
      await abandonCopy(record);
      throw err;
    }
    log.info('transfer forward queued', { from: source.slug, slug: record.slug, files: pairs.length, bytes });
    return { ...answer, recipients: record.recipients.map((r) => r.email), copying: true };
  }
  return { ...answer, recipients: await finishForward(source, record, pairs, now) };

  /** The copy's record, as an upload in progress nobody holds the key of, and its files (already uploaded); copy.files[i] is the copy of files[i]. */
  async function createCopyRecord(): Promise<{ record: TransferRecord; files: FileRecord[] }> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const slug = generateSlug();
      const copyFiles: FileRecord[] = files.map((f) => {
        const fileId = randomString(FILE_ID_LENGTH, ALNUM);
        return {
          slug,
          fileId,
          fileName: f.fileName,
          ...(f.itemPath ? { itemPath: f.itemPath } : {}),
          ...(f.recording ? { recording: f.recording } : {}),
          size: f.size,
          key: `t/${slug}/${fileId}`,
          mode: 'single',
          status: 'uploaded',
          createdAt: f.createdAt,
          // the same bytes as a scanned clean file (GuardDuty scans the copy again in AWS)
          scanStatus: 'clean',
          ...(f.scanner ? { scanner: f.scanner } : {}),
          ...(f.scannedAt ? { scannedAt: f.scannedAt } : {}),
          // the same bytes: the copy's manifest needs no digest run of its own
          ...(f.sha256 ? { sha256: f.sha256 } : {}),
        };
      });
      const rec: TransferRecord = {
        slug,
        status: 'uploading',
        region: source.region,
        anon: source.anon,
        sendAs: draft.sendAs,
        senderId: sender.userId,
        senderEmail: source.senderEmail,
        ...(source.senderName ? { senderName: source.senderName } : sender.name ? { senderName: sender.name } : {}),
        message: draft.message,
        lang: body.lang ?? source.lang,
        recipients:
          draft.sendAs === 'email' ? draft.emailTo.map((r) => ({ ...r, recipientId: randomString(8, ALNUM) })) : [],
        shareWith: [],
        uploadTokenHash: hashToken(newToken()),
        uploadTokenExpiresAt: now,
        fileCount: copyFiles.length,
        totalBytes: bytes,
        createdAt: now,
        expirySeconds: DEFAULT_EXPIRY_SECONDS,
        expiryDate: draft.expiryDate,
        totalDownloads: 0,
        sweepDueAt: now + FORWARD_ABANDON_MS,
        fileName: firstFileNameOf(copyFiles),
        forwardedFrom: source.slug,
        ...reservation,
      };
      if (await data.createTransfer(rec, copyFiles)) return { record: rec, files: copyFiles };
    }
    throw new Error('could not find a free slug in 5 tries');
  }
}

/**
 * Copies the objects, then sends the copy (list index, counters, expiry reminder) and mails its
 * recipients; returns the addresses mailed. Any failure removes the partial copy and gives the
 * reservation back (404 when the source went away meanwhile).
 */
async function finishForward(
  source: TransferRecord,
  record: TransferRecord,
  pairs: readonly { from: FileRecord; to: FileRecord }[],
  now: number,
): Promise<string[]> {
  try {
    await mapLimited(pairs, COPY_CONCURRENCY, ({ from, to }) =>
      storage.copyObject(refOf(source, from.key), refOf(record, to.key), from.size),
    );
    // The source's delete marks it first and removes its objects after: a delete that started
    // while we copied wins, and the copy goes.
    const still = await data.getTransfer(source.slug);
    if (!still || still.status === 'deleted' || still.status === 'cancelled')
      throw notFound('transfer_not_found', NOT_FOUND_MESSAGE);
    const copied = pairs.map((p) => p.to);
    const sent = await data.markSent(record, {
      dateSent: now,
      expiryDate: record.expiryDate,
      fileCount: copied.length,
      totalBytes: record.totalBytes,
      searchText: searchTextOf(
        copied,
        record.recipients.map((r) => r.email),
      ),
    });
    if (!sent) throw notFound('transfer_not_found', NOT_FOUND_MESSAGE);
  } catch (err) {
    await abandonCopy(record);
    if (storage.isMissingObject(err)) throw notFound('transfer_not_found', NOT_FOUND_MESSAGE);
    throw err;
  }
  const sentRecord: TransferRecord = { ...record, status: 'ready', dateSent: now };
  log.info('transfer forwarded', {
    from: source.slug,
    slug: record.slug,
    files: pairs.length,
    bytes: record.totalBytes,
  });
  await trySchedulingReminder(sentRecord);
  if (sentRecord.sendAs !== 'email') return [];
  const failed = new Set(
    await mailTransferSent(
      sentRecord,
      pairs.map((p) => p.to),
    ),
  );
  return sentRecord.recipients.map((r) => r.email).filter((e) => !failed.has(e));
}

/** How long one job run holds a queued copy (its 15-minute timeout and a margin); then another run may take it. */
const COPY_CLAIM_MS = 16 * 60 * SECOND;
/** A run starts another copy only with this much of its 15 minutes left. */
const COPY_START_MIN_LEFT_MS = 10 * 60 * SECOND;

/** One queued large forward: copied, then sent and mailed; a copy no longer in progress is left alone. */
async function runQueuedCopy(job: QueuedCopy, now: number): Promise<'sent' | 'failed' | 'skipped'> {
  const record = await data.getTransfer(job.slug);
  if (record?.status !== 'uploading' || !record.forwardedFrom) return 'skipped';
  const source = await data.getTransfer(record.forwardedFrom);
  const [sourceFiles, copyFiles] = await Promise.all([
    data.listFiles(record.forwardedFrom),
    data.listFiles(record.slug),
  ]);
  const fromById = new Map(sourceFiles.map((f) => [f.fileId, f]));
  const toById = new Map(copyFiles.map((f) => [f.fileId, f]));
  const pairs = job.files.map(([from, to]) => ({ from: fromById.get(from), to: toById.get(to) }));
  if (!source || pairs.length === 0 || pairs.some((p) => !p.from || !p.to || p.from.status !== 'uploaded')) {
    log.warn('forward source gone before its copy', { slug: record.slug, from: record.forwardedFrom });
    await abandonCopy(record);
    return 'failed';
  }
  try {
    await finishForward(source, record, pairs as { from: FileRecord; to: FileRecord }[], now);
    return 'sent';
  } catch (err) {
    log.error('forward copy failed', { slug: record.slug, from: record.forwardedFrom, ...errorFields(err) });
    return 'failed';
  }
}

/**
 * The forward-copy job (every minute): each queued large forward is claimed, copied inside S3,
 * sent and mailed (or cleaned up), then leaves the queue. Runs that overlap never copy one
 * forward twice at once; a run that dies leaves a claim that lapses for a later run.
 */
export async function runQueuedCopies(
  opts: { now?: () => number; timeLeftMs?: () => number } = {},
): Promise<{ sent: number; failed: number }> {
  const clock = opts.now ?? Date.now;
  const timeLeft = opts.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const result = { sent: 0, failed: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await listQueuedCopies(25, startKey);
    startKey = page.next;
    for (const slug of page.slugs) {
      // A copy may take minutes: start one only with most of the run's time left (a run that
      // times out mid-copy leaves its claim to lapse, and a later run copies again in full).
      if (timeLeft() < COPY_START_MIN_LEFT_MS) return result;
      const now = clock();
      const job = await claimCopy(slug, now, now + COPY_CLAIM_MS);
      if (!job) continue;
      const outcome = await runQueuedCopy(job, now);
      if (outcome === 'sent') result.sent += 1;
      if (outcome === 'failed') result.failed += 1;
      await dequeueCopy(slug);
    }
  } while (startKey);
  return result;
}

/** A forward that failed: its objects, its record (cancelled, as an abandoned upload) and its reservation go. */
async function abandonCopy(record: TransferRecord): Promise<void> {
  try {
    await storage.deletePrefix(locOf(record), `t/${record.slug}/`);
    if (await data.setStatus(record.slug, 'cancelled', { from: ['uploading'] }))
      await releaseTransfer(record, { unsent: true });
  } catch (err) {
    // The sweep removes it once its sweepDueAt passes (an upload nobody finished).
    log.error('forward copy not cleaned up', { slug: record.slug, ...errorFields(err) });
  }
}

// ---- mail the link again, remind ----------------------------------------------------------------

/** POST /transfers/emailSend: the transfer mail again, to every recipient or the ones named. */
export async function resendTransfer(
  body: z.output<typeof emailSendRequestSchema>,
  userId: string,
  now = Date.now(),
): Promise<{ sent: string[] }> {
  const t = await requireOwner(body.slug, userId);
  assertLive(t, now);
  assertEmailTransfer(t);
  let chosen = t.recipients;
  if (body.emails) {
    const byEmail = new Map(t.recipients.map((r) => [r.email.toLowerCase(), r]));
    const unknown = [...new Set(body.emails.filter((e) => !byEmail.has(e)))];
    if (unknown.length > 0)
      throw badRequest('not_a_recipient', 'These addresses are not recipients of this transfer.', { emails: unknown });
    chosen = [...new Set(body.emails)].map((e) => byEmail.get(e)!);
  }
  await assertMayMailAgain('resend', t.slug, now);
  const failed = new Set(await mailTransferAgain(t, await sentFiles(t.slug), chosen));
  return { sent: chosen.map((r) => r.email).filter((e) => !failed.has(e)) };
}

/** POST /transfers/remind: a reminder to every recipient who has not downloaded yet. */
export async function remindRecipients(slug: string, userId: string, now = Date.now()): Promise<{ sent: string[] }> {
  const t = await requireOwner(slug, userId);
  assertLive(t, now);
  assertEmailTransfer(t);
  await assertMayMailAgain('remind', t.slug, now);
  return { sent: await remindNow(t, now) };
}

// ---- expiry -----------------------------------------------------------------------------------------

function problem(code: ProblemCode, field: string): Problem {
  return { code, field, message: problemText(code) };
}

/** The plan's presets (free and anon: 1 Week), or a custom date 30 minutes to 1 year ahead. */
function expiryProblem(role: string, req: z.output<typeof changeExpiryRequestSchema>, now: number): Problem | null {
  if (!isExpiryAllowed(role, req.expirySeconds)) return problem('expiry_not_allowed', 'expirySeconds');
  if (req.expirySeconds !== CUSTOM_DATE_MARKER) return null;
  if (req.customExpiryDate === undefined) return problem('custom_expiry_required', 'customExpiryDate');
  const late = checkCustomExpiry(req.customExpiryDate, now);
  if (late === 'too_soon') return problem('expiry_too_soon', 'customExpiryDate');
  if (late === 'too_late') return problem('expiry_too_late', 'customExpiryDate');
  return null;
}

/**
 * POST /transfers/expiry: a new expiry from now (a preset of the plan) or a custom date; longer
 * or shorter. An expired transfer whose files are still kept (the 7-day grace) is active again;
 * a purged one answers 410. The scheduled reminder moves with it.
 */
export async function changeTransferExpiry(
  body: z.output<typeof changeExpiryRequestSchema>,
  sender: UserSender,
  now = Date.now(),
): Promise<{ expiryDate: number; state: TransferState }> {
  const t = await requireOwner(body.slug, sender.userId);
  const refused = expiryProblem(sender.role, body, now);
  if (refused) throw problemsError([refused]);
  assertKept(t, now);
  const expiryDate = expiryDateFor(body.expirySeconds, now, body.customExpiryDate);
  if (!(await data.changeExpiry(t, expiryDate))) await explainLostWrite(t.slug);
  await setExpiryChoice(
    t.slug,
    body.expirySeconds,
    body.expirySeconds === CUSTOM_DATE_MARKER ? body.customExpiryDate : undefined,
  );
  await scheduleReminder({ ...t, expiryDate });
  return { expiryDate, state: 'active' };
}

/** Sent, and its files still kept: what the expiry and password changes need. */
function assertKept(t: TransferRecord, now: number): void {
  if (t.status === 'uploading') throw conflict('transfer_not_sent', 'This transfer has not been sent yet.');
  // The sweep purges then (maybe a run later).
  if (t.purged || now >= purgeDateOf(t))
    throw gone('transfer_purged', 'The files of this transfer have been deleted; it can no longer be changed.');
}

/** A conditional write found the transfer changed: deleted meanwhile (404) or purged (410). */
async function explainLostWrite(slug: string): Promise<never> {
  const again = await data.getTransfer(slug);
  if (!again || again.status === 'deleted' || again.status === 'cancelled')
    throw notFound('transfer_not_found', NOT_FOUND_MESSAGE);
  throw gone('transfer_purged', 'The files of this transfer have been deleted; it can no longer be changed.');
}

// ---- password -----------------------------------------------------------------------------------------

/** POST /transfers/password: sets (hashed) or removes the download password; the download page follows at once. */
export async function changeTransferPassword(
  body: z.output<typeof changePasswordRequestSchema>,
  userId: string,
  now = Date.now(),
): Promise<{ hasPassword: boolean }> {
  const t = await requireOwner(body.slug, userId);
  assertKept(t, now);
  const hash = body.password === null ? null : await hashPassword(body.password);
  if (!(await setPasswordHash(t.slug, hash))) await explainLostWrite(t.slug);
  return { hasPassword: hash !== null };
}
