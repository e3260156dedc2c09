/**
 * File requests (contract: functions/domain/requests-api.ts). A signed-in user asks
 * for files with a public link `/r/{id}`; anyone with a verified address (the guest sender's
 * 5-digit code) uploads to it. A visitor's upload is a transfer owned by the requester: stored in
 * the requester's region, counted against the requester's storage (reserved atomically before
 * any URL is signed, services/limits.ts), never listed among the requester's sends. Rules of the
 * request (size, count, types) and the plan's caps are checked here, on the server.
 */
import { randomString } from '../domain/slug';
import {
  REQUEST_ID_LENGTH,
  REQUEST_UPLOADS_PAGE,
  REQUEST_UPLOAD_LIMITS,
  effectiveLimits,
  requestStateAt,
  rulesBeyondPlan,
  typeAllowed,
  type ListRequestsResponse,
  type PublicRequestResponse,
  type RequestDetailResponse,
  type RequestGoneDetails,
  type RequestRules,
  type RequestSummary,
  type RequestUpload,
  type startRequestUploadSchema,
  type updateRequestSchema,
  type createRequestSchema,
} from '../domain/requests-api';
import { fileEntriesOf, fileRuleViolations, totalSize } from '../domain/file-filters';
import { removedFileText } from '../domain/texts';
import { limitsFor, resolveRole } from '../domain/plans';
import { DEFAULT_EXPIRY_SECONDS, RESUME_WINDOW_SECONDS, expiryDateFor } from '../domain/expiry';
import type { CreateTransferResponse } from '../domain/transfer-api';
import { generateSlug } from '../domain/slug';
import * as requestsData from '../data/requests';
import type { RequestRecord, RequestUploadRecord } from '../data/requests';
import * as transfersData from '../data/transfers';
import type { TransferRecord } from '../data/transfers';
import { getProfile, releaseSend, type UserProfile } from '../data/users';
import * as storage from '../adapters/storage';
import { badRequest, forbidden, gone, notFound, problemsError, tooManyRequests } from '../lib/errors';
import { hitRateWindow } from '../data/verification';
import { publicBrandingOf } from './branding';
import { hashToken, newToken } from '../lib/secrets';
import { log } from '../lib/log';
import { mapLimited } from '../lib/concurrency';
import { reserveForSend, releaseTransfer, storageOwnerOf } from './limits';
import { uploadRegionFor } from './storage-region';
import { DELETE_RECHECK_MS, downloadLink, locOf, planFiles, plannedFiles, refOf, urlLifetime } from './transfers';
import { linkOriginFor, linkOriginOf } from './link-origin';
import type * as z from 'zod/mini';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SECOND = 1000;
/** Most requests GET /requests?userid= lists (newest first). */
export const REQUESTS_LIST_MAX = 500;

const NOT_FOUND = 'This request does not exist.';

/**
 * The origin of a requester's public request links: their storage owner's verified
 * custom domain (the team admin's for members) while the plan includes it, else APP_ORIGIN.
 */
async function requestOriginOf(
  profile: Pick<UserProfile, 'userId' | 'isTeamMember' | 'parentAdminId'> | undefined,
  userId: string,
): Promise<string> {
  return linkOriginFor(profile?.isTeamMember && profile.parentAdminId ? profile.parentAdminId : userId);
}

function summaryOf(r: RequestRecord, now: number, origin: string): RequestSummary {
  return {
    id: r.id,
    title: r.title,
    message: r.message,
    dueDate: r.dueDate,
    rules: r.rules,
    state: requestStateAt(r, now),
    createdAt: r.createdAt,
    uploadCount: r.uploadCount,
    totalBytes: r.totalBytes,
    lastUploadAt: r.lastUploadAt,
    link: `${origin}/r/${r.id}`,
  };
}

/** The plan a request's uploads count against: the storage owner's (the team admin for members). */
async function planOf(profile: UserProfile) {
  const owner = await storageOwnerOf(profile);
  return limitsFor(resolveRole({ customerRole: owner.role }));
}

