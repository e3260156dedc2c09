/**
 * The receive side (architecture §3 steps 4-6): the download page's data behind its gate
 * (404 / 410 / 401), presigned attachment GETs, download records with country, the sender's
 * notification, the ZIP of all files, and extension requests and approvals.
 */
import { createHash, randomUUID } from 'node:crypto';
import { anonFilesKeptUntil, extendedExpiryDate, purgeDateOf } from '../domain/expiry';
import { expiredAgoText } from '../domain/format';
import { TEXTS } from '../domain/texts';
import { baseName, mailTitleOf } from '../domain/mail-title';
import type { DownloadManifest, DownloadView, ExpiredDetails, ZipResponse } from '../domain/transfer-api';
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import { getExtensionToken, grantExtensionToken, hitRateWindow, putExtensionToken } from '../data/verification';
import { assertMayTry, recordFailure, type FailurePolicy } from './failure-throttle';
import { eventIdAt } from '../data/notifications';
import { recordDownload } from '../data/download-events';
import * as storage from '../adapters/storage';
import { startJob } from '../adapters/jobs';
import { HttpError, conflict, gone, notFound, tooManyRequests, unauthorized } from '../lib/errors';
import { fileScanView, servable, transferScanState, type ScanStatus } from '../domain/malware-scan';
import { hashToken, newToken, verifyPassword } from '../lib/secrets';
import { config } from '../lib/env';
import { errorFields, log } from '../lib/log';
import { refOf } from './object-refs';
import { mailDownloadNotice, mailExtensionGranted, mailExtensionRequest } from './mail';
import { trySchedulingReminder } from './reminders';
import { getProfile } from '../data/users';
import { publishEvent } from './events';
import { brandingForSender } from './branding';
import { addWatcher, liveUploadView } from './live-transfers';
import { WATCH_PER_IP, WATCH_PER_TRANSFER } from '../domain/live-upload';
import { digestsToStart, startDigest } from './digest-start';
import { assertRecipientAccess, verifiedAddressOf } from './recipient-access';
import { grantDownload, limitUsedUp } from './deliveries';
import { currentVersions } from '../domain/file-versions';
import { reviewSettingsState } from '../domain/review';

const SECOND = 1000;
/** Presigned GETs are short-lived: long enough to start a download, too short to pass around. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;
/**
 * Wrong download passwords: ten free per (transfer, client), then the client waits 1, 2, 4 …
 * minutes up to an hour; 200 an hour on one transfer from every client together, past which
 * only clients without failures may try. Guessing never locks the right password out for others.
 */
export const UNLOCK_FAILURES: FailurePolicy = {
  scope: 'unlock',
  freeFailures: 10,
  firstDelaySeconds: 60,
  maxDelaySeconds: 3600,
  ceiling: { limit: 200, windowSeconds: 3600 },
};
/**
 * A ZIP build holds a lease on its record: a minute, renewed every 20 s while the job runs (it may
 * run 15). A build that died stops renewing, so the next POST /zip after its lease starts another.
 */
export const ZIP_LEASE: ZipLease = { ms: 60 * SECOND, renewEveryMs: 20 * SECOND };

export interface ZipLease {
  readonly ms: number;
  readonly renewEveryMs: number;
}
/** At most one download mail per transfer and downloader per hour; every download is still recorded. */
const NOTICE_WINDOW_SECONDS = 3600;

export interface Viewer {
  readonly password?: string;
  readonly recipient?: string;
  /** a verified recipient's session token (services/recipient-access.ts) */
  readonly access?: string;
  readonly sourceIp: string;
  readonly viewerCountry?: string;
}

/** The 410 of a transfer shared while uploading whose sender cancelled the upload (the page shows its translation). */
export const WITHDRAWN_TEXT = 'The sender withdrew this transfer before it was complete.';

/** The 410 of a transfer disabled after an abuse report (the page shows its translation). */
export const DISABLED_TEXT = 'This transfer was disabled after a report and can no longer be downloaded.';

/** The malware scan decides what may be served; files without a state predate scanning. */
function scanOf(f: FileRecord): ScanStatus {
  return f.scanStatus ?? 'clean';
}

function assertServable(f: FileRecord): void {
  const s = scanOf(f);
  if (s === 'pending')
    throw conflict('scan_pending', 'This file is still being checked for malware. Try again in a moment.');
  if (s === 'infected') throw gone('file_removed', 'This file was removed because it contains malware.');
  if (s === 'error')
    throw conflict('scan_failed', 'This file could not be checked for malware, so it cannot be downloaded.');
}

