/**
 * The send side of the core loop (architecture §3 steps 1-3): create a transfer and its upload
 * plan, sign and record parts, complete files and the transfer (mail to recipients), add files,
 * cancel and delete. Handlers stay thin and call these; rules come from functions/domain.
 */
import { managesNow, shareOnSend, teamMateIds } from './sharing';
import { deleteShares } from '../data/teams';
import { E2E_REFUSALS } from '../domain/e2e-params';
import { randomString, generateSlug } from '../domain/slug';
import { ACCESS_TEXTS, accessListIsEmpty, initialAccessEntries } from '../domain/recipient-access';
import { seedAccessEntries } from '../data/recipient-access';
import type { SendRequestBody } from '../domain/validation';
import { totalSize, type FileEntry } from '../domain/file-filters';
import {
  partCountFor,
  partRange,
  partSizeFor,
  usesMultipart,
  SIGNED_PUT_EXPIRES_SECONDS,
  type PartSizeHints,
} from '../domain/upload';
import { RESUME_WINDOW_SECONDS, CUSTOM_DATE_MARKER, expiryDateFor } from '../domain/expiry';
import type { RegionId } from '../domain/regions';
import { resolveRole } from '../domain/plans';
import {
  FILE_ID_LENGTH,
  SIGNED_URLS_PER_ANSWER,
  type addFilesRequestSchema,
  type CompleteResponse,
  type CreateTransferResponse,
  type PlannedFile,
  type RecordPartRequest,
  type SignManyRequest,
  type SignManyResponse,
  type SignRequest,
  type SignResponse,
} from '../domain/transfer-api';
import * as data from '../data/transfers';
import type { FileRecord, PartRecord, TransferRecord } from '../data/transfers';
import * as storage from '../adapters/storage';
import { config } from '../lib/env';
import { HttpError, badRequest, conflict, forbidden, gone, notFound } from '../lib/errors';
import { hashPassword, hashToken, newToken, safeEqual } from '../lib/secrets';
import { log } from '../lib/log';
import { mapLimited } from '../lib/concurrency';
import { addFilesRefusalError, sendRefusalError } from './draft-error';
import { firstFileNameOf, searchTextOf } from '../domain/transfer-search';
import { mailTransferSent } from './mail';
import { completeRequestUpload } from './request-uploads';
import { trySchedulingReminder } from './reminders';
import type * as z from 'zod/mini';
import { releaseSend, type UserProfile } from '../data/users';
import { rememberRecipients } from './contacts';
import {
  releaseBytes,
  releaseTransfer,
  reserveForGuest,
  reserveForSend,
  reserveMore,
  storageOwnerOf,
  type Reservation,
} from './limits';
import { uploadRegionFor } from './storage-region';
import { linkOriginOf } from './link-origin';
import { publishEvent } from './events';
import { setLimit, TRANSFER_SCOPE } from '../data/download-grants';
import { locOf, refOf } from './object-refs';
import type { Recording } from '../domain/previews';
import { cipherSizeOf, sealedPartSize } from '../domain/e2e-params';
import { TEXTS } from '../domain/texts';
import { REVIEW_NEEDS_ACCOUNT_TEXT } from '../domain/review';
import { checkAddFiles, checkSend, type CheckedSend, type SendSenderFacts } from '../domain/send-rules';
import { livesFromStart, mailAtStart, mailWatchersOnCompletion, mailWithdrawn } from './live-transfers';
import { announceNewVersions } from './version-notice';
import { currentVersions } from '../domain/file-versions';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SECOND = 1000;
/** Keeps the create call inside API Gateway's 30 s for big multipart file lists. */
const MULTIPART_CREATE_CONCURRENCY = 8;

export type Sender =
  | { readonly kind: 'guest'; readonly email: string; readonly client: string }
  | {
      readonly kind: 'user';
      readonly userId: string;
      readonly email: string;
      readonly role: string;
      readonly name?: string;
      readonly profile: UserProfile;
    };

/** `{origin}/w/{slug}`; the origin of a signed-in sender's transfer is linkOriginOf's (their custom domain). */
export function downloadLink(slug: string, origin: string = config().appOrigin): string {
  return `${origin}/w/${slug}`;
}