function checkRules(rules: RequestRules, plan: { uploadLimit: number; files: number }): void {
  const beyond = rulesBeyondPlan(rules, plan);
  if (beyond.includes('maxBytes'))
    throw badRequest('rules_exceed_plan', 'The maximum size is larger than your plan allows.', {
      field: 'rules.maxBytes',
      limit: plan.uploadLimit,
    });
  if (beyond.includes('maxFiles'))
    throw badRequest('rules_exceed_plan', 'The maximum number of files is more than your plan allows.', {
      field: 'rules.maxFiles',
      limit: plan.files,
    });
}

function checkDueDate(dueDate: number | null | undefined, now: number): void {
  if (typeof dueDate === 'number' && dueDate <= now)
    throw badRequest('due_date_past', 'The due date must be in the future.');
}

/** POST /requests */
export async function createRequest(
  profile: UserProfile,
  input: z.output<typeof createRequestSchema>,
  now = Date.now(),
): Promise<RequestSummary> {
  checkRules(input.rules, await planOf(profile));
  checkDueDate(input.dueDate, now);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const record: RequestRecord = {
      id: randomString(REQUEST_ID_LENGTH, ALNUM),
      ownerId: profile.userId,
      title: input.title,
      message: input.message,
      dueDate: input.dueDate ?? null,
      rules: input.rules,
      closed: false,
      createdAt: now,
      updatedAt: now,
      uploadCount: 0,
      totalBytes: 0,
      lastUploadAt: null,
    };
    if (await requestsData.createRequest(record))
      return summaryOf(record, now, await requestOriginOf(profile, profile.userId));
  }
  throw new Error('could not find a free request id in 5 tries');
}

/** The caller's own request, else 404 (someone else's is not told apart from none). */
async function requireOwnRequest(id: string, userId: string): Promise<RequestRecord> {
  const r = await requestsData.getRequest(id);
  if (!r || r.ownerId !== userId) throw notFound('request_not_found', NOT_FOUND);
  return r;
}

/** GET /requests?userid= */
export async function listRequests(callerId: string, userid: string, now = Date.now()): Promise<ListRequestsResponse> {
  if (userid !== callerId) throw forbidden('not_your_requests', 'You can only list your own requests.');
  const [records, origin] = await Promise.all([
    requestsData.listUserRequests(callerId, REQUESTS_LIST_MAX),
    getProfile(callerId).then((p) => requestOriginOf(p, callerId)),
  ]);
  return { requests: records.map((r) => summaryOf(r, now, origin)) };
}

/** GET /requests?slug= */
export async function requestDetail(callerId: string, id: string, now = Date.now()): Promise<RequestDetailResponse> {
  const r = await requireOwnRequest(id, callerId);
  const [uploads, origin] = await Promise.all([
    requestsData.listUploads(id, REQUEST_UPLOADS_PAGE),
    getProfile(callerId).then((p) => requestOriginOf(p, callerId)),
  ]);
  return { request: summaryOf(r, now, origin), uploads: await mapLimited(uploads, 8, uploadView) };
}

async function uploadView(u: RequestUploadRecord): Promise<RequestUpload> {
  const files = (await transfersData.listFiles(u.slug)).filter((f) => f.status === 'uploaded');
  return {
    slug: u.slug,
    senderName: u.senderName,
    senderEmail: u.senderEmail,
    message: u.message,
    uploadedAt: u.uploadedAt,
    expiryDate: u.expiryDate,
    fileCount: u.fileCount,
    totalBytes: u.totalBytes,
    files: files.map((f) => ({
      fileId: f.fileId,
      fileName: f.fileName,
      ...(f.itemPath ? { itemPath: f.itemPath } : {}),
      size: f.size,
    })),
  };
}

