/**
 * Reviews (functions/domain/review.ts, review-api.ts; docs/decisions/0079): recipients comment on
 * files, favourite them and approve or ask for changes behind the download page's own gate; the
 * sender reads every thread, answers, resolves and closes. Each recipient's activity reaches the
 * sender by the bell (one notification per burst), a webhook, and the batched review mail
 * (services/review-mail.ts sends it; this module queues it).
 */
import {
  COMMENTS_PER_REVIEWER,
  COMMENTS_PER_TRANSFER,
  REVIEW_MAIL_BATCH_MS,
  TRANSFER_SUBJECT,
  anchorKindFor,
  decisionCounts,
  normaliseAnchor,
  reviewSettingsState,
  reviewSummaryOf,
  reviewerKeyOf,
  reviewWritable,
  type ReviewAnchor,
  type ReviewAuthor,
  type ReviewComment,
  type ReviewDecision,
  type ReviewDecisionKind,
  type ReviewSettings,
  type ReviewSettingsState,
  type ReviewerKey,
} from '../domain/review';
import type { RecipientReviewView, ReviewFileView, SenderReviewView } from '../domain/review-api';
import type { ReviewEventAuthor } from '../domain/webhooks-api';
import { RECIPIENT_SESSION_HOURS, type AccessSessionResponse } from '../domain/recipient-access';
import { previewRuleOf } from '../domain/previews';
import { firstFileNameOf } from '../domain/transfer-search';
import * as data from '../data/reviews';
import { listFiles, getTransfer, type FileRecord, type TransferRecord } from '../data/transfers';
import { getRecipientSession, putRecipientSession } from '../data/recipient-access';
import { eventIdAt, putReviewNotification, updateReviewNotification } from '../data/notifications';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../lib/errors';
import { hashToken, newToken } from '../lib/secrets';
import { errorFields, log } from '../lib/log';
import { openLink, type Viewer } from './downloads';
import {
  CODES_PER_TRANSFER,
  assertRecipientAccess,
  sendRecipientCode,
  verifiedAddressOf,
  verifyRecipientCode,
} from './recipient-access';
import { checkEmailCode, limitRate, sendEmailCode } from './email-codes';
import { managesNow } from './sharing';
import { publishEvent } from './events';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/u;

export const REVIEW_TEXTS = {
  off: 'This transfer has no review.',
  closed: 'This review is closed: it can be read but no longer changed.',
  reviewerRequired: 'Say who you are first: verify your address, or type your name.',
  sessionEnded: 'Your verification has ended. Verify your address again.',
  noFile: 'This file is not part of the transfer.',
  noThread: 'There is no such thread on this file.',
  anchor: 'This kind of anchor does not fit this file.',
  replyAnchor: 'A reply takes no anchor: it is on its thread.',
  full: 'This review holds as many comments as it can.',
  rate: 'Too many comments. Try again in {minutes} minutes.',
} as const;

/** A link visitor as the write names them (review-api.ts visitorSchema). */
export interface VisitorIdentity {
  readonly visitorId: string;
  readonly name: string;
}

/** The body fields every recipient route carries beside the gate's. */
export interface ReviewCaller {
  readonly access?: string | undefined;
  readonly visitor?: VisitorIdentity | undefined;
}

interface Reviewer {
  readonly key: ReviewerKey;
  readonly author: Exclude<ReviewAuthor, { kind: 'sender' }>;
}

const expiredAt = (t: Pick<TransferRecord, 'expiryDate'>, now: number) => now >= t.expiryDate;

export function settingsOf(
  t: Pick<TransferRecord, 'review' | 'expiryDate'>,
  now: number,
): ReviewSettingsState | undefined {
  return t.review?.enabled ? reviewSettingsState(t.review, expiredAt(t, now)) : undefined;
}

/** The review's files: the uploaded ones, each with its preview kind (a file is its own first version). */
export function reviewFilesOf(files: readonly FileRecord[]): ReviewFileView[] {
  return files
    .filter((f) => f.status === 'uploaded')
    .map((f) => ({
      fileId: f.fileId,
      fileName: f.fileName,
      previewKind: previewRuleOf(f).kind,
      version: 1,
      versionFileIds: [f.fileId],
    }));
}

function assertOn(t: TransferRecord): asserts t is TransferRecord & { review: ReviewSettings } {
  if (!t.review?.enabled) throw conflict('review_off', REVIEW_TEXTS.off);
}