export function purgeAt(t: Pick<TransferRecord, 'expiryDate' | 'anon' | 'createdAt'>): number {
  return purgeDateOf(t);
}

/** The transfer if this viewer may download it now; otherwise the spec's 404 / 410 / 401, or a verified recipient's 401 / 410. */
export async function openTransfer(slug: string, viewer: Viewer, now = Date.now()): Promise<TransferRecord> {
  const t = await openLink(slug, viewer, now);
  await assertRecipientAccess(t, viewer, now);
  return t;
}

/**
 * The link's own gate (exists, not withdrawn, disabled or expired, the password), before any
 * recipient check. `allowExpired`: an expired transfer whose files are not purged yet passes (the
 * review stays readable after expiry; services/reviews.ts).
 */
export async function openLink(
  slug: string,
  viewer: Viewer,
  now = Date.now(),
  opts: { readonly allowExpired?: boolean } = {},
): Promise<TransferRecord> {
  const t = await data.getTransfer(slug);
  // an upload is readable only when it was shared at its start (live-transfers.ts)
  const unshared = t?.liveAt === undefined && (t?.status === 'uploading' || t?.status === 'cancelled');
  if (!t || t.status === 'deleted' || unshared) {
    throw notFound('transfer_not_found', TEXTS.download404);
  }
  // shared at its start and cancelled before it completed: say so, rather than a link that leads nowhere
  if (t.status === 'cancelled') throw gone('transfer_withdrawn', WITHDRAWN_TEXT);
  // an operator disabled it after an abuse report (its objects are kept as evidence)
  if (t.disabledAt !== undefined) throw gone('transfer_disabled', DISABLED_TEXT);
  if (t.purged || (now >= t.expiryDate && !opts.allowExpired)) {
    const details: ExpiredDetails = { expiryDate: t.expiryDate, extendable: !t.purged && now < purgeAt(t) };
    throw gone('transfer_expired', expiredAgoText(t.expiryDate, now), details);
  }
  if (t.passwordHash) {
    if (!viewer.password) throw unauthorized('password_required', TEXTS.download401);
    await assertMayTry(
      UNLOCK_FAILURES,
      slug,
      viewer.sourceIp,
      'Too many wrong passwords. Try again in {minutes} minutes.',
      now,
    );
    if (!(await verifyPassword(viewer.password, t.passwordHash))) {
      await recordFailure(UNLOCK_FAILURES, slug, viewer.sourceIp, now);
      throw unauthorized('wrong_password', TEXTS.download401);
    }
  }
  return t;
}

export { mailTitleOf };

export function titleOf(files: readonly Pick<FileRecord, 'fileName'>[]): string {
  if (files.length === 1) return baseName(files[0]!.fileName);
  return `${files.length} files`;
}

/** What recipients get: the current version of each uploaded file (domain/file-versions.ts). */
async function sentFiles(slug: string): Promise<FileRecord[]> {
  return currentVersions((await data.listFiles(slug)).filter((f) => f.status === 'uploaded'));
}

function recipientEmail(t: TransferRecord, recipientId: string | undefined): string | undefined {
  return recipientId ? t.recipients.find((r) => r.recipientId === recipientId)?.email : undefined;
}

/** POST /getDownload */
export async function downloadView(slug: string, viewer: Viewer, now = Date.now()): Promise<DownloadView> {
  const t = await openTransfer(slug, viewer, now);
  const [all, branding] = await Promise.all([data.listFiles(slug), brandingForSender(t.senderId)]);
  const files = currentVersions(all.filter((f) => f.status === 'uploaded'));
  // while the upload runs: only complete files are listed; the others are counted
  const upload = t.status === 'uploading' ? await liveUploadView(t, all, now) : undefined;
  const to = verifiedAddressOf(viewer) ?? recipientEmail(t, viewer.recipient);
  return {
    id: slug,
    title: titleOf(upload ? all : files),
    fileCount: files.length,
    totalBytes: files.reduce((s, f) => s + f.size, 0),
    files: files.map((f) => ({
      fileId: f.fileId,
      fileName: f.fileName,
      ...(f.itemPath ? { itemPath: f.itemPath } : {}),
      size: f.size,
      ...(f.version !== undefined && f.versionOf !== undefined ? { version: f.version, versionOf: f.versionOf } : {}),
      scan: fileScanView(f.scanStatus),
      ...(f.e2e ? { e2e: f.e2e } : {}),
    })),
    scanState: transferScanState(files),
    message: t.message,
    senderEmail: t.senderEmail,
    ...(t.senderName ? { senderName: t.senderName } : {}),
    ...(to ? { recipientEmail: to } : {}),
    dateSent: t.dateSent ?? t.createdAt,
    expiryDate: t.expiryDate,
    totalDownloads: t.totalDownloads,
    ...((await limitUsedUp(t, { recipient: viewer.recipient, verifiedEmail: verifiedAddressOf(viewer) }))
      ? { limitReached: true as const }
      : {}),
    branding,
    ...(upload ? { upload } : {}),
    ...(t.e2e ? { e2e: t.e2e } : {}),
    ...(t.review?.enabled ? { review: reviewSettingsState(t.review, false) } : {}),
  };
}

