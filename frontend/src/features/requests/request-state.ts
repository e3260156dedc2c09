/** How the request screens name a request's state and read the API's refusals. */
import type { RequestState } from '@domain/requests-api';

/** Why a public request page takes no files: closed by the requester, or past its due date. */
export type ClosedKind = 'closed' | 'expired';

/**
 * A 410 of GET /r/{id} or POST /r/{id}/uploads: its details' `state` when it sends one, else
 * its code ('request_expired', 'request_past_due' read as past due; anything else as closed).
 */
export function closedKind(code: string, details: unknown): ClosedKind {
  const state = typeof details === 'object' && details !== null ? (details as { state?: unknown }).state : undefined;
  if (state === 'expired' || state === 'closed') return state;
  return /expired|past_due|due/u.test(code) ? 'expired' : 'closed';
}

/** The badge class of each state (the shared pill, styles/app.css). */
export const STATE_BADGE: Readonly<Record<RequestState, string>> = {
  open: 'pill pill-success',
  closed: 'pill pill-muted',
  expired: 'pill pill-muted',
};