/** PATCH /requests/{id}: close, reopen (a past due date must move or go), edit. */
export async function updateRequest(
  profile: UserProfile,
  id: string,
  edit: z.output<typeof updateRequestSchema>,
  now = Date.now(),
): Promise<RequestSummary> {
  const current = await requireOwnRequest(id, profile.userId);
  if (edit.rules) checkRules(edit.rules, await planOf(profile));
  checkDueDate(edit.dueDate, now);
  const dueAfter = edit.dueDate === undefined ? current.dueDate : edit.dueDate;
  if (edit.state === 'open' && dueAfter !== null && dueAfter <= now) {
    throw badRequest('due_date_past', 'The due date has passed: choose a new one or remove it to reopen the request.');
  }
  const updated = await requestsData.updateRequest(
    id,
    profile.userId,
    {
      ...(edit.state ? { closed: edit.state === 'closed' } : {}),
      ...(edit.title !== undefined ? { title: edit.title } : {}),
      ...(edit.message !== undefined ? { message: edit.message } : {}),
      ...(edit.dueDate !== undefined ? { dueDate: edit.dueDate } : {}),
      ...(edit.rules !== undefined ? { rules: edit.rules } : {}),
    },
    now,
  );
  if (!updated) throw notFound('request_not_found', NOT_FOUND);
  return summaryOf(updated, now, await requestOriginOf(profile, profile.userId));
}

/**
 * DELETE /requests/{id}/uploads/{slug}: the upload's objects go, its transfer is marked deleted
 * (its link answers 404), the requester's storage comes back and the request's counters drop.
 */
export async function deleteUpload(userId: string, id: string, slug: string): Promise<void> {
  await requireOwnRequest(id, userId);
  const t = await transfersData.getTransfer(slug);
  if (!t || t.requestId !== id || !(await requestsData.getUpload(id, slug)))
    throw notFound('upload_not_found', 'This upload does not exist.');
  const was = await transfersData.markDeleted(slug, Date.now() + DELETE_RECHECK_MS);
  await requestsData.removeUpload(id, slug);
  if (was === undefined) return;
  await storage.deletePrefix(locOf(t), `t/${slug}/`);
  await storage.deletePrefix(locOf(t), `z/${slug}/`);
  await releaseTransfer(t, { unsent: was === 'uploading' });
  log.info('request upload deleted', { requestId: id, slug });
}

function requesterNameOf(p: UserProfile | undefined): string {
  return p?.fullName || p?.company || p?.greetingName || '';
}

/** The request behind a public link, open now, with its requester; 404 / 410 otherwise. */
async function requireOpen(id: string, now: number): Promise<{ r: RequestRecord; requester: UserProfile }> {
  const r = await requestsData.getRequest(id);
  const requester = r ? await getProfile(r.ownerId) : undefined;
  if (!r || !requester) throw notFound('request_not_found', NOT_FOUND);
  const state = requestStateAt(r, now);
  if (state !== 'open') {
    const details: RequestGoneDetails = { state, title: r.title, requesterName: requesterNameOf(requester) };
    throw state === 'closed'
      ? gone('request_closed', 'This request is closed and no longer accepts files.', details)
      : gone('request_expired', 'This request has passed its due date and no longer accepts files.', details);
  }
  return { r, requester };
}

/** GET /r/{id}: only what the visitor's page shows (no address, no uploads, no counters). */
export async function publicRequest(id: string, now = Date.now()): Promise<PublicRequestResponse> {
  const { r, requester } = await requireOpen(id, now);
  const limits = effectiveLimits(r.rules, await planOf(requester));
  // the requester's storage owner's branding (checked images by their checked type).
  const branding = await publicBrandingOf(await storageOwnerOf(requester));
  return {
    id: r.id,
    title: r.title,
    message: r.message,
    requesterName: requesterNameOf(requester),
    logoUrl: branding.logoUrl,
    branding,
    dueDate: r.dueDate,
    rules: r.rules,
    maxBytes: limits.maxBytes,
    maxFiles: limits.maxFiles,
  };
}

/**
 * POST /r/{id}/uploads: the visitor's verified address, the request open, the rules and the
 * plan's caps, then the requester's storage reserved (conditional write) before anything is
 * signed; the upload is a transfer in the requester's region (same upload routes afterwards).
 */