/**
 * POST /getDownload/notify: "Mail me when it's complete" on a transfer still uploading, behind
 * the download page's own gate (password, expiry, withdrawn). Rate-limited per client and per
 * transfer; an address asks once (a repeat is answered alike). 409 once it is complete.
 */
export async function watchTransfer(
  slug: string,
  viewer: Viewer,
  email: string,
  lang: string | undefined,
  now = Date.now(),
): Promise<void> {
  const t = await openTransfer(slug, viewer, now);
  if (t.status !== 'uploading')
    throw conflict('transfer_complete', 'This transfer is complete: its files can be downloaded now.');
  for (const [scope, subject, rule] of [
    ['watch-ip', viewer.sourceIp, WATCH_PER_IP],
    ['watch', slug, WATCH_PER_TRANSFER],
  ] as const) {
    const hit = await hitRateWindow(scope, subject, rule.limit, rule.windowSeconds, now);
    if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, 'Too many requests, try again later.');
  }
  await addWatcher(t, email, lang ?? t.lang, now);
}

/** A signed-in sender's transferSettings.downloadEmails (default on); guests have no settings and always get the mail. */
async function wantsDownloadEmails(t: Pick<TransferRecord, 'senderId'>): Promise<boolean> {
  if (!t.senderId) return true;
  const profile = await getProfile(t.senderId);
  return profile?.transferSettings?.downloadEmails !== false;
}

/**
 * Records a download in one transaction (data/download-events.ts: the download, the transfer's
 * count, and for signed-in senders the notification, the analytics log row and day counters),
 * then mails the sender (throttled). Tracking failures never fail the download.
 */
async function track(
  t: TransferRecord,
  viewer: Viewer,
  what: { fileName: string; origin: 'file' | 'zip' },
  now: number,
): Promise<void> {
  try {
    // Loaded on the first download: the jobs that import this module for other reasons (the ZIP
    // build, the expiry sweep) then do not carry the GeoIP reader (maxmind, ~18 KB).
    const { countryOf } = await import('../adapters/geo');
    const country = await countryOf(viewer.viewerCountry, viewer.sourceIp);
    const downloaderEmail = verifiedAddressOf(viewer) ?? recipientEmail(t, viewer.recipient);
    const downloadId = eventIdAt(now);
    await recordDownload(t, {
      at: now,
      id: downloadId,
      countryCode: country.code,
      countryName: country.name,
      fileName: what.fileName,
      origin: what.origin,
      ...(downloaderEmail ? { recipientEmail: downloaderEmail } : {}),
    });
    // the sender's `transfer.downloaded` (a file request's upload is the requester's own download: none)
    if (!t.requestId) {
      await publishEvent({
        type: 'transfer.downloaded',
        userId: t.senderId,
        at: now,
        data: {
          transferId: t.slug,
          downloadId,
          country: country.code,
          countryName: country.name,
          ...(downloaderEmail ? { recipient: downloaderEmail } : {}),
          origin: what.origin,
          fileName: what.fileName,
          downloadedAt: new Date(now).toISOString(),
        },
      });
    }
    // A file request's upload is downloaded by its requester: the visitor who sent it gets no notice.
    if (t.requestId) return;
    // The bell notification (recorded above) stays; the mail goes unless the sender turned it off.
    if (!(await wantsDownloadEmails(t))) return;
    const who = downloaderEmail ?? viewer.sourceIp;
    const notice = await hitRateWindow('dlmail', `${t.slug}:${who}`, 1, NOTICE_WINDOW_SECONDS, now);
    if (notice.allowed) {
      await mailDownloadNotice(t, {
        ...(downloaderEmail ? { downloaderEmail } : {}),
        ...(what.origin === 'file' ? { fileName: what.fileName } : {}),
        downloadedAt: now,
        countryCode: country.code,
      });
    }
  } catch (err) {
    // The download itself must not fail because its bookkeeping did.
    log.error('download not tracked', { slug: t.slug, ...errorFields(err) });
  }
}

