/**
 * The sender's review calls (functions/domain/review-api.ts), loaded with the TransferModal's
 * review chunk. Writes are not retried on 5xx: a reply whose answer was lost may have been saved.
 */
import type { ReviewComment } from '@domain/review';
import type {
  ResolveRequest,
  ReviewSettingsRequest,
  ReviewSettingsView,
  SenderCommentRequest,
  SenderReviewView,
} from '@domain/review-api';
import { authedFetch } from '@/lib/session/session';

const once = { retries: 0 } as const;
const base = (slug: string) => `/transfers/${encodeURIComponent(slug)}/review`;

export function fetchReview(slug: string, signal?: AbortSignal): Promise<SenderReviewView> {
  return authedFetch<SenderReviewView>(base(slug), signal ? { signal } : {});
}

/** Turns the review on or off, closes or re-opens it. */
export function changeReview(slug: string, body: ReviewSettingsRequest): Promise<ReviewSettingsView> {
  return authedFetch<ReviewSettingsView>(base(slug), { method: 'PATCH', body, ...once });
}

export function postSenderComment(slug: string, body: SenderCommentRequest): Promise<{ comment: ReviewComment }> {
  return authedFetch<{ comment: ReviewComment }>(`${base(slug)}/comments`, { method: 'POST', body, ...once });
}

export function resolveThread(
  slug: string,
  commentId: string,
  body: ResolveRequest,
): Promise<{ comment: ReviewComment }> {
  return authedFetch<{ comment: ReviewComment }>(`${base(slug)}/threads/${encodeURIComponent(commentId)}`, {
    method: 'POST',
    body,
  });
}

/** Every comment so far seen (the list's unread count drops to 0). */
export function markReviewRead(slug: string): Promise<void> {
  return authedFetch<void>(`${base(slug)}/read`, { method: 'POST', body: {} });
}