export function recipientLink(slug: string, recipientId: string, origin: string = config().appOrigin): string {
  return `${origin}/downloads/${slug}/${recipientId}`;
}

export { locOf, refOf };

/** File records (and multipart uploads) for new files of a transfer. */
export async function planFiles(
  t: Pick<TransferRecord, 'slug' | 'region' | 'anon' | 'e2e'>,
  entries: readonly (FileEntry & { readonly recording?: Recording })[],
  now: number,
  hints: PartSizeHints = {},
): Promise<FileRecord[]> {
  // a sealed file only in an encrypted transfer, and every file of one sealed (send-rules.ts checks a send; this guards every caller)
  if (
    entries.some(
      (f) => (f.e2e !== undefined) !== (t.e2e !== undefined) || (f.e2e && cipherSizeOf(f.e2e.plainSize) !== f.size),
    )
  ) {
    throw badRequest('invalid_encryption', TEXTS.invalidE2e);
  }
  return mapLimited(entries, MULTIPART_CREATE_CONCURRENCY, async (f) => {
    const fileId = randomString(FILE_ID_LENGTH, ALNUM);
    const key = `t/${t.slug}/${fileId}`;
    const base = {
      slug: t.slug,
      fileId,
      fileName: f.fileName,
      ...(f.itemPath ? { itemPath: f.itemPath } : {}),
      ...(f.recording ? { recording: f.recording } : {}),
      ...(f.e2e ? { e2e: { salt: f.e2e.salt, plainSize: f.e2e.plainSize } } : {}),
      size: f.size,
      key,
      status: 'pending' as const,
      createdAt: now,
    };
    if (!usesMultipart(f.size)) return { ...base, mode: 'single' as const };
    const uploadId = await storage.startMultipart(refOf(t, key));
    // a sealed file's parts are planned on its plaintext (whole MiB, so whole chunks) and stored sealed
    const plainPart = partSizeFor(f.e2e ? f.e2e.plainSize : f.size, hints);
    return {
      ...base,
      mode: 'multipart' as const,
      uploadId,
      fullCrc32: true as const,
      partSize: f.e2e ? sealedPartSize(plainPart) : plainPart,
      partCount: partCountFor(f.e2e ? f.e2e.plainSize : f.size, plainPart),
    };
  });
}

export async function plannedFile(
  t: TransferRecord,
  f: FileRecord,
  expiresIn: number,
  withUrl = true,
): Promise<PlannedFile> {
  const common = {
    fileId: f.fileId,
    fileName: f.fileName,
    ...(f.itemPath ? { itemPath: f.itemPath } : {}),
    size: f.size,
    ...(f.e2e ? { e2e: f.e2e } : {}),
  };
  if (f.mode === 'single')
    return {
      ...common,
      mode: 'single',
      ...(withUrl ? { url: await storage.presignPut(refOf(t, f.key), f.size, expiresIn) } : {}),
    };
  return { ...common, mode: 'multipart', partSize: f.partSize!, partCount: f.partCount! };
}

/**
 * The plans of a create or addFiles answer: a presigned PUT for the first SIGNED_URLS_PER_ANSWER
 * single files only, so the answer stays far under Lambda's 6 MB whatever the file count; the
 * client signs the others through /sign as it reaches them.
 */
export async function plannedFiles(
  t: TransferRecord,
  files: readonly FileRecord[],
  expiresIn: number,
): Promise<PlannedFile[]> {
  let signed = 0;
  return Promise.all(
    files.map((f) => {
      const sign = f.mode === 'single' && signed < SIGNED_URLS_PER_ANSWER;
      if (f.mode === 'single') signed += 1;
      return plannedFile(t, f, expiresIn, sign);
    }),
  );
}

export function urlLifetime(t: TransferRecord, now: number): number {
  return Math.max(60, Math.min(SIGNED_PUT_EXPIRES_SECONDS, Math.floor((t.uploadTokenExpiresAt - now) / SECOND)));
}

/**
 * Where a new transfer's files go, decided here and never by the client: a guest's
 * in the default region (spec §9 hongkong; guests have no choice), a signed-in sender's in
 * uploadRegionFor (their chosen region when the plan includes the choice). A region the draft
 * names is not honoured; the answer's `region` says where the files went.
 */
