import { createInstance, type i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '@domain/auth-api';
import { limitScreenFor, type BlockReason } from '@domain/blocking';
import { formatBytes } from '@domain/format';
import { PLANS, limitsFor } from '@domain/plans';
import { TEXTS } from '@domain/texts';
import { CATALOGUE, FALLBACK_NS } from '../../../helpers/catalogues';
import { BLOCK_REASONS, blockReasonOf, limitCopy, type LimitLine } from '@/features/dashboard/limit-screen';

let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.init({
    lng: 'en',
    resources: { en: CATALOGUE.en },
    fallbackNS: FALLBACK_NS,
    interpolation: { escapeValue: false },
  });
});
const text = (line: LimitLine): string =>
  (i18n.t as (k: string, o?: Record<string, unknown>) => string)(line.key, line.params);

type LimitUser = Pick<SessionUser, 'role' | 'thisMonthsTransfers' | 'monthlyTransferLimit' | 'storageLimit'>;
const userOn = (role: string, extra: Partial<LimitUser> = {}): LimitUser => {
  const limits = limitsFor(role);
  return {
    role,
    thisMonthsTransfers: limits.monthlyTransfers ?? 0,
    monthlyTransferLimit: limits.monthlyTransfers,
    storageLimit: limits.storage,
    ...extra,
  };
};
// English formatting as the domain does it, so the rendered copy can be compared with limitScreenFor.
const english = { size: formatBytes, planName: (role: string) => limitsFor(role).displayName };

describe('which limit screen a signed-in user sees', () => {
  it('shows none for a user the server does not block', () => {
    expect(blockReasonOf({ blocked: null })).toBeNull();
    expect(blockReasonOf({ blocked: '' })).toBeNull();
  });

  it("shows the server's reason for every reason blockReason can give", () => {
    for (const reason of BLOCK_REASONS) expect(blockReasonOf({ blocked: reason })).toBe(reason);
  });

  it('still blocks on a reason this app does not know, with the suspended screen', () => {
    const reason = blockReasonOf({ blocked: 'frozen_by_admin' });
    expect(reason).toBe('revoked');
    expect(text(limitCopy(reason!, userOn('pro'), english).title)).toBe(TEXTS.suspended);
  });
});

describe('limit screen copy (spec §8)', () => {
  it.each(['free', 'personal', 'pro', 'business', 'businessplus', 'teamelite', 'premium'])(
    'reads in English exactly as limitScreenFor for a %s user, for every reason',
    (role) => {
      for (const reason of BLOCK_REASONS) {
        const user = userOn(role, { thisMonthsTransfers: 12 });
        const copy = limitCopy(reason, user, english);
        const expected = limitScreenFor(reason, { role, thisMonthsTransfers: 12 });
        expect(copy.reason).toBe(reason);
        expect(text(copy.title), `${role} ${reason}`).toBe(expected.title);
        expect(copy.lines.map(text), `${role} ${reason}`).toEqual(expected.lines);
      }
    },
  );

  it('uses the spec texts for storage full, trial expired, suspended and subscription over', () => {
    const user = userOn('pro');
    const title = (reason: BlockReason) => text(limitCopy(reason, user, english).title);
    expect(title('storage_full')).toBe('Your storage is now full.');
    expect(limitCopy('storage_full', user, english).lines.map(text)).toEqual([
      'Your plan includes 200 GB of storage.',
      'Consider upgrading your plan or deleting some transfers.',
    ]);
    expect(title('trial_expired')).toBe('Your trial has expired');
    for (const reason of ['revoked', 'past_due', 'unpaid'] as const) {
      expect(title(reason)).toBe(
        "We're sorry, but your account is currently suspended. You still have access to your data.",
      );
    }
    expect(title('subscription_over')).toBe('Your subscription is over.');
    expect(i18n.t('dashboard.limit.upgrade')).toBe(TEXTS.upgradeAction);
  });

  it("names the user's own storage allowance (a team member's is the admin's), else the plan's", () => {
    const member = userOn('free', { storageLimit: PLANS.business.storage });
    expect(text(limitCopy('storage_full', member, english).lines[0]!)).toBe('Your plan includes 1 TB of storage.');
    const unknown = userOn('free', { storageLimit: 0 });
    expect(text(limitCopy('storage_full', unknown, english).lines[0]!)).toBe('Your plan includes 10 GB of storage.');
  });

  it('reads as at the limit at exactly 10 of 10 free transfers, not as 1 over', () => {
    const atCap = userOn('free', { thisMonthsTransfers: 10, monthlyTransferLimit: 10 });
    expect(text(limitCopy('over_transfer_limit', atCap, english).title)).toBe('Over transfer limit');
    expect(limitCopy('over_transfer_limit', atCap, english).lines.map(text)).toEqual([
      "Your Free plan is limited to 10 transfers a month, and you've used all 10.",
    ]);
  });

  it('says how far over by what was sent, only past the limit (a lowered limit)', () => {
    const over = userOn('free', { thisMonthsTransfers: 12, monthlyTransferLimit: 10 });
    expect(limitCopy('over_transfer_limit', over, english).lines.map(text)).toEqual([
      "Your Free plan is limited to 10 transfers. You're 2 over your limit.",
    ]);
  });
});
