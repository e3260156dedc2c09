/**
 * The review routes' bodies and answers (domain/review.ts has the rules and records).
 *
 * Recipients (auth none, the download page's gate: link id, password, personal link, verified
 * session; `owns: { record: 'transfer', by: 'link-password' }`):
 *   POST /getDownload/review            the review as a recipient sees it      -> RecipientReviewView
 *   POST /getDownload/review/code       mail a 5-digit code to an address      -> 202
 *   POST /getDownload/review/verify     a right code: a recipient session      -> { access, email, expiresAt }
 *   POST /getDownload/review/comment    a thread, or a reply in one             -> 201 { comment }
 *   POST /getDownload/review/favourite  (un)favourite a file                   -> 200 { fileId, favourite }
 *   POST /getDownload/review/decision   approve / ask for changes              -> 200 { decision }
 * A write carries either `access` (a verified session: the author is that address) or `visitor`
 * (a visitor id and a typed name: unverified); neither is 401 reviewer_required.
 *
 * The sender (auth jwt, `owns: { record: 'transfer', by: 'owner' }`):
 *   GET   /transfers/{id}/review                       threads, decisions, favourites  -> SenderReviewView
 *   PATCH /transfers/{id}/review                       { enabled?, closed? }           -> 200 ReviewSettingsView
 *   POST  /transfers/{id}/review/comments              a reply (or a thread) as sender -> 201 { comment }
 *   POST  /transfers/{id}/review/threads/{commentId}   { resolved }                    -> 200 { comment }
 *   POST  /transfers/{id}/review/read                  every comment so far seen       -> 204
 *
 * Errors (stable codes): 404 not_found (no such transfer, file or thread), 409 review_off (the
 * transfer has no review), 409 review_closed (closed, or the transfer expired: read only),
 * 401 reviewer_required, 429 rate_limited, 409 review_full, 400 invalid_* from the schemas
 * (an anchor of the wrong kind for the file is 400 invalid_anchor).
 */
import * as z from 'zod/mini';
import { PASSWORD_MAX_LENGTH } from './input-rules';
import { fileIdSchema, recipientIdSchema, tokenSchema, transferIdSchema } from './transfer-api';
import { emailSchema, guestCodeSchema } from './validation';
import {
  COMMENT_MAX_CHARS,
  VISITOR_ID_PATTERN,
  VISITOR_NAME_MAX_CHARS,
  type ReviewComment,
  type ReviewDecision,
  type ReviewSettings,
  type ReviewSummary,
} from './review';

const gate = {
  id: transferIdSchema,
  password: z.optional(z.string().check(z.maxLength(PASSWORD_MAX_LENGTH))),
  recipient: z.optional(recipientIdSchema),
  /** a verified recipient's session (POST /getDownload/review/verify or /getDownload/access/verify) */
  access: z.optional(tokenSchema),
};

const trimmed = (max: number, code: string) =>
  z
    .pipe(
      z.string(),
      z.transform((s) => s.trim()),
    )
    .check(z.minLength(1, code), z.maxLength(max, code));

export const commentBodySchema = trimmed(COMMENT_MAX_CHARS, 'invalid_comment');
export const visitorSchema = z.object({
  visitorId: z.string().check(z.regex(VISITOR_ID_PATTERN, 'invalid_visitor')),
  name: trimmed(VISITOR_NAME_MAX_CHARS, 'invalid_name'),
});
export const commentIdSchema = z
  .string()
  .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/u, 'invalid_comment_id'));

const fraction = z.number().check(z.gte(0), z.lte(1));
export const anchorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('point'), x: fraction, y: fraction }),
  z.object({ kind: z.literal('time'), seconds: z.number().check(z.gte(0), z.lte(7 * 24 * 3600)) }),
  z.object({ kind: z.literal('page'), page: z.number().check(z.int(), z.gte(1), z.lte(100_000)) }),
]);

/** POST /getDownload/review */
export const recipientReviewRequestSchema = z.object({ ...gate, visitorId: z.optional(visitorSchema.shape.visitorId) });
export type RecipientReviewRequest = z.input<typeof recipientReviewRequestSchema>;

