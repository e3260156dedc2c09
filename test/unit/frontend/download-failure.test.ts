import { describe, expect, it } from 'vitest';
import { TEXTS } from '@domain/texts';
import { downloadFailureOf, replacesPage } from '@/features/downloads/download-failure';
import { ApiError } from '@/lib/api';

describe('downloadFailureOf', () => {
  it('maps 401 to the password field, telling a wrong password from a missing one', () => {
    expect(downloadFailureOf(new ApiError(401, 'password_required', TEXTS.download401))).toEqual({
      kind: 'locked',
      wrong: false,
    });
    expect(downloadFailureOf(new ApiError(401, 'wrong_password', TEXTS.download401))).toEqual({
      kind: 'locked',
      wrong: true,
    });
  });

  it('maps 404, and a 400 for a malformed link, to the removed-link state', () => {
    expect(downloadFailureOf(new ApiError(404, 'not_found', TEXTS.download404))).toEqual({ kind: 'notFound' });
    expect(downloadFailureOf(new ApiError(400, 'validation_failed', 'Invalid link'))).toEqual({ kind: 'notFound' });
  });

  it('maps 410 to expired with the expiry date and whether an extension may be asked', () => {
    const error = new ApiError(410, 'expired', 'Sorry, this download expired 3 days ago.', {
      expiryDate: 1_700_000_000_000,
      extendable: true,
    });
    expect(downloadFailureOf(error)).toEqual({ kind: 'expired', expiryDate: 1_700_000_000_000, extendable: true });
    const purged = new ApiError(410, 'expired', 'x', { expiryDate: 1_700_000_000_000, extendable: false });
    expect(downloadFailureOf(purged)).toEqual({ kind: 'expired', expiryDate: 1_700_000_000_000, extendable: false });
  });

  it('maps 410 transfer_withdrawn (shared while uploading, then cancelled) to withdrawn, which replaces the page', () => {
    const failure = downloadFailureOf(new ApiError(410, 'transfer_withdrawn', 'withdrawn'));
    expect(failure).toEqual({ kind: 'withdrawn' });
    expect(replacesPage(failure)).toBe(true);
  });

  it('treats a 410 without usable details as a removed link', () => {
    expect(downloadFailureOf(new ApiError(410, 'expired', 'x'))).toEqual({ kind: 'notFound' });
    expect(downloadFailureOf(new ApiError(410, 'expired', 'x', { expiryDate: 'yesterday', extendable: true }))).toEqual(
      { kind: 'notFound' },
    );
  });

  it('tells a 429 by its code and the minutes to wait, not by its English message', () => {
    const message = 'Too many password attempts. Try again in 10 minutes.';
    expect(downloadFailureOf(new ApiError(429, 'rate_limited', message, { retryAfterSeconds: 900 }))).toEqual({
      kind: 'rateLimited',
      text: { key: 'errors.rateLimited', params: { count: 15 } },
    });
  });

  it('maps no answer, 5xx and unexpected errors to the network error', () => {
    expect(downloadFailureOf(new ApiError(0, 'network_error', 'Failed to fetch'))).toEqual({ kind: 'network' });
    expect(downloadFailureOf(new ApiError(500, 'internal', 'Internal error'))).toEqual({ kind: 'network' });
    expect(downloadFailureOf(new ApiError(503, 'http_503', 'Service Unavailable'))).toEqual({ kind: 'network' });
    expect(downloadFailureOf(new TypeError('Failed to fetch'))).toEqual({ kind: 'network' });
    expect(downloadFailureOf(new ApiError(403, 'forbidden', 'Forbidden'))).toEqual({ kind: 'network' });
  });
});

describe('replacesPage', () => {
  it('replaces the page for locked, removed and expired; errors stay beside the button', () => {
    expect(replacesPage({ kind: 'locked', wrong: false })).toBe(true);
    expect(replacesPage({ kind: 'notFound' })).toBe(true);
    expect(replacesPage({ kind: 'expired', expiryDate: 1, extendable: false })).toBe(true);
    expect(replacesPage({ kind: 'network' })).toBe(false);
    expect(replacesPage({ kind: 'rateLimited', text: { key: 'errors.rateLimited', params: { count: 1 } } })).toBe(
      false,
    );
  });

  it('maps a used-up download limit to its own failure, shown beside the button; other 403s stay network errors', () => {
    const failure = downloadFailureOf(new ApiError(403, 'download_limit_reached', 'x'));
    expect(failure).toEqual({ kind: 'limitReached' });
    expect(replacesPage(failure)).toBe(false);
    expect(downloadFailureOf(new ApiError(403, 'forbidden', 'x'))).toEqual({ kind: 'network' });
  });

  describe('a verified recipient', () => {
    it("maps 401 verification_required to the code step, with the personal link's address", () => {
      expect(downloadFailureOf(new ApiError(401, 'verification_required', 'x'))).toEqual({ kind: 'verify' });
      expect(downloadFailureOf(new ApiError(401, 'verification_required', 'x', { email: 'ana@example.com' }))).toEqual({
        kind: 'verify',
        email: 'ana@example.com',
      });
    });

    it('maps a removed, revoked or expired address to its own page, which replaces the files', () => {
      for (const reason of ['removed', 'revoked', 'expired'] as const) {
        const failure = downloadFailureOf(new ApiError(410, `recipient_${reason}`, 'x'));
        expect(failure).toEqual({ kind: 'accessEnded', reason });
        expect(replacesPage(failure)).toBe(true);
      }
    });
  });
});
