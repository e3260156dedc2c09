import { describe, it, expect } from 'vitest';
import {
  blockReason,
  limitScreenFor,
  overTransferLimitText,
  transferExcess,
  transferMonthKey,
} from '../../../functions/domain/blocking';

const NOW = Date.UTC(2025, 3, 10);
const usage = (over: Partial<{ thisMonthsTransfers: number; storageUsed: number }> = {}) => ({
  thisMonthsTransfers: 0,
  storageUsed: 0,
  now: NOW,
  ...over,
});

describe('blockReason', () => {
  it('lets a fresh free user send', () => {
    expect(blockReason({ role: 'free', status: 'unpaid' }, usage())).toBeNull();
  });

  it('blocks free users at their 10th transfer of the month, not at the 9th', () => {
    expect(blockReason({ role: 'free' }, usage({ thisMonthsTransfers: 9 }))).toBeNull();
    expect(blockReason({ role: 'free' }, usage({ thisMonthsTransfers: 10 }))).toBe('over_transfer_limit');
  });

  it('never limits the number of transfers on paid plans', () => {
    expect(blockReason({ role: 'pro', status: 'active' }, usage({ thisMonthsTransfers: 10_000 }))).toBeNull();
  });

  it('does not block free users for the unpaid status every signup starts with', () => {
    expect(blockReason({ role: 'free', status: 'unpaid' }, usage({ thisMonthsTransfers: 3 }))).toBeNull();
  });

  it('blocks paid roles whose subscription is past due or unpaid', () => {
    expect(blockReason({ role: 'pro', status: 'past_due' }, usage())).toBe('past_due');
    expect(blockReason({ role: 'business', status: 'unpaid' }, usage())).toBe('unpaid');
  });

  it('blocks roles other than free on status revoke', () => {
    expect(blockReason({ role: 'teamplus', status: 'revoke' }, usage())).toBe('revoked');
    expect(blockReason({ role: 'free', status: 'revoke' }, usage())).toBeNull();
  });

  it('blocks a trial once its end has passed', () => {
    expect(blockReason({ role: 'premium', status: 'trialing', trialEnd: NOW + 1 }, usage())).toBeNull();
    expect(blockReason({ role: 'premium', status: 'trialing', trialEnd: NOW }, usage())).toBe('trial_expired');
    expect(blockReason({ role: 'pro', status: 'paused' }, usage())).toBe('trial_expired');
  });

  it('blocks a cancelled subscription', () => {
    expect(blockReason({ role: 'personal', status: 'canceled' }, usage())).toBe('subscription_over');
  });

  it('blocks at full storage and not just below it', () => {
    expect(blockReason({ role: 'free' }, usage({ storageUsed: 10e9 - 1 }))).toBeNull();
    expect(blockReason({ role: 'free' }, usage({ storageUsed: 10e9 }))).toBe('storage_full');
    expect(blockReason({ role: 'pro', status: 'active' }, usage({ storageUsed: 200e9 }))).toBe('storage_full');
  });

  it('names an account problem before a usage one', () => {
    expect(blockReason({ role: 'pro', status: 'past_due' }, usage({ storageUsed: 1e15 }))).toBe('past_due');
  });

  it('applies the free limits to an unknown role', () => {
    expect(blockReason({ role: 'gold' }, usage({ thisMonthsTransfers: 10 }))).toBe('over_transfer_limit');
  });
});

describe('over transfer limit text', () => {
  it('fills the spec sentence, with "You\'re" for the source\'s "Your"', () => {
    expect(overTransferLimitText({ role: 'free', limit: 10, excess: 1 })).toBe(
      "Your Free plan is limited to 10 transfers. You're 1 over your limit.",
    );
  });

  it('counts the refused send in the excess', () => {
    expect(transferExcess(10, 10)).toBe(1);
    expect(transferExcess(12, 10)).toBe(3);
    expect(transferExcess(3, 10)).toBe(1);
  });
});

describe('limit screens', () => {
  it('say the spec text for each reason, with the upgrade button', () => {
    expect(limitScreenFor('trial_expired', { role: 'premium' })).toEqual({
      title: 'Your trial has expired',
      lines: [],
      action: 'Upgrade your plan',
    });
    expect(limitScreenFor('storage_full', { role: 'free' })).toEqual({
      title: 'Your storage is now full.',
      lines: ['Your plan includes 10 GB of storage.', 'Consider upgrading your plan or deleting some transfers.'],
      action: 'Upgrade your plan',
    });
    for (const reason of ['revoked', 'past_due', 'unpaid'] as const) {
      expect(limitScreenFor(reason, { role: 'pro' }).title).toBe(
        "We're sorry, but your account is currently suspended. You still have access to your data.",
      );
    }
    expect(limitScreenFor('subscription_over', { role: 'pro' }).title).toBe('Your subscription is over.');
    // The screen shows what was sent: at 10 of 10 it reads as at the limit, past it as over.
    expect(limitScreenFor('over_transfer_limit', { role: 'free', thisMonthsTransfers: 10 })).toEqual({
      title: 'Over transfer limit',
      lines: ["Your Free plan is limited to 10 transfers a month, and you've used all 10."],
      action: 'Upgrade your plan',
    });
    expect(limitScreenFor('over_transfer_limit', { role: 'free', thisMonthsTransfers: 12 }).lines).toEqual([
      "Your Free plan is limited to 10 transfers. You're 2 over your limit.",
    ]);
  });
});

describe('transfer month', () => {
  it('is the UTC calendar month', () => {
    expect(transferMonthKey(Date.UTC(2025, 0, 31, 23, 59, 59))).toBe('2025-01');
    expect(transferMonthKey(Date.UTC(2025, 1, 1))).toBe('2025-02');
  });
});