function assertWritable(t: TransferRecord, now: number): void {
  assertOn(t);
  if (!reviewWritable(t.review, expiredAt(t, now))) throw conflict('review_closed', REVIEW_TEXTS.closed);
}

// ---- recipients ---------------------------------------------------------------------------------

/**
 * The download page's gate (link, password, personal link, verified session) for a review: an
 * expired transfer whose files are still kept passes, read only.
 */
export async function openReview(slug: string, viewer: Viewer, now = Date.now()): Promise<TransferRecord> {
  const t = await openLink(slug, viewer, now, { allowExpired: true });
  await assertRecipientAccess(t, viewer, now);
  assertOn(t);
  return t;
}

/**
 * The link's own gate for the code routes: on a transfer with verified recipients the code is
 * how a session is earned, so no session is asked for yet (the access list decides who gets one).
 */
export async function openReviewLink(slug: string, viewer: Viewer, now = Date.now()): Promise<TransferRecord> {
  const t = await openLink(slug, viewer, now, { allowExpired: true });
  assertOn(t);
  return t;
}

/** The address a verified session proves for this transfer, or undefined (no session, another transfer's, ended). */
async function sessionAddress(t: TransferRecord, viewer: Viewer, now: number): Promise<string | undefined> {
  // on a transfer with verified recipients the gate checked the session against the live list already
  const gated = verifiedAddressOf(viewer);
  if (gated) return gated;
  if (!viewer.access || !TOKEN_PATTERN.test(viewer.access)) return undefined;
  const s = await getRecipientSession(hashToken(viewer.access), now);
  return s && s.slug === t.slug ? s.email : undefined;
}

/** Who writes: a verified session's address, else the visitor's typed name; 401 reviewer_required with neither. */
async function reviewerOf(t: TransferRecord, viewer: Viewer, caller: ReviewCaller, now: number): Promise<Reviewer> {
  if (caller.access) {
    const email = await sessionAddress(t, viewer, now);
    if (!email) throw new HttpError(401, 'reviewer_required', REVIEW_TEXTS.sessionEnded);
    return { key: reviewerKeyOf({ email }), author: { kind: 'verified', email } };
  }
  if (caller.visitor) {
    return {
      key: reviewerKeyOf({ visitorId: caller.visitor.visitorId }),
      author: { kind: 'visitor', name: caller.visitor.name },
    };
  }
  throw new HttpError(401, 'reviewer_required', REVIEW_TEXTS.reviewerRequired);
}

/** POST /getDownload/review */
export async function recipientReview(
  slug: string,
  viewer: Viewer,
  visitorId: string | undefined,
  now = Date.now(),
): Promise<RecipientReviewView> {
  const t = await openReview(slug, viewer, now);
  const [files, items, email] = await Promise.all([
    listFiles(slug),
    data.listReviewItems(slug),
    sessionAddress(t, viewer, now),
  ]);
  const me: ReviewerKey | undefined = email
    ? reviewerKeyOf({ email })
    : visitorId
      ? reviewerKeyOf({ visitorId })
      : undefined;
  return {
    settings: settingsOf(t, now)!,
    files: reviewFilesOf(files),
    comments: items.comments,
    favourites: me ? items.favourites.filter((f) => f.reviewer === me).map((f) => f.fileId) : [],
    decisions: me ? items.decisions.filter((d) => d.reviewer === me) : [],
    you: email ? { kind: 'verified', email } : null,
  };
}

/**
 * POST /getDownload/review/code: a code mailed to the address. On a transfer with verified
 * recipients only to an address the access list allows (its own flow, its limits); otherwise to
 * any address, within the code flows' limits per address and client and per transfer.
 */
export async function sendReviewCode(
  t: TransferRecord,
  email: string,
  recipient: string | undefined,
  lang: string | undefined,
  sourceIp: string,
  now = Date.now(),
): Promise<{ expiresAt: number }> {
  if (expiredAt(t, now)) throw conflict('review_closed', REVIEW_TEXTS.closed);
  if (t.recipientAccess) return sendRecipientCode(t, email, recipient, lang, sourceIp, now);
  await limitRate(
    [['review-code-transfer', t.slug, CODES_PER_TRANSFER]],
    'Too many codes requested. Try again in {minutes} minutes.',
    now,
  );
  return sendEmailCode('recipient', email, lang ?? t.lang, sourceIp, now);
}