/** POST /getDownload/file */
export async function fileDownload(
  slug: string,
  fileId: string,
  viewer: Viewer,
  now = Date.now(),
): Promise<{ url: string }> {
  const t = await openTransfer(slug, viewer, now);
  const f = (await sentFiles(slug)).find((s) => s.fileId === fileId);
  // an older version is the sender's alone (the TransferModal): recipients get the current one
  if (!f) throw notFound('file_not_found', TEXTS.download404);
  assertServable(f);
  const ref = refOf(t, f.key);
  const grant = await grantDownload(
    t,
    { ...viewer, verifiedEmail: verifiedAddressOf(viewer) },
    { what: 'file', ref, size: f.size, fileIds: [f.fileId], expiresInSeconds: DOWNLOAD_URL_SECONDS },
    now,
  );
  const url = await storage.presignDownload(ref, baseName(f.fileName), DOWNLOAD_URL_SECONDS, grant);
  await track(t, viewer, { fileName: baseName(f.fileName), origin: 'file' }, now);
  return { url };
}

/**
 * POST /getDownload/manifest: each downloadable file's path, size and SHA-256 (null while its
 * digest is computed). Digests that never started or whose run died are started again here, so
 * a later request finds them. Nothing is recorded as a download.
 */
export async function downloadManifest(slug: string, viewer: Viewer, now = Date.now()): Promise<DownloadManifest> {
  await openTransfer(slug, viewer, now);
  const files = (await sentFiles(slug)).filter((f) => scanOf(f) !== 'infected');
  await Promise.all(digestsToStart(files, now).map((f) => startDigest(slug, f.fileId)));
  return {
    id: slug,
    files: files.map((f) => ({
      fileId: f.fileId,
      path: f.itemPath || f.fileName,
      size: f.size,
      sha256: f.sha256 ?? null,
    })),
    complete: files.every((f) => f.sha256 !== undefined),
  };
}

/**
 * What the ZIP holds: the files found clean, and those too large to scan (said so on the page);
 * a removed or undecided file never goes in.
 */
function zipFiles(files: readonly FileRecord[]): FileRecord[] {
  return files.filter((f) => servable(f.scanStatus));
}

/** Identifies a ZIP by the exact set of files in it, so adding files builds a new one. */
export function zipContentHash(files: readonly Pick<FileRecord, 'fileId' | 'size'>[]): string {
  const list = files
    .map((f) => `${f.fileId}:${f.size}`)
    .sort()
    .join(',');
  return createHash('sha256').update(list).digest('hex').slice(0, 24);
}

export function zipKey(slug: string, contentHash: string): string {
  return `z/${slug}/${contentHash}.zip`;
}

export function zipName(t: Pick<TransferRecord, 'slug'>, files: readonly Pick<FileRecord, 'fileName'>[]): string {
  const title = files.length === 1 ? baseName(files[0]!.fileName).replace(/\.[^.]*$/u, '') : `SendBridge-${t.slug}`;
  return `${title || `SendBridge-${t.slug}`}.zip`;
}

