/**
 * Which limit screen a signed-in user sees instead of the send form (spec §8) and its copy.
 * The server decides the reason (SessionUser.blocked, from @domain/blocking's blockReason);
 * the English copy is limitScreenFor's, translated through the dashboard.limit keys.
 */
import type { SessionUser } from '@domain/auth-api';
import type { BlockReason } from '@domain/blocking';
import { limitsFor } from '@domain/plans';

export const BLOCK_REASONS = [
  'revoked',
  'past_due',
  'unpaid',
  'trial_expired',
  'subscription_over',
  'over_transfer_limit',
  'storage_full',
] as const satisfies readonly BlockReason[];

/**
 * The user's block reason. A reason this app does not know yet still blocks (the server will
 * refuse the send): it reads as suspended, the screen that promises access to the data.
 */
export function blockReasonOf(user: Pick<SessionUser, 'blocked'>): BlockReason | null {
  const blocked = user.blocked;
  if (blocked === null || blocked === undefined || blocked === '') return null;
  return (BLOCK_REASONS as readonly string[]).includes(blocked) ? (blocked as BlockReason) : 'revoked';
}

export type LimitKey =
  | 'dashboard.limit.trialExpired'
  | 'dashboard.limit.storageFull'
  | 'dashboard.limit.storageAllowance'
  | 'dashboard.limit.storageFullHint'
  | 'dashboard.limit.suspended'
  | 'dashboard.limit.subscriptionOver'
  | 'dashboard.limit.overTransferLimit'
  | 'dashboard.limit.overTransferLimitBody'
  | 'dashboard.limit.atTransferLimitBody';

export interface LimitLine {
  readonly key: LimitKey;
  readonly params?: Readonly<Record<string, string | number>>;
}

export interface LimitCopy {
  readonly reason: BlockReason;
  readonly title: LimitLine;
  readonly lines: readonly LimitLine[];
}

type LimitUser = Pick<SessionUser, 'role' | 'thisMonthsTransfers' | 'monthlyTransferLimit' | 'storageLimit'>;

/**
 * `formatSize` and `planName` put the reader's language into the parameters. The storage
 * allowance is the user's own (a team member's is the admin's), falling back to the plan's.
 */
export function limitCopy(
  reason: BlockReason,
  user: LimitUser,
  format: { size(bytes: number): string; planName(role: string): string },
): LimitCopy {
  switch (reason) {
    case 'trial_expired':
      return { reason, title: { key: 'dashboard.limit.trialExpired' }, lines: [] };
    case 'storage_full': {
      const allowance = user.storageLimit > 0 ? user.storageLimit : limitsFor(user.role).storage;
      return {
        reason,
        title: { key: 'dashboard.limit.storageFull' },
        lines: [
          { key: 'dashboard.limit.storageAllowance', params: { size: format.size(allowance) } },
          { key: 'dashboard.limit.storageFullHint' },
        ],
      };
    }
    case 'revoked':
    case 'past_due':
    case 'unpaid':
      return { reason, title: { key: 'dashboard.limit.suspended' }, lines: [] };
    case 'subscription_over':
      return { reason, title: { key: 'dashboard.limit.subscriptionOver' }, lines: [] };
    case 'over_transfer_limit': {
      const limit = user.monthlyTransferLimit ?? limitsFor(user.role).monthlyTransfers ?? 0;
      const plan = format.planName(user.role);
      // The screen shows what was sent: 10 of 10 is at the limit and 12 of 10 (a lowered limit)
      // is 2 over. The server's refusal of a send counts that send too (transferExcess).
      const excess = user.thisMonthsTransfers - limit;
      if (excess <= 0) {
        return {
          reason,
          title: { key: 'dashboard.limit.overTransferLimit' },
          lines: [{ key: 'dashboard.limit.atTransferLimitBody', params: { plan, limit } }],
        };
      }
      return {
        reason,
        title: { key: 'dashboard.limit.overTransferLimit' },
        lines: [{ key: 'dashboard.limit.overTransferLimitBody', params: { plan, limit, excess } }],
      };
    }
  }
}