/** POST /getDownload/review/verify: a right code opens the same recipient session as /getDownload/access/verify. */
export async function verifyReviewCode(
  t: TransferRecord,
  email: string,
  code: string,
  recipient: string | undefined,
  sourceIp: string,
  now = Date.now(),
): Promise<AccessSessionResponse> {
  if (expiredAt(t, now)) throw conflict('review_closed', REVIEW_TEXTS.closed);
  if (t.recipientAccess) return verifyRecipientCode(t, email, code, recipient, sourceIp, now);
  await checkEmailCode('recipient', email, code, sourceIp, now);
  const token = newToken();
  const expiresAt = Math.min(now + RECIPIENT_SESSION_HOURS * 3_600_000, t.expiryDate);
  await putRecipientSession(hashToken(token), { slug: t.slug, email, expiresAt }, now);
  return { access: token, email, expiresAt };
}

function fileOf(files: readonly FileRecord[], fileId: string): FileRecord {
  const f = files.find((x) => x.fileId === fileId && x.status === 'uploaded');
  if (!f) throw notFound('not_found', REVIEW_TEXTS.noFile);
  return f;
}

/** A new thread's anchor must fit the file's preview kind; a reply's thread must be a thread of this file. */
async function placeComment(
  slug: string,
  file: FileRecord,
  parentId: string | undefined,
  anchor: ReviewAnchor | undefined,
): Promise<ReviewAnchor | undefined> {
  if (parentId !== undefined) {
    if (anchor) throw badRequest('invalid_anchor', REVIEW_TEXTS.replyAnchor);
    const parent = await data.getComment(slug, parentId);
    if (!parent || parent.parentId !== undefined || parent.fileId !== file.fileId)
      throw notFound('not_found', REVIEW_TEXTS.noThread);
    return undefined;
  }
  if (!anchor) return undefined;
  if (anchorKindFor(previewRuleOf(file).kind) !== anchor.kind) throw badRequest('invalid_anchor', REVIEW_TEXTS.anchor);
  return normaliseAnchor(anchor);
}

async function writeComment(
  t: TransferRecord,
  c: Omit<ReviewComment, 'commentId' | 'createdAt' | 'version'>,
  now: number,
): Promise<ReviewComment> {
  const comment: ReviewComment = { commentId: eventIdAt(now), version: 1, createdAt: now, ...c };
  const refused = await data.putComment(t.slug, comment, { unread: c.author.kind !== 'sender' });
  if (refused === 'full') throw conflict('review_full', REVIEW_TEXTS.full);
  return comment;
}

function eventAuthor(a: Reviewer['author']): ReviewEventAuthor {
  return a.kind === 'verified' ? { kind: 'verified', email: a.email } : { kind: 'visitor', name: a.name };
}

export interface RecipientCommentInput extends ReviewCaller {
  readonly fileId: string;
  readonly parentId?: string | undefined;
  readonly anchor?: ReviewAnchor | undefined;
  readonly body: string;
}

/** POST /getDownload/review/comment */
export async function recipientComment(
  slug: string,
  viewer: Viewer,
  input: RecipientCommentInput,
  now = Date.now(),
): Promise<ReviewComment> {
  const t = await openReview(slug, viewer, now);
  assertWritable(t, now);
  const reviewer = await reviewerOf(t, viewer, input, now);
  await limitRate(
    [
      ['review-comment', `${slug}|${reviewer.key}`, COMMENTS_PER_REVIEWER],
      ['review-comment-transfer', slug, COMMENTS_PER_TRANSFER],
    ],
    REVIEW_TEXTS.rate,
    now,
  );
  const file = fileOf(await listFiles(slug), input.fileId);
  const anchor = await placeComment(slug, file, input.parentId, input.anchor);
  const comment = await writeComment(
    t,
    {
      fileId: file.fileId,
      ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
      author: reviewer.author,
      body: input.body,
      ...(anchor ? { anchor } : {}),
    },
    now,
  );
  await Promise.all([
    publishEvent({
      type: 'review.commented',
      userId: t.senderId,
      at: now,
      data: {
        transferId: slug,
        fileId: file.fileId,
        fileName: file.fileName,
        commentId: comment.commentId,
        ...(comment.parentId ? { parentId: comment.parentId } : {}),
        author: eventAuthor(reviewer.author),
        body: comment.body,
        ...(comment.anchor ? { anchor: comment.anchor } : {}),
        createdAt: new Date(now).toISOString(),
      },
    }),
    tellSender(t, { comments: 1, approvals: 0, changesRequested: 0 }, now),
  ]);
  return comment;
}

