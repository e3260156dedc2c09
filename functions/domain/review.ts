/**
 * Reviews: recipients of a transfer with review on comment on its files (pinned to a point of an
 * image, at a time of a video or audio file, on a page of a PDF), favourite files, and approve a
 * file or the whole transfer or ask for changes; the sender answers in the same threads, resolves
 * them, and is told of new activity (bell, one batched mail per transfer per 10 minutes, the
 * `review.commented` / `review.approved` webhooks). No zod here: the download page's chunks read
 * these types and rules (the request schemas are in review-api.ts).
 *
 * Identity: a comment's author is a verified address (the 5-digit code mailed to it, the same
 * recipient session as verified recipients), a name typed by a link visitor (shown as
 * unverified, tied to a random visitor id the browser keeps), or the sender.
 */

/** Plain text, rendered as text (never HTML); trimmed, 1 to 2,000 characters. */
export const COMMENT_MAX_CHARS = 2000;
/** A link visitor's typed name: 1 to 80 characters after trimming. */
export const VISITOR_NAME_MAX_CHARS = 80;
/** Comments one reviewer (address or visitor id) may post to one transfer per window. */
export const COMMENTS_PER_REVIEWER = { limit: 30, windowSeconds: 600 } as const;
/** Comments from every reviewer together on one transfer per hour (a flood from fresh visitor ids). */
export const COMMENTS_PER_TRANSFER = { limit: 600, windowSeconds: 3600 } as const;
/** At most one review mail to the sender per transfer in this window; the activity in between is batched. */
export const REVIEW_MAIL_BATCH_MS = 10 * 60 * 1000;
/** Comments on one transfer (threads and replies together) beyond which new ones are refused (409 review_full). */
export const REVIEW_MAX_COMMENTS = 5000;
/** The browser's visitor id: 22 base64url characters (128 random bits). */
export const VISITOR_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/u;

/** Where a comment points; files of other kinds (and any file, when no point is needed) take none. */
export type ReviewAnchor =
  /** on an image: the point as fractions of its width and height (0..1, top left is 0,0) */
  | { readonly kind: 'point'; readonly x: number; readonly y: number }
  /** on a video or audio file: seconds from its start (0 or more, at most 3 decimals) */
  | { readonly kind: 'time'; readonly seconds: number }
  /** on a PDF: its page, from 1 */
  | { readonly kind: 'page'; readonly page: number };

export type ReviewAuthor =
  | { readonly kind: 'verified'; readonly email: string }
  /** unverified: anyone holding the link could type this name */
  | { readonly kind: 'visitor'; readonly name: string }
  | { readonly kind: 'sender' };

/**
 * Who a favourite or a decision belongs to: `email:<address>` for a verified reviewer,
 * `visitor:<visitorId>` for a link visitor. One decision per reviewer and subject.
 */
export type ReviewerKey = `email:${string}` | `visitor:${string}`;

export function reviewerKeyOf(r: { readonly email: string } | { readonly visitorId: string }): ReviewerKey {
  return 'email' in r ? `email:${r.email.toLowerCase()}` : `visitor:${r.visitorId}`;
}

export interface ReviewComment {
  readonly commentId: string;
  /** the file the thread is on: the first version's file id (a new version keeps its thread) */
  readonly fileId: string;
  /** the version of the file the comment was written on (1 for the original) */
  readonly version: number;
  /** a reply's thread (the first comment's id); absent on a thread's first comment */
  readonly parentId?: string;
  readonly author: ReviewAuthor;
  readonly body: string;
  /** only on a thread's first comment */
  readonly anchor?: ReviewAnchor;
  /** epoch ms */
  readonly createdAt: number;
  /** a thread's first comment: when the sender resolved it (absent when open or re-opened) */
  readonly resolvedAt?: number;
}

export type ReviewDecisionKind = 'approved' | 'changes_requested';

export interface ReviewDecision {
  /** a file's id (first version), or `transfer` for the whole transfer */
  readonly subject: string;
  readonly reviewer: ReviewerKey;
  /** how the reviewer is shown (their verified address or typed name) */
  readonly author: Exclude<ReviewAuthor, { kind: 'sender' }>;
  readonly decision: ReviewDecisionKind;
  /** the file's version decided on (files); 0 for the transfer */
  readonly version: number;
  /** an optional note (plain text, up to COMMENT_MAX_CHARS) */
  readonly note?: string;
  /** epoch ms */
  readonly at: number;
}

