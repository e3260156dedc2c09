import { describe, expect, it } from 'vitest';
import { clearedRefreshCookie, refreshCookie, refreshTokenFrom } from '../../../functions/services/accounts';
import { blockedError } from '../../../functions/services/limits';
import { TEXTS } from '../../../functions/domain/texts';

describe('the refresh cookie', () => {
  it('is httpOnly, Secure, SameSite=Strict and scoped to the API', () => {
    const c = refreshCookie('tok');
    expect(c.startsWith('sb_refresh=tok;')).toBe(true);
    for (const attr of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/api', 'Max-Age=2592000'])
      expect(c).toContain(attr);
    expect(clearedRefreshCookie()).toMatch(/^sb_refresh=;.*Max-Age=0/);
  });

  it('is read from the event cookies among others, and an empty one is no session', () => {
    expect(refreshTokenFrom(['a=1', 'sb_refresh=abc.def=', 'b=2'])).toBe('abc.def=');
    expect(refreshTokenFrom(['sb_refresh='])).toBeUndefined();
    expect(refreshTokenFrom(['sb_refresh_other=x'])).toBeUndefined();
    expect(refreshTokenFrom(undefined)).toBeUndefined();
  });
});

describe('limit errors', () => {
  const owner = { userId: 'u', email: 'u@example.com', role: 'free' };

  it('says the spec texts for each block', () => {
    expect(blockedError('over_transfer_limit', owner, 10).message).toBe(
      "Your Free plan is limited to 10 transfers. You're 1 over your limit.",
    );
    const full = blockedError('storage_full', owner, 0);
    expect(full.message).toBe(`${TEXTS.storageFull} ${TEXTS.storageFullHint}`);
    expect(full.details).toEqual({ allowance: '10 GB' });
    expect(blockedError('trial_expired', owner, 0).message).toBe(TEXTS.trialExpired);
    expect(blockedError('revoked', owner, 0).message).toBe(TEXTS.suspended);
    expect(blockedError('subscription_over', owner, 0).message).toBe(TEXTS.subscriptionOver);
    expect(blockedError('past_due', owner, 0).message).toBe(TEXTS.suspended);
    for (const r of [
      'over_transfer_limit',
      'storage_full',
      'trial_expired',
      'revoked',
      'past_due',
      'unpaid',
      'subscription_over',
    ] as const) {
      expect(blockedError(r, owner, 0).statusCode).toBe(403);
    }
  });
});