/** POST /getDownload/review/favourite */
export async function recipientFavourite(
  slug: string,
  viewer: Viewer,
  input: ReviewCaller & { fileId: string; favourite: boolean },
  now = Date.now(),
): Promise<{ fileId: string; favourite: boolean }> {
  const t = await openReview(slug, viewer, now);
  assertWritable(t, now);
  const reviewer = await reviewerOf(t, viewer, input, now);
  await limitRate([['review-write', `${slug}|${reviewer.key}`, COMMENTS_PER_REVIEWER]], REVIEW_TEXTS.rate, now);
  const file = fileOf(await listFiles(slug), input.fileId);
  const name = reviewer.author.kind === 'verified' ? reviewer.author.email : reviewer.author.name;
  await data.setFavourite(slug, { fileId: file.fileId, reviewer: reviewer.key, name }, input.favourite);
  return { fileId: file.fileId, favourite: input.favourite };
}

/** POST /getDownload/review/decision */
export async function recipientDecision(
  slug: string,
  viewer: Viewer,
  input: ReviewCaller & { subject: string; decision: ReviewDecisionKind; note?: string | undefined },
  now = Date.now(),
): Promise<ReviewDecision> {
  const t = await openReview(slug, viewer, now);
  assertWritable(t, now);
  const reviewer = await reviewerOf(t, viewer, input, now);
  await limitRate([['review-write', `${slug}|${reviewer.key}`, COMMENTS_PER_REVIEWER]], REVIEW_TEXTS.rate, now);
  const file = input.subject === TRANSFER_SUBJECT ? undefined : fileOf(await listFiles(slug), input.subject);
  const decision: ReviewDecision = {
    subject: file ? file.fileId : TRANSFER_SUBJECT,
    reviewer: reviewer.key,
    author: reviewer.author,
    decision: input.decision,
    version: file ? 1 : 0,
    ...(input.note !== undefined ? { note: input.note } : {}),
    at: now,
  };
  await data.putDecision(slug, decision);
  await data.setDecisionCounts(slug, decisionCounts(await data.listDecisions(slug)));
  const approved = decision.decision === 'approved';
  await Promise.all([
    approved
      ? publishEvent({
          type: 'review.approved',
          userId: t.senderId,
          at: now,
          data: {
            transferId: slug,
            subject: decision.subject,
            fileName: file?.fileName ?? null,
            version: decision.version,
            author: eventAuthor(reviewer.author),
            ...(decision.note !== undefined ? { note: decision.note } : {}),
            approvedAt: new Date(now).toISOString(),
          },
        })
      : decision.note !== undefined
        ? publishEvent({
            type: 'review.commented',
            userId: t.senderId,
            at: now,
            data: {
              transferId: slug,
              fileId: file?.fileId ?? null,
              fileName: file?.fileName ?? null,
              commentId: null,
              author: eventAuthor(reviewer.author),
              body: decision.note,
              decision: 'changes_requested',
              createdAt: new Date(now).toISOString(),
            },
          })
        : undefined,
    tellSender(t, { comments: 0, approvals: approved ? 1 : 0, changesRequested: approved ? 0 : 1 }, now),
  ]);
  return decision;
}

/**
 * Queues the activity for the next review mail (due a batch window after the last one at the
 * earliest) and keeps the burst's bell notification up to date: one per burst, created by its
 * first activity. Never fails the write that caused it (logged).
 */
async function tellSender(t: TransferRecord, activity: data.PendingActivity, now: number): Promise<void> {
  if (!t.senderId) return;
  try {
    const before = await data.getMailMarker(t.slug);
    const dueAt = Math.max(now, before.lastMailAt + REVIEW_MAIL_BATCH_MS);
    const marker = await data.notePending(t.slug, activity, dueAt, now);
    const notice = {
      comments: marker.comments,
      approvals: marker.approvals,
      changesRequested: marker.changesRequested,
    };
    const title = t.fileName ?? firstFileNameOf(await listFiles(t.slug));
    if (marker.notifyId && (await updateReviewNotification(t.senderId, marker.notifyId, notice, now))) return;
    // the burst's first activity (or its notification was deleted): a new one; a racing first write may leave two
    const id = await putReviewNotification(t.senderId, now, t.slug, title, notice);
    await data.setMarkerNotification(t.slug, id, marker.notifyId);
  } catch (err) {
    log.error('review activity not queued for the sender', { slug: t.slug, ...errorFields(err) });
  }
}