async function regionOf(sender: Sender): Promise<RegionId> {
  if (sender.kind === 'guest') return config().defaultRegion;
  const owner = await storageOwnerOf(sender.profile);
  return uploadRegionFor(sender.profile, resolveRole({ customerRole: owner.role }));
}

/** Where a create call comes from: the app's send form (by email unless it says so) or the public API (a link). */
export type SendChannel = 'app' | 'api';

/** The facts the send rules need about a sender; the team is read only when the send names team mates. */
async function senderFactsOf(sender: Sender, shareWith: readonly string[]): Promise<SendSenderFacts> {
  if (sender.kind === 'guest') return { kind: 'guest', verifiedEmail: sender.email };
  return {
    kind: 'user',
    role: sender.role,
    accountEmail: sender.email,
    ...(sender.name ? { name: sender.name } : {}),
    teamMateIds: shareWith.length > 0 ? await teamMateIds(sender.profile) : new Set<string>(),
  };
}

/**
 * POST /transfers (guest, proven sender address), POST /me/transfers (signed in) and
 * POST /v1/transfers (API key): the body is the parsed send (validation.ts sendBodySchema);
 * the sender's rules decide in send-rules.ts checkSend.
 */
export async function createTransfer(
  body: SendRequestBody,
  sender: Sender,
  channel: SendChannel,
  now = Date.now(),
): Promise<CreateTransferResponse> {
  const checked = checkSend(body, {
    sender: await senderFactsOf(sender, body.shareWith),
    now,
    defaultSendAs: channel === 'api' ? 'link' : 'email',
  });
  if (!checked.ok) throw sendRefusalError(checked.refusal);
  // review needs an account: its activity reaches the sender by the bell and the dashboard
  if (body.review && sender.kind === 'guest') throw badRequest('review_needs_account', REVIEW_NEEDS_ACCOUNT_TEXT);
  if (body.review && body.e2e) throw badRequest('encrypted_review', E2E_REFUSALS.encrypted_review);
  const send = checked.send;
  if (send.verifiedRecipients && accessListIsEmpty(send, send.verifiedRecipients))
    throw badRequest('access_list_empty', ACCESS_TEXTS.emptyList);
  const region = await regionOf(sender);
  const reservation: Reservation =
    sender.kind === 'user'
      ? await reserveForSend(sender.profile, send.totalBytes, now, { countsAsSend: true })
      : await reserveForGuest(
          { email: sender.email, client: sender.client, bytes: send.totalBytes, recipients: send.emailTo.length },
          now,
        );
  try {
    const live = livesFromStart({ sendAs: send.sendAs, mailNow: body.mailNow });
    const created = await createWithFreeSlug(
      {
        send,
        sender,
        region,
        lang: body.lang ?? 'en',
        reservation,
        live,
        hints: hintsOf(body.uploadBytesPerSecond),
        ...(body.downloadLimit !== undefined ? { downloadLimit: body.downloadLimit } : {}),
        review: body.review === true,
      },
      now,
    );
    if (sender.kind === 'user' && send.emailTo.length > 0) await rememberRecipients(sender.userId, send.emailTo, now);
    return created;
  } catch (err) {
    // Nothing was created: the reservation goes straight back.
    await releaseSend(reservation.storageOwner, reservation.reservedBytes, reservation.sendMonth ?? null).catch(
      () => undefined,
    );
    throw err;
  }
}

interface NewTransfer {
  readonly send: CheckedSend;
  readonly sender: Sender;
  readonly region: RegionId;
  readonly lang: string;
  readonly reservation: Reservation;
  /** shared at its start (live-transfers.ts): the link works, an email send's recipients are mailed now */
  readonly live: boolean;
  readonly hints: PartSizeHints;
  /** the send form's download limit (whole downloads, 1-100) */
  readonly downloadLimit?: number;
  /** review on (signed-in senders only) */
  readonly review: boolean;
}

/** The sender's measured speed, when it sent one, for the part size. */
const hintsOf = (bytesPerSecond: number | undefined): PartSizeHints =>
  bytesPerSecond === undefined ? {} : { bytesPerSecond };