/** The review of a transfer as the transfer record holds it. */
export interface ReviewSettings {
  readonly enabled: boolean;
  /** epoch ms: the sender closed it (read only for everyone; re-opening clears it) */
  readonly closedAt?: number;
}

/** The dashboard list's line for a transfer with review on. */
export interface ReviewSummary {
  /** files (and the transfer) with at least one approval and no request for changes after it, per reviewer counted once */
  readonly approved: number;
  readonly changesRequested: number;
  /** comments by recipients the sender has not opened yet */
  readonly unread: number;
  /** the whole transfer approved by at least one reviewer (and no later request for changes by them) */
  readonly transferApproved: boolean;
  readonly closed: boolean;
}

/** A review is read only once closed, and for everyone but the sender once the transfer expired. */
export function reviewWritable(s: ReviewSettings | undefined, transferExpired: boolean): boolean {
  return s?.enabled === true && s.closedAt === undefined && !transferExpired;
}

/** Which anchor a file's preview kind takes (domain/previews.ts PreviewKind); null: no anchor. */
export function anchorKindFor(previewKind: string): ReviewAnchor['kind'] | null {
  if (previewKind === 'image') return 'point';
  if (previewKind === 'video' || previewKind === 'audio') return 'time';
  if (previewKind === 'pdf') return 'page';
  return null;
}

/** "0:05", "1:02:03": a time anchor as the review shows it (and the CSV export writes it). */
export function formatTimecode(seconds: number): string {
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The review's settings as answers carry them (review-api.ts ReviewSettingsView has the same shape). */
export interface ReviewSettingsState extends ReviewSettings {
  /** whether recipients may still write (on, not closed, transfer not expired) */
  readonly writable: boolean;
}

export function reviewSettingsState(s: ReviewSettings, transferExpired: boolean): ReviewSettingsState {
  return {
    enabled: s.enabled,
    ...(s.closedAt !== undefined ? { closedAt: s.closedAt } : {}),
    writable: reviewWritable(s, transferExpired),
  };
}

/** The subject a decision on the whole transfer names. */
export const TRANSFER_SUBJECT = 'transfer';

/**
 * The dashboard's counts from every reviewer's latest decision per subject: a subject counts as
 * approved when at least one reviewer's latest word on it is an approval, and as changes asked
 * when at least one reviewer's latest word is a request for changes (a subject can be both).
 */
export function decisionCounts(
  decisions: readonly Pick<ReviewDecision, 'subject' | 'decision'>[],
): Pick<ReviewSummary, 'approved' | 'changesRequested' | 'transferApproved'> {
  const approved = new Set<string>();
  const changes = new Set<string>();
  for (const d of decisions) (d.decision === 'approved' ? approved : changes).add(d.subject);
  return { approved: approved.size, changesRequested: changes.size, transferApproved: approved.has(TRANSFER_SUBJECT) };
}

/** A time anchor keeps at most 3 decimals (milliseconds). */
export function normaliseAnchor(a: ReviewAnchor): ReviewAnchor {
  return a.kind === 'time' ? { kind: 'time', seconds: Math.round(a.seconds * 1000) / 1000 } : a;
}

/** Where the review mail sends the sender: the dashboard, opening that transfer's review (the sender's screens read `review`). */
export function senderReviewPath(slug: string): string {
  return `/dash?review=${encodeURIComponent(slug)}`;
}

/** The 400 review_needs_account of a guest's create with review on. */
export const REVIEW_NEEDS_ACCOUNT_TEXT = 'Review needs an account: sign in to send a transfer for review.';

/** The counters a transfer record keeps for its review (data/reviews.ts ReviewCounters). */
export interface ReviewCountersOf {
  readonly review?: ReviewSettings;
  readonly reviewApproved?: number;
  readonly reviewChangesRequested?: number;
  readonly reviewUnread?: number;
  readonly reviewTransferApproved?: boolean;
}

/** The dashboard's line, from what the transfer record holds (no review item is read). */
export function reviewSummaryOf(t: ReviewCountersOf): ReviewSummary {
  return {
    approved: t.reviewApproved ?? 0,
    changesRequested: t.reviewChangesRequested ?? 0,
    unread: t.reviewUnread ?? 0,
    transferApproved: t.reviewTransferApproved === true,
    closed: t.review?.closedAt !== undefined,
  };
}