// ---- the sender ---------------------------------------------------------------------------------

/** The transfer of a signed-in manager (its sender, or the team admin over a member's send); 404 / 403 otherwise. */
async function ownedTransfer(slug: string, userId: string): Promise<TransferRecord> {
  const t = await getTransfer(slug);
  if (!t || t.status === 'deleted' || t.status === 'cancelled')
    throw notFound('transfer_not_found', 'This transfer does not exist.');
  if (!(await managesNow(t, userId))) throw forbidden('not_owner', 'Only the sender can change this transfer.');
  return t;
}

/** GET /transfers/{id}/review: works after expiry too (read only) until the files are purged. */
export async function senderReview(slug: string, userId: string, now = Date.now()): Promise<SenderReviewView> {
  const t = await ownedTransfer(slug, userId);
  assertOn(t);
  const [files, items] = await Promise.all([listFiles(slug), data.listReviewItems(slug)]);
  const favourites: Record<string, string[]> = {};
  for (const f of items.favourites) favourites[f.fileId] = [...(favourites[f.fileId] ?? []), f.name];
  return {
    settings: settingsOf(t, now)!,
    files: reviewFilesOf(files),
    comments: items.comments,
    decisions: items.decisions,
    favourites,
    readAt: t.reviewReadAt ?? 0,
    summary: reviewSummaryOf(t),
  };
}

/** PATCH /transfers/{id}/review: turn the review on or off, close or re-open it (not once the transfer expired). */
export async function changeReviewSettings(
  slug: string,
  userId: string,
  body: { enabled?: boolean | undefined; closed?: boolean | undefined },
  now = Date.now(),
): Promise<ReviewSettingsState> {
  const t = await ownedTransfer(slug, userId);
  if (expiredAt(t, now) || t.status === 'expired') throw conflict('review_closed', REVIEW_TEXTS.closed);
  const was: ReviewSettings = t.review ?? { enabled: false };
  const closedAt = body.closed === undefined ? was.closedAt : body.closed ? (was.closedAt ?? now) : undefined;
  const next: ReviewSettings = {
    enabled: body.enabled ?? was.enabled,
    ...(closedAt !== undefined ? { closedAt } : {}),
  };
  if (!(await data.setReviewSettings(slug, next)))
    throw notFound('transfer_not_found', 'This transfer does not exist.');
  return reviewSettingsState(next, false);
}

/** POST /transfers/{id}/review/comments: the sender's reply (or a thread of their own). */
export async function senderComment(
  slug: string,
  userId: string,
  input: { fileId: string; parentId?: string | undefined; anchor?: ReviewAnchor | undefined; body: string },
  now = Date.now(),
): Promise<ReviewComment> {
  const t = await ownedTransfer(slug, userId);
  assertWritable(t, now);
  const file = fileOf(await listFiles(slug), input.fileId);
  const anchor = await placeComment(slug, file, input.parentId, input.anchor);
  return writeComment(
    t,
    {
      fileId: file.fileId,
      ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
      author: { kind: 'sender' },
      body: input.body,
      ...(anchor ? { anchor } : {}),
    },
    now,
  );
}

/** POST /transfers/{id}/review/threads/{commentId}: resolve or re-open a thread. */
export async function resolveThread(
  slug: string,
  userId: string,
  commentId: string,
  resolved: boolean,
  now = Date.now(),
): Promise<ReviewComment> {
  const t = await ownedTransfer(slug, userId);
  assertWritable(t, now);
  if (!(await data.setResolved(slug, commentId, resolved ? now : undefined)))
    throw notFound('not_found', REVIEW_TEXTS.noThread);
  const c = await data.getComment(slug, commentId);
  if (!c) throw notFound('not_found', REVIEW_TEXTS.noThread);
  return c;
}

/** POST /transfers/{id}/review/read: every comment so far counts as seen. */
export async function markRead(slug: string, userId: string, now = Date.now()): Promise<void> {
  const t = await ownedTransfer(slug, userId);
  assertOn(t);
  await data.markReviewRead(slug, now);
}