/** POST /zip: the ZIP when it is ready, else starts (at most one) build and says so. */
export async function zipDownload(
  slug: string,
  viewer: Viewer,
  now = Date.now(),
): Promise<{ status: number; body: ZipResponse }> {
  const t = await openTransfer(slug, viewer, now);
  // "Download all" is for a complete transfer: while it uploads, files come one by one
  if (t.status === 'uploading')
    throw conflict('transfer_uploading', 'The files are still being uploaded. Download all once every file is in.');
  // a ZIP of sealed files would hold ciphertext: the recipient's browser builds it from the opened files
  if (t.e2e)
    throw conflict('encrypted_zip_in_browser', 'This transfer is end-to-end encrypted: your browser builds its ZIP.');
  const sent = await sentFiles(slug);
  if (sent.some((f) => scanOf(f) === 'pending'))
    throw conflict('scan_pending', 'The files are still being checked for malware. Try again in a moment.');
  const files = zipFiles(sent);
  if (files.length === 0) throw notFound('transfer_empty', TEXTS.download404);
  const contentHash = zipContentHash(files);
  const existing = await data.getZip(slug, contentHash);
  if (existing?.status === 'ready') {
    const ref = refOf(t, existing.key);
    const grant = await grantDownload(
      t,
      { ...viewer, verifiedEmail: verifiedAddressOf(viewer) },
      {
        what: 'zip',
        ref,
        size: existing.size ?? 0,
        fileIds: files.map((f) => f.fileId),
        expiresInSeconds: DOWNLOAD_URL_SECONDS,
      },
      now,
    );
    const url = await storage.presignDownload(ref, zipName(t, files), DOWNLOAD_URL_SECONDS, grant);
    await track(t, viewer, { fileName: zipName(t, files), origin: 'zip' }, now);
    return { status: 200, body: { status: 'ready', url, size: existing.size ?? 0 } };
  }
  const attempt = randomUUID();
  const claimed = await data.claimZipBuild(
    slug,
    {
      contentHash,
      status: 'building',
      key: zipKey(slug, contentHash),
      startedAt: now,
      leaseUntil: now + ZIP_LEASE.ms,
      attempt,
    },
    now,
  );
  if (claimed) {
    try {
      await startJob('zip-build', { slug, contentHash, attempt } satisfies ZipJobInput);
    } catch (err) {
      await data.finishZip(slug, contentHash, attempt, { status: 'failed', error: String(err) });
      throw err;
    }
  }
  return { status: 202, body: { status: 'building' } };
}

export interface ZipJobInput {
  readonly slug: string;
  readonly contentHash: string;
  /** the claim that started this build (data/transfers.ts ZipRecord.attempt) */
  readonly attempt: string;
}

export interface ZipBuildArgs {
  readonly t: TransferRecord;
  readonly files: FileRecord[];
  readonly key: string;
  readonly name: string;
  /** aborted when the build lost its lease (another attempt took over) */
  readonly signal: AbortSignal;
}

/**
 * The lease's heartbeat: renews it every `renewEveryMs` until stopped; aborts `controller` when
 * the record moved on to another attempt. A failed renewal (DynamoDB briefly away) is retried at
 * the next beat: the lease outlives two missed beats.
 */