/** The transfer record and its files under a fresh slug (a taken one is drawn again, 5 times at most). */
async function createWithFreeSlug(
  { send, sender, region, lang, reservation, live, hints, downloadLimit, review }: NewTransfer,
  now: number,
): Promise<CreateTransferResponse> {
  const uploadToken = newToken();
  const passwordHash = send.password ? await hashPassword(send.password) : undefined;
  const anon = sender.kind === 'guest';
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const slug = generateSlug();
    const files = await planFiles(
      { slug, region, anon, ...(send.e2e ? { e2e: send.e2e } : {}) },
      send.files,
      now,
      hints,
    );
    const record: TransferRecord = {
      slug,
      status: 'uploading',
      region,
      anon,
      sendAs: send.sendAs,
      ...(sender.kind === 'user' ? { senderId: sender.userId } : {}),
      senderEmail: send.senderEmail,
      ...(send.senderName ? { senderName: send.senderName } : {}),
      message: send.message,
      lang,
      recipients:
        send.sendAs === 'email' ? send.emailTo.map((r) => ({ ...r, recipientId: randomString(8, ALNUM) })) : [],
      shareWith: [...send.shareWith],
      ...(passwordHash ? { passwordHash } : {}),
      uploadTokenHash: hashToken(uploadToken),
      uploadTokenExpiresAt: now + RESUME_WINDOW_SECONDS * SECOND,
      fileCount: files.length,
      totalBytes: totalSize(files),
      createdAt: now,
      expirySeconds: send.expirySeconds,
      ...(send.customExpiryDate !== undefined ? { customExpiryDate: send.customExpiryDate } : {}),
      expiryDate: send.expiryDate,
      totalDownloads: 0,
      fileName: firstFileNameOf(files),
      // An upload nobody finishes is cleaned up by the sweep once it can no longer resume.
      sweepDueAt: now + RESUME_WINDOW_SECONDS * SECOND,
      ...(live ? { liveAt: now } : {}),
      ...(live && send.sendAs === 'email' ? { recipientsMailedAt: now } : {}),
      ...(send.verifiedRecipients
        ? { recipientAccess: send.verifiedRecipients.domain ? { domain: send.verifiedRecipients.domain } : {} }
        : {}),
      ...(send.e2e ? { e2e: send.e2e } : {}),
      ...(review ? { review: { enabled: true } } : {}),
      ...reservation,
    };
    if (!(await data.createTransfer(record, files))) continue;
    if (send.verifiedRecipients) {
      const newId = () => randomString(8, ALNUM);
      await seedAccessEntries(
        slug,
        initialAccessEntries(record.recipients, send.verifiedRecipients.addresses, newId, now),
      );
    }
    // the send form's download limit: whole downloads of the transfer (decision 0077)
    if (downloadLimit !== undefined) await setLimit(slug, TRANSFER_SCOPE, downloadLimit, 0);
    await mailAtStart(record, files);
    const expiresIn = urlLifetime(record, now);
    return {
      id: slug,
      uploadToken,
      region,
      sendAs: record.sendAs,
      link: downloadLink(slug, await linkOriginOf(record)),
      expiryDate: record.expiryDate,
      files: await plannedFiles(record, files, expiresIn),
    };
  }
  throw new Error('could not find a free slug in 5 tries');
}

/** The transfer behind an upload token; anything else is refused before touching storage. */
export async function requireUpload(
  slug: string,
  token: string | undefined,
  now = Date.now(),
): Promise<TransferRecord> {
  const t = await data.getTransfer(slug);
  if (!t || t.status === 'deleted') throw notFound('transfer_not_found', 'This transfer does not exist.');
  if (!token || !safeEqual(hashToken(token), t.uploadTokenHash)) {
    throw forbidden('invalid_upload_token', 'This upload key is not valid for this transfer.');
  }
  if (t.status === 'cancelled') throw gone('upload_cancelled', 'You aborted the upload.');
  if (t.status === 'expired' || now >= t.uploadTokenExpiresAt) {
    throw gone('upload_expired', 'This upload can no longer be resumed.');
  }
  return t;
}

export async function requireFile(t: TransferRecord, fileId: string): Promise<FileRecord> {
  const f = await data.getFile(t.slug, fileId);
  if (!f) throw notFound('file_not_found', 'This file is not part of the transfer.');
  return f;
}