export async function startUpload(
  id: string,
  verifiedEmail: string,
  client: string,
  input: z.output<typeof startRequestUploadSchema>,
  now = Date.now(),
): Promise<CreateTransferResponse> {
  if (input.senderEmail !== verifiedEmail)
    throw forbidden('sender_not_verified', 'Verify your email address before sending.');
  const { r, requester } = await requireOpen(id, now);
  const limits = effectiveLimits(r.rules, await planOf(requester));
  const entries = fileEntriesOf(input).map((e) => e.file);
  if (entries.length > limits.maxFiles) {
    throw badRequest('request_too_many_files', `This request accepts at most ${limits.maxFiles} files.`, {
      limit: limits.maxFiles,
    });
  }
  const bytes = totalSize(entries);
  if (bytes > limits.maxBytes)
    throw badRequest('request_too_large', 'These files are larger than this request accepts.', {
      limit: limits.maxBytes,
    });
  const wrongType = entries.find((f) => !typeAllowed(f.fileName, r.rules.allowedTypes));
  if (wrongType) {
    throw badRequest('request_file_type', `${wrongType.fileName}: this request does not accept this type of file.`, {
      fileName: wrongType.fileName,
      allowedTypes: r.rules.allowedTypes ?? [],
    });
  }
  // The visitor is not signed in: the guest rules of spec §5 apply to what they bring.
  const blocked = fileRuleViolations('anon', input)[0];
  if (blocked)
    throw problemsError([
      {
        code: 'file_not_allowed',
        field: `${blocked.field}.${blocked.index}`,
        message: removedFileText(blocked.file.fileName),
      },
    ]);
  for (const [scope, subject, limit] of [
    ['request-uploads-address', `${r.id}:${verifiedEmail}`, REQUEST_UPLOAD_LIMITS.perAddressAndRequest],
    ['request-uploads-client', client, REQUEST_UPLOAD_LIMITS.perClient],
  ] as const) {
    const hit = await hitRateWindow(scope, subject, limit, REQUEST_UPLOAD_LIMITS.windowSeconds, now);
    if (!hit.allowed)
      throw tooManyRequests(hit.retryAfterSeconds, 'Too many uploads to this request today. Try again later.');
  }
  const region = uploadRegionFor(requester);
  const reservation = await reserveForSend(requester, bytes, now, { countsAsSend: false });
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const slug = generateSlug();
      const files = await planFiles({ slug, region, anon: false }, entries, now);
      const uploadToken = newToken();
      const record: TransferRecord = {
        slug,
        status: 'uploading',
        region,
        anon: false,
        sendAs: 'link',
        senderEmail: verifiedEmail,
        senderName: input.senderName,
        message: input.message,
        lang: input.lang ?? 'en',
        recipients: [],
        shareWith: [],
        uploadTokenHash: hashToken(uploadToken),
        uploadTokenExpiresAt: now + RESUME_WINDOW_SECONDS * SECOND,
        fileCount: files.length,
        totalBytes: totalSize(files),
        createdAt: now,
        expirySeconds: DEFAULT_EXPIRY_SECONDS,
        expiryDate: expiryDateFor(DEFAULT_EXPIRY_SECONDS, now),
        totalDownloads: 0,
        sweepDueAt: now + RESUME_WINDOW_SECONDS * SECOND,
        requestId: r.id,
        ...reservation,
      };
      if (!(await transfersData.createTransfer(record, files))) {
        await Promise.all(
          files
            .filter((f) => f.uploadId)
            .map((f) => storage.abortMultipart(refOf(record, f.key), f.uploadId!).catch(() => undefined)),
        );
        continue;
      }
      const expiresIn = urlLifetime(record, now);
      return {
        id: slug,
        uploadToken,
        region,
        sendAs: 'link',
        // the requester's verified custom domain, as for their own sends
        link: downloadLink(slug, await linkOriginOf(record)),
        expiryDate: record.expiryDate,
        files: await plannedFiles(record, files, expiresIn),
      };
    }
    throw new Error('could not find a free slug in 5 tries');
  } catch (err) {
    // Nothing was created: the reservation goes straight back.
    await releaseSend(reservation.storageOwner, reservation.reservedBytes, null).catch(() => undefined);
    throw err;
  }
}
