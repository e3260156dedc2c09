/**
 * The review's recipient routes (functions/domain/review-api.ts), each with the download page's
 * gate (transfer, password, recipient id, verified session) and, for a write, who is writing.
 */
import type { ReviewAnchor, ReviewComment, ReviewDecision, ReviewDecisionKind } from '@domain/review';
import type { RecipientReviewView } from '@domain/review-api';
import { DOWNLOAD_REQUEST_TIMEOUT_MS } from '@domain/ui-timings';
import { apiFetch } from '@/lib/api';
import { accessBody, type DownloadAccess } from '@/shared/downloads/download-api';

/** A link visitor as the API takes them: their browser's id and the name they typed. */
export interface Visitor {
  readonly visitorId: string;
  readonly name: string;
}

/** Who writes: a verified session travels in the gate (`access`), a visitor in its own field. */
export type Writer = { readonly kind: 'verified' } | { readonly kind: 'visitor'; readonly visitor: Visitor };

const call = <T>(path: string, body: object, signal?: AbortSignal) =>
  apiFetch<T>(path, { body, timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS, ...(signal ? { signal } : {}) });

const writeBody = (access: DownloadAccess, writer: Writer) => ({
  ...accessBody(access),
  ...(writer.kind === 'visitor' ? { visitor: writer.visitor } : {}),
});

export function fetchReview(
  access: DownloadAccess,
  visitorId: string | undefined,
  signal?: AbortSignal,
): Promise<RecipientReviewView> {
  return call('/getDownload/review', { ...accessBody(access), ...(visitorId ? { visitorId } : {}) }, signal);
}

/** Mails the 5-digit code to the address (202). */
export async function sendReviewCode(access: DownloadAccess, email: string, lang: string): Promise<void> {
  await call<unknown>('/getDownload/review/code', { ...accessBody(access), email, lang });
}

export function verifyReviewCode(
  access: DownloadAccess,
  email: string,
  code: string,
): Promise<{ access: string; email: string; expiresAt: number }> {
  return call('/getDownload/review/verify', { ...accessBody(access), email, code });
}

export async function postComment(
  access: DownloadAccess,
  writer: Writer,
  comment: { fileId: string; body: string; anchor?: ReviewAnchor; parentId?: string },
): Promise<ReviewComment> {
  const answer = await call<{ comment: ReviewComment }>('/getDownload/review/comment', {
    ...writeBody(access, writer),
    ...comment,
  });
  return answer.comment;
}

export function postFavourite(
  access: DownloadAccess,
  writer: Writer,
  fileId: string,
  favourite: boolean,
): Promise<{ fileId: string; favourite: boolean }> {
  return call('/getDownload/review/favourite', { ...writeBody(access, writer), fileId, favourite });
}

export async function postDecision(
  access: DownloadAccess,
  writer: Writer,
  subject: string,
  decision: ReviewDecisionKind,
  note: string,
): Promise<ReviewDecision> {
  const answer = await call<{ decision: ReviewDecision }>('/getDownload/review/decision', {
    ...writeBody(access, writer),
    subject,
    decision,
    ...(note.trim() ? { note: note.trim() } : {}),
  });
  return answer.decision;
}