/** A file whose parts are all in (being put together, or done) takes no more bytes. */
function refuseFinished(f: FileRecord): void {
  if (f.status === 'uploaded') throw conflict('file_already_uploaded', 'This file is already uploaded.');
  if (f.status === 'completing')
    throw conflict('file_completing', 'This file is being put together; ask its completion for the state.');
}

/** POST /transfers/{id}/sign: fresh URLs ("fresh key fetch"). */
export async function signUpload(t: TransferRecord, req: SignRequest, now = Date.now()): Promise<SignResponse> {
  const f = await requireFile(t, req.fileId);
  refuseFinished(f);
  const expiresIn = urlLifetime(t, now);
  const expiresAt = now + expiresIn * SECOND;
  if (f.mode === 'single') {
    if (req.partNumbers)
      throw badRequest('not_multipart', 'This file is uploaded in one piece; ask without partNumbers.');
    return { fileId: f.fileId, url: await storage.presignPut(refOf(t, f.key), f.size, expiresIn), expiresAt };
  }
  if (!req.partNumbers) throw badRequest('part_numbers_required', 'Say which parts to sign.');
  const parts = await Promise.all(
    [...new Set(req.partNumbers)].map(async (partNumber) => {
      if (partNumber > f.partCount!) throw badRequest('part_out_of_range', `This file has ${f.partCount} parts.`);
      const { start, end } = partRange(f.size, partNumber, f.partSize);
      return {
        partNumber,
        url: await storage.presignPart(refOf(t, f.key), f.uploadId!, partNumber, end - start, expiresIn),
      };
    }),
  );
  return { fileId: f.fileId, parts, expiresAt };
}

/** POST /transfers/{id}/sign with `fileIds`: fresh PUTs for several single files (those a create answer left without one); uploaded ones are left out. */
export async function signUploads(
  t: TransferRecord,
  req: SignManyRequest,
  now = Date.now(),
): Promise<SignManyResponse> {
  const expiresIn = urlLifetime(t, now);
  const files = await Promise.all([...new Set(req.fileIds)].map((id) => requireFile(t, id)));
  for (const f of files) {
    if (f.mode !== 'single')
      throw badRequest(
        'part_numbers_required',
        `${f.fileName} is uploaded in parts: sign its parts with fileId and partNumbers.`,
      );
  }
  // A file uploaded meanwhile (a completion the client did not hear of) is left out, not an error
  // for the whole batch: signed alone it answers file_already_uploaded.
  const open = files.filter((f) => f.status !== 'uploaded');
  return {
    files: await Promise.all(
      open.map(async (f) => ({ fileId: f.fileId, url: await storage.presignPut(refOf(t, f.key), f.size, expiresIn) })),
    ),
    expiresAt: now + expiresIn * SECOND,
  };
}

/**
 * POST /transfers/{id}/parts: finished parts (of one or more of the transfer's files), each
 * checked against its file's plan before any is written; all or none are refused. S3 does not
 * tell us which parts are in (and s3rver has no ListParts).
 */
export async function recordParts(t: TransferRecord, reqs: readonly RecordPartRequest[]): Promise<void> {
  const files = new Map<string, FileRecord>();
  const seen = new Set<string>();
  const parts: { fileId: string; part: PartRecord }[] = [];
  const at = Date.now();
  for (const req of reqs) {
    // one write per part: BatchWriteItem refuses a request naming the same item twice
    const id = `${req.fileId}#${req.partNumber}`;
    if (seen.has(id)) throw badRequest('duplicate_part', `Part ${req.partNumber} is listed twice.`);
    seen.add(id);
    let f = files.get(req.fileId);
    if (!f) {
      f = await requireFile(t, req.fileId);
      if (f.mode !== 'multipart') throw badRequest('not_multipart', 'This file is uploaded in one piece.');
      refuseFinished(f);
      files.set(req.fileId, f);
    }
    if (req.partNumber > f.partCount!) throw badRequest('part_out_of_range', `This file has ${f.partCount} parts.`);
    const { start, end } = partRange(f.size, req.partNumber, f.partSize);
    // Part sizes are ours to enforce: the emulator accepts any, S3 would fail only at completion.
    if (req.size !== end - start) {
      throw badRequest('part_size_mismatch', `Part ${req.partNumber} must be ${end - start} bytes, not ${req.size}.`);
    }
    parts.push({
      fileId: f.fileId,
      part: {
        partNumber: req.partNumber,
        etag: req.etag,
        size: req.size,
        ...(req.crc32 === undefined ? {} : { crc32: req.crc32 }),
        at,
      },
    });
  }
  await data.putParts(t.slug, parts);
}