/** POST /getDownload/review/code */
export const reviewCodeRequestSchema = z.object({
  ...gate,
  email: emailSchema,
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export type ReviewCodeRequest = z.input<typeof reviewCodeRequestSchema>;

/** POST /getDownload/review/verify */
export const reviewVerifyRequestSchema = z.object({ ...gate, email: emailSchema, code: guestCodeSchema });
export type ReviewVerifyRequest = z.input<typeof reviewVerifyRequestSchema>;

/** POST /getDownload/review/comment: `parentId` for a reply (then no anchor) */
export const recipientCommentRequestSchema = z.object({
  ...gate,
  visitor: z.optional(visitorSchema),
  fileId: fileIdSchema,
  parentId: z.optional(commentIdSchema),
  anchor: z.optional(anchorSchema),
  body: commentBodySchema,
});
export type RecipientCommentRequest = z.input<typeof recipientCommentRequestSchema>;

/** POST /getDownload/review/favourite */
export const favouriteRequestSchema = z.object({
  ...gate,
  visitor: z.optional(visitorSchema),
  fileId: fileIdSchema,
  favourite: z.boolean(),
});
export type FavouriteRequest = z.input<typeof favouriteRequestSchema>;

/** POST /getDownload/review/decision: `subject` a file id or 'transfer' */
export const decisionRequestSchema = z.object({
  ...gate,
  visitor: z.optional(visitorSchema),
  subject: z.union([fileIdSchema, z.literal('transfer')]),
  decision: z.enum(['approved', 'changes_requested']),
  note: z.optional(commentBodySchema),
});
export type DecisionRequest = z.input<typeof decisionRequestSchema>;

/** PATCH /transfers/{id}/review */
export const reviewSettingsRequestSchema = z.object({
  enabled: z.optional(z.boolean()),
  closed: z.optional(z.boolean()),
});
export type ReviewSettingsRequest = z.input<typeof reviewSettingsRequestSchema>;

/** POST /transfers/{id}/review/comments */
export const senderCommentRequestSchema = z.object({
  fileId: fileIdSchema,
  parentId: z.optional(commentIdSchema),
  anchor: z.optional(anchorSchema),
  body: commentBodySchema,
});
export type SenderCommentRequest = z.input<typeof senderCommentRequestSchema>;

/** POST /transfers/{id}/review/threads/{commentId} */
export const resolveRequestSchema = z.object({ resolved: z.boolean() });
export type ResolveRequest = z.input<typeof resolveRequestSchema>;

/** A file of the review: its current version and the versions before it (same thread). */
export interface ReviewFileView {
  /** the first version's file id: what comments, favourites and decisions name */
  readonly fileId: string;
  readonly fileName: string;
  /** the preview kind (domain/previews.ts) of the current version */
  readonly previewKind: string;
  /** the current version (1 for the original) */
  readonly version: number;
  /** file ids of every version, oldest first (the last is the current one's) */
  readonly versionFileIds: readonly string[];
}

export interface ReviewSettingsView extends ReviewSettings {
  /** whether recipients may still write (on, not closed, transfer not expired) */
  readonly writable: boolean;
}

export interface RecipientReviewView {
  readonly settings: ReviewSettingsView;
  readonly files: readonly ReviewFileView[];
  /** every comment of the review, oldest first (threads and replies; recipients see each other's) */
  readonly comments: readonly ReviewComment[];
  /** the caller's own favourites (by the session's address, else the visitor id asked with) */
  readonly favourites: readonly string[];
  /** the caller's own decisions */
  readonly decisions: readonly ReviewDecision[];
  /** the caller as the review names them, when known */
  readonly you: { readonly kind: 'verified'; readonly email: string } | null;
}

export interface SenderReviewView {
  readonly settings: ReviewSettingsView;
  readonly files: readonly ReviewFileView[];
  readonly comments: readonly ReviewComment[];
  /** every reviewer's latest decision per subject */
  readonly decisions: readonly ReviewDecision[];
  /** per file id: the reviewers who favourited it (verified address or visitor's name) */
  readonly favourites: Readonly<Record<string, readonly string[]>>;
  /** epoch ms the sender last marked the review read (0: never) */
  readonly readAt: number;
  readonly summary: ReviewSummary;
}