function keepLease(input: ZipJobInput, lease: ZipLease, controller: AbortController) {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const beat = async () => {
    try {
      if (!(await data.renewZipLease(input.slug, input.contentHash, input.attempt, Date.now() + lease.ms))) {
        log.warn('zip build lost its lease', { slug: input.slug });
        controller.abort(new Error('zip build lost its lease'));
        return;
      }
    } catch (err) {
      log.warn('zip lease renewal failed', { slug: input.slug, ...errorFields(err) });
    }
    if (!stopped) timer = setTimeout(() => void beat(), lease.renewEveryMs);
  };
  timer = setTimeout(() => void beat(), lease.renewEveryMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** What a build run did: the archive is complete, or it stopped at its deadline with its progress kept. */
export type ZipBuildOutcome = { readonly size: number } | { readonly paused: true };

/**
 * The zip-build job: builds one stored ZIP of the transfer's files in S3 (adapters/zip), holding
 * the record's lease while it runs. A build started for an attempt that no longer holds the record
 * (its lease ran out and another POST /zip claimed it) does nothing. A run that stops at its
 * deadline (the composed build, docs/decisions/0072) renews the lease and hands over to the next
 * run (`continueBuild`), which takes up the parts left.
 */
export async function buildTransferZip(
  input: ZipJobInput,
  build: (args: ZipBuildArgs) => Promise<ZipBuildOutcome>,
  lease: ZipLease = ZIP_LEASE,
  continueBuild?: () => Promise<void>,
): Promise<void> {
  const t = await data.getTransfer(input.slug);
  const zip = await data.getZip(input.slug, input.contentHash);
  if (!t || !zip || zip.status === 'ready' || zip.attempt !== input.attempt) return;
  // The job may start a while after the claim: its lease counts from now.
  if (!(await data.renewZipLease(input.slug, input.contentHash, input.attempt, Date.now() + lease.ms))) return;
  const files = zipFiles(await sentFiles(input.slug));
  if (zipContentHash(files) !== input.contentHash) {
    await data.finishZip(input.slug, input.contentHash, input.attempt, { status: 'failed', error: 'files changed' });
    return;
  }
  const controller = new AbortController();
  const stop = keepLease(input, lease, controller);
  try {
    const result = await build({ t, files, key: zip.key, name: zipName(t, files), signal: controller.signal });
    stop();
    if ('paused' in result) {
      // The next run's lease counts from the hand-over; without a way to go on, the next POST /zip
      // after the lease claims the build again and resumes it.
      await data.renewZipLease(input.slug, input.contentHash, input.attempt, Date.now() + lease.ms);
      if (continueBuild) await continueBuild();
      log.info('zip build paused, continued by the next run', { slug: input.slug });
      return;
    }
    await data.finishZip(input.slug, input.contentHash, input.attempt, { status: 'ready', size: result.size });
  } catch (err) {
    stop();
    if (controller.signal.aborted) return;
    log.error('zip build failed', { slug: input.slug, ...errorFields(err) });
    await data.finishZip(input.slug, input.contentHash, input.attempt, {
      status: 'failed',
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** Extension requests per transfer and address, and per client address. */
const EXTENSION_PER_ADDRESS = { limit: 3, windowSeconds: 24 * 3600 };
const EXTENSION_PER_IP = { limit: 10, windowSeconds: 3600 };

/** POST /extension/request: a recipient of an expired transfer asks the sender for 48 more hours. */
export async function requestExtension(
  slug: string,
  email: string,
  lang: string | undefined,
  sourceIp: string,
  now = Date.now(),
): Promise<void> {
  const t = await data.getTransfer(slug);
  if (!t || t.status === 'uploading' || t.status === 'cancelled' || t.status === 'deleted')
    throw notFound('transfer_not_found', TEXTS.download404);
  if (now < t.expiryDate) throw new HttpError(409, 'not_expired', 'This transfer has not expired yet.');
  if (t.purged || now >= purgeAt(t)) throw gone('link_expired', TEXTS.linkExpired);
  for (const [scope, subject, rule] of [
    ['ext-address', `${slug}:${email}`, EXTENSION_PER_ADDRESS],
    ['ext-ip', sourceIp, EXTENSION_PER_IP],
  ] as const) {
    const hit = await hitRateWindow(scope, subject, rule.limit, rule.windowSeconds, now);
    if (!hit.allowed)
      throw tooManyRequests(hit.retryAfterSeconds, 'You already asked for an extension. The sender has been notified.');
  }
  const token = newToken();
  await putExtensionToken(
    hashToken(token),
    { slug, requesterEmail: email, lang: lang ?? t.lang, createdAt: now },
    purgeAt(t),
    now,
  );
  const files = await sentFiles(slug);
  await mailExtensionRequest(t, email, mailTitleOf(files), `${config().appOrigin}/extension/${token}`);
}

/** POST /checkExtension: the sender's approve link. Idempotent: a second call answers the same date. */
export async function approveExtension(token: string, now = Date.now()): Promise<{ expiryDate: number }> {
  const tokenHash = hashToken(token);
  const request = await getExtensionToken(tokenHash, now);
  if (!request) throw gone('link_expired', TEXTS.linkExpired);
  if (request.grantedExpiryDate !== undefined) return { expiryDate: request.grantedExpiryDate };
  const t = await data.getTransfer(request.slug);
  if (!t || t.purged) throw gone('link_expired', TEXTS.linkExpired);
  const expiryDate = extendedExpiryDate(t.expiryDate, now, t.anon ? anonFilesKeptUntil(t.createdAt) : undefined);
  if (!(await data.extendExpiry(t.slug, expiryDate))) throw gone('link_expired', TEXTS.linkExpired);
  if (!(await grantExtensionToken(tokenHash, expiryDate))) {
    // A concurrent approval won; answer with its date and mail nothing twice.
    const again = await getExtensionToken(tokenHash, now);
    return { expiryDate: again?.grantedExpiryDate ?? expiryDate };
  }
  // Recipients who have not downloaded get their reminder a day before the new expiry.
  await trySchedulingReminder({ ...t, expiryDate });
  const files = await sentFiles(t.slug);
  await mailExtensionGranted(request.requesterEmail, request.lang, {
    title: mailTitleOf(files),
    expiryDate,
    slug: t.slug,
    ...(t.senderName ? { senderName: t.senderName } : {}),
  });
  return { expiryDate };
}
