/** When a sender is blocked from sending (spec §6) and what the limit screen says (spec §8). */
import { formatBytes } from './format';
import { PLANS, isPaidRole, isRole, limitsFor } from './plans';
import { storageState } from './storage';
import { TEXTS } from './texts';

/** Also the API's error codes for a refused send (403, docs/error-codes.md). */
export const BLOCK_REASONS = [
  'revoked',
  'past_due',
  'unpaid',
  'trial_expired',
  'subscription_over',
  'over_transfer_limit',
  'storage_full',
] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

/**
 * User.status mirrors the subscription (trialing, active, past_due, unpaid, canceled, paused)
 * plus the product's own 'unpaid' signup default and 'revoke'.
 */
export interface BlockingUser {
  role: string;
  status?: string | null;
  /** Trial end, epoch ms, when trialing. */
  trialEnd?: number | null;
}

export interface BlockingUsage {
  /** Transfers sent in the current calendar month (see transferMonthKey). */
  thisMonthsTransfers: number;
  /** Bytes stored; for a team member, the parent admin's total (spec §6). */
  storageUsed: number;
  now: number;
}

/**
 * First reason that blocks a send, or null. Account reasons come before usage reasons so the
 * screen names the cause that upgrading or deleting files would not fix.
 *
 * Subscription statuses only block paid roles: the signup payload stores status 'unpaid' until
 * payment, so a free user is always 'unpaid' and blocking free users on it would block them all.
 * 'revoke' likewise applies to roles other than free, as the spec says.
 */
export function blockReason(user: BlockingUser, usage: BlockingUsage): BlockReason | null {
  const limits = limitsFor(user.role);
  const status = user.status ?? '';
  if (isPaidRole(limits.role)) {
    if (status === 'revoke') return 'revoked';
    if (status === 'past_due') return 'past_due';
    if (status === 'unpaid') return 'unpaid';
    // Stripe pauses or expires a subscription whose trial ended unpaid; a stale 'trialing'
    // past its end means the webhook has not landed yet.
    if (status === 'paused' || status === 'incomplete_expired') return 'trial_expired';
    if (status === 'trialing' && user.trialEnd != null && user.trialEnd <= usage.now) return 'trial_expired';
    if (status === 'canceled' || status === 'cancelled') return 'subscription_over';
  }
  if (limits.monthlyTransfers !== null && usage.thisMonthsTransfers >= limits.monthlyTransfers) {
    return 'over_transfer_limit';
  }
  if (storageState(usage.storageUsed, limits.storage) === 'full') return 'storage_full';
  return null;
}

/** Calendar month of a send for the monthly counter, in UTC so every server agrees. */
export function transferMonthKey(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/**
 * How far over the limit a refused send would go (the spec's 'Over transfer limit' toast): the
 * send being attempted counts, so the first refused send is "1 over", never "0 over". The limit
 * screen shows what was sent instead (limitScreenFor).
 */
export function transferExcess(thisMonthsTransfers: number, limit: number): number {
  return Math.max(1, thisMonthsTransfers + 1 - limit);
}

/** 'Your {role} plan is limited to {limit} transfers. You're {excess} over your limit.' */
export function overTransferLimitText(input: { role: string; limit: number; excess: number }): string {
  const name = isRole(input.role) ? PLANS[input.role].displayName : input.role;
  return `Your ${name} plan is limited to ${input.limit} transfers. You're ${input.excess} over your limit.`;
}

/** The limit screen at exactly the limit: what was sent, not the send that was refused (ours). */
export function atTransferLimitText(input: { role: string; limit: number }): string {
  const name = isRole(input.role) ? PLANS[input.role].displayName : input.role;
  return `Your ${name} plan is limited to ${input.limit} transfers a month, and you've used all ${input.limit}.`;
}

export interface LimitScreen {
  title: string;
  lines: string[];
  action: string;
}

/** Texts of the limit screen for a block reason; the app adds the support contact line. */
export function limitScreenFor(
  reason: BlockReason,
  context: { role: string; thisMonthsTransfers?: number },
): LimitScreen {
  const limits = limitsFor(context.role);
  const action = TEXTS.upgradeAction;
  switch (reason) {
    case 'trial_expired':
      return { title: TEXTS.trialExpired, lines: [], action };
    case 'storage_full':
      return {
        title: TEXTS.storageFull,
        lines: [`Your plan includes ${formatBytes(limits.storage)} of storage.`, TEXTS.storageFullHint],
        action,
      };
    case 'revoked':
    case 'past_due':
    case 'unpaid':
      return { title: TEXTS.suspended, lines: [], action };
    case 'subscription_over':
      return { title: TEXTS.subscriptionOver, lines: [], action };
    case 'over_transfer_limit': {
      // What was sent: 10 of 10 is at the limit, 12 of 10 (a lowered limit) 2 over.
      const limit = limits.monthlyTransfers ?? 0;
      const excess = (context.thisMonthsTransfers ?? limit) - limit;
      return {
        title: TEXTS.overTransferLimitTitle,
        lines: [
          excess > 0
            ? overTransferLimitText({ role: context.role, limit, excess })
            : atTransferLimitText({ role: context.role, limit }),
        ],
        action,
      };
    }
  }
}