/**
 * POST /transfers/{id}/complete: every file is in place. The first completion sends the
 * transfer (mail to recipients and the sender); after add-files it refreshes the totals.
 */
export async function completeTransfer(t: TransferRecord, now = Date.now()): Promise<CompleteResponse> {
  const files = await data.listFiles(t.slug);
  const pending = files.filter((f) => f.status !== 'uploaded');
  if (pending.length > 0) {
    throw new HttpError(409, 'files_pending', `${pending.length} file(s) have not finished uploading.`, {
      pending: pending.slice(0, 100).map((f) => f.fileId),
    });
  }
  // Presets run from the moment of sending, not from the start of a long upload.
  const expiryDate = t.expirySeconds === CUSTOM_DATE_MARKER ? t.expiryDate : expiryDateFor(t.expirySeconds, now);
  // A visitor's upload to a file request goes to the requester, not to recipients.
  if (t.requestId) return completeRequestUpload(t, files, expiryDate, now);
  const searchText = searchTextOf(
    files,
    t.recipients.map((r) => r.email),
  );
  // the transfer lists one file per version group; its bytes are every version stored
  const first = await data.markSent(t, {
    dateSent: now,
    expiryDate,
    fileCount: currentVersions(files).length,
    totalBytes: totalSize(files),
    searchText,
  });
  const sent: TransferRecord = first ? { ...t, status: 'ready', dateSent: now, expiryDate } : t;
  // the team mates it was shared with (and a member's admin) see it under 'shared'
  if (first) await shareOnSend(sent, now);
  let recipients = sent.recipients.map((r) => r.email);
  if (first && sent.sendAs === 'email') {
    await trySchedulingReminder(sent);
    const failed = await mailTransferSent(sent, files);
    recipients = recipients.filter((r) => !failed.includes(r));
  }
  // those who asked on the download page of a transfer shared while it uploaded
  if (first) await mailWatchersOnCompletion(sent, files);
  // a completion after a new version: its recipients are mailed only when the sender asked
  else await announceNewVersions(sent, files);
  const link = downloadLink(t.slug, await linkOriginOf(t));
  // once, on the first completion (publishEvent logs and never throws)
  if (first) {
    await publishEvent({
      type: 'transfer.created',
      userId: sent.senderId,
      at: now,
      data: {
        transferId: t.slug,
        link,
        sendAs: sent.sendAs,
        fileCount: files.length,
        totalBytes: totalSize(files),
        expiryDate: new Date(sent.expiryDate).toISOString(),
        recipients,
      },
    });
  }
  return { id: t.slug, state: 'complete', link, expiryDate: sent.expiryDate, recipients };
}

/** POST /transfers/{id}/cancel: aborts what is still uploading. A sent transfer keeps its sent files. */
export async function cancelUpload(t: TransferRecord): Promise<void> {
  const files = await data.listFiles(t.slug);
  // a file being put together is aborted too (a job that still finishes it finds the transfer cancelled)
  const pending = files.filter((f) => f.status !== 'uploaded');
  await Promise.all(
    pending.map((f) => (f.mode === 'multipart' ? storage.abortMultipart(refOf(t, f.key), f.uploadId!) : undefined)),
  );
  if (t.status === 'uploading') {
    await storage.deletePrefix(locOf(t), `t/${t.slug}/`);
    if (await data.setStatus(t.slug, 'cancelled', { from: ['uploading'] })) {
      await releaseTransfer(t, { unsent: true });
      // shared at its start: the download page now says withdrawn, and whoever knows of it is told
      await mailWithdrawn(t, files);
    }
    return;
  }
  await Promise.all(pending.map((f) => storage.deletePrefix(locOf(t), f.key)));
  await data.deleteFiles(
    t.slug,
    pending.map((f) => f.fileId),
  );
  await releaseBytes(t, totalSize(pending));
}

