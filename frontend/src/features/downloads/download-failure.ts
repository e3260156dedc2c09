/**
 * Download request states of spec §4 (401 protected, 404, 410 expired, 500 network error),
 * read from what the API answered.
 */
import type { ExpiredDetails } from '@domain/transfer-api';
import { errorTextOf, type ErrorText } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';

export type DownloadFailure =
  /** 401: a password is needed; `wrong` when the one given was rejected */
  | { readonly kind: 'locked'; readonly wrong: boolean }
  | { readonly kind: 'notFound' }
  | ({ readonly kind: 'expired' } & ExpiredDetails)
  /** 410 transfer_disabled, an operator disabled it after an abuse report */
  | { readonly kind: 'disabled' }
  /** 410 transfer_withdrawn, shared while uploading and then cancelled */
  | { readonly kind: 'withdrawn' }
  /** 401 verification_required: a verified recipient's code step; `email` the personal link's address */
  | { readonly kind: 'verify'; readonly email?: string }
  /** 410 recipient_removed / revoked / expired: the sender ended this address's access */
  | { readonly kind: 'accessEnded'; readonly reason: 'removed' | 'revoked' | 'expired' }
  /** 403 download_limit_reached: the limit was used up (or its last slots taken) after the page loaded */
  | { readonly kind: 'limitReached' }
  /** 429, e.g. too many password attempts: told by its code, with the minutes to wait */
  | { readonly kind: 'rateLimited'; readonly text: ErrorText }
  /** no answer, a 5xx, or anything else unexpected: the spec's network error text */
  | { readonly kind: 'network' };

/** The 410 answer's details, checked by hand: the download page loads without zod. */
function expiredDetailsOf(details: unknown): ExpiredDetails | null {
  if (typeof details !== 'object' || details === null) return null;
  const { expiryDate, extendable } = details as Record<string, unknown>;
  if (typeof expiryDate !== 'number' || !Number.isFinite(expiryDate) || typeof extendable !== 'boolean') return null;
  return { expiryDate, extendable };
}

export function downloadFailureOf(error: unknown): DownloadFailure {
  if (!(error instanceof ApiError)) return { kind: 'network' };
  switch (error.status) {
    case 401:
      // details: the personal link's address ({ email }) when the link names one
      if (error.code === 'verification_required') return { kind: 'verify', ...(error.details as { email?: string }) };
      return { kind: 'locked', wrong: error.code === 'wrong_password' };
    // 400 is a malformed id or recipient in the link: to the visitor that is a link that leads nowhere.
    case 400:
    case 404:
      return { kind: 'notFound' };
    case 410: {
      if (error.code === 'transfer_disabled') return { kind: 'disabled' };
      if (error.code === 'transfer_withdrawn') return { kind: 'withdrawn' };
      // recipient_removed, recipient_revoked, recipient_expired
      if (error.code.startsWith('recipient_'))
        return { kind: 'accessEnded', reason: error.code.slice(10) as 'removed' | 'revoked' | 'expired' };
      const details = expiredDetailsOf(error.details);
      // Without the expiry date there is no "{time} ago" to tell; the link is simply gone.
      return details ? { kind: 'expired', ...details } : { kind: 'notFound' };
    }
    case 403:
      return error.code === 'download_limit_reached' ? { kind: 'limitReached' } : { kind: 'network' };
    case 429:
      return { kind: 'rateLimited', text: errorTextOf(error) };
    default:
      return { kind: 'network' };
  }
}

/** Failures that replace the whole page; the others are shown beside the button that failed. */
export function replacesPage(failure: DownloadFailure): boolean {
  return (
    failure.kind === 'locked' ||
    failure.kind === 'notFound' ||
    failure.kind === 'expired' ||
    failure.kind === 'disabled' ||
    failure.kind === 'withdrawn' ||
    failure.kind === 'verify' ||
    failure.kind === 'accessEnded'
  );
}