/** The signed-in owner of a transfer, or 403 / 404. */
export async function requireOwner(slug: string, userId: string): Promise<TransferRecord> {
  const t = await data.getTransfer(slug);
  if (!t || t.status === 'deleted' || t.status === 'cancelled')
    throw notFound('transfer_not_found', 'This transfer does not exist.');
  // a member's team admin manages the member's sends too (services/sharing.ts)
  if (!(await managesNow(t, userId))) throw forbidden('not_owner', 'Only the sender can change this transfer.');
  return t;
}

/**
 * the public API's upload routes: the API key's user owns the transfer (instead of
 * the upload token the browser holds), and it can still be uploaded to (the 7-day window).
 */
export async function requireOwnedUpload(slug: string, userId: string, now = Date.now()): Promise<TransferRecord> {
  const t = await requireOwner(slug, userId);
  if (t.status === 'expired' || now >= t.uploadTokenExpiresAt)
    throw gone('upload_expired', 'This upload can no longer be resumed.');
  return t;
}

/** PATCH /transfers/addFiles: new files for a sent transfer, checked against the plan with what is there. */
export async function addFiles(
  body: z.output<typeof addFilesRequestSchema>,
  sender: Extract<Sender, { kind: 'user' }>,
  now = Date.now(),
): Promise<CreateTransferResponse> {
  const t = await requireOwner(body.slug, sender.userId);
  if (t.status !== 'ready' || now >= t.expiryDate)
    throw gone('transfer_expired', 'This transfer has expired; files can no longer be added.');
  if (body.region && body.region !== t.region) {
    throw badRequest('region_mismatch', 'Files of a transfer stay in its storage region.');
  }
  const existing = await data.listFiles(t.slug);
  const checked = checkAddFiles(body.fileObjects, existing, sender.role);
  if (!checked.ok) throw addFilesRefusalError(checked.refusal);
  const kept = checked.files;
  await reserveMore(t, sender.profile, totalSize(kept), now);
  const files = await planFiles(t, kept, now, hintsOf(body.uploadBytesPerSecond));
  const uploadToken = newToken();
  const uploadTokenExpiresAt = Math.min(now + RESUME_WINDOW_SECONDS * SECOND, t.expiryDate);
  await data.addFiles(t.slug, files, hashToken(uploadToken), uploadTokenExpiresAt);
  const updated: TransferRecord = { ...t, uploadTokenExpiresAt };
  const expiresIn = urlLifetime(updated, now);
  return {
    id: t.slug,
    uploadToken,
    region: t.region,
    sendAs: t.sendAs,
    link: downloadLink(t.slug, await linkOriginOf(t)),
    expiryDate: t.expiryDate,
    files: await plannedFiles(updated, files, expiresIn),
  };
}

/** After a delete, the sweep makes sure once more that no object was left behind. */
export const DELETE_RECHECK_MS = 3600 * SECOND;

/** DELETE /transfers/{id} and POST /deleteTransfer: the owner removes it; the record stays so the link answers 404. */
export async function deleteTransfer(slug: string, userId: string): Promise<void> {
  const t = await requireOwner(slug, userId);
  const files = await data.listFiles(slug);
  await Promise.all(
    files
      .filter((f) => f.status === 'pending' && f.mode === 'multipart')
      .map((f) => storage.abortMultipart(refOf(t, f.key), f.uploadId!)),
  );
  // The record leaves the lists first: from then on the link answers 404 and no download
  // starts, and a second delete finds nothing to do.
  const was = await data.markDeleted(slug, Date.now() + DELETE_RECHECK_MS);
  if (was === undefined) throw notFound('transfer_not_found', 'This transfer does not exist.');
  await storage.deletePrefix(locOf(t), `t/${slug}/`);
  await storage.deletePrefix(locOf(t), `z/${slug}/`);
  await releaseTransfer(t, { unsent: was === 'uploading' });
  await deleteShares(slug);
  // a review's items go at the sweep's second look (services/expiry-sweep.ts): its routes answer 404 from now on
  log.info('transfer deleted', { slug });
}
