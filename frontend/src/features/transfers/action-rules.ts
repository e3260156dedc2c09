/** Which TransferModal actions a transfer allows now (spec §4 states), and the custom date's problem. */
import type { TransferDetail } from '@domain/dashboard-api';
import { CUSTOM_DATE_MARKER, checkCustomExpiry } from '@domain/expiry';
import { expiryPhase, notDownloaded } from './transfer-format';

export const TRANSFER_ACTIONS = [
  'addFiles',
  'forward',
  'resend',
  'remind',
  'expiry',
  'password',
  'limit',
  'delete',
] as const;
export type TransferAction = (typeof TRANSFER_ACTIONS)[number];

type ActionFacts = Pick<TransferDetail, 'state' | 'expiryDate' | 'purged' | 'sendAs' | 'recipientsDetail'>;

/**
 * Live (not expired, not deleted): everything. Expired with its files kept: forward, expiry
 * (to revive it), password, the download limit and delete. Purged: only delete. Deleted: nothing. Resend needs an
 * email send; Remind someone who has not downloaded.
 */
export function availableActions(detail: ActionFacts, now: number): ReadonlySet<TransferAction> {
  const phase = expiryPhase(detail, now);
  const actions = new Set<TransferAction>();
  if (phase === 'deleted') return actions;
  actions.add('delete');
  if (detail.purged) return actions;
  actions.add('forward');
  actions.add('expiry');
  actions.add('password');
  actions.add('limit');
  if (phase === 'expired') return actions;
  actions.add('addFiles');
  const mailed = detail.sendAs === 'email' && detail.recipientsDetail.length > 0;
  if (mailed) actions.add('resend');
  if (mailed && notDownloaded(detail.recipientsDetail).length > 0) actions.add('remind');
  return actions;
}

export type ExpiryProblem = 'customExpiryRequired' | 'expiryTooSoon' | 'expiryTooLate';

/** The send form's rules for a custom date (30 minutes to 1 year ahead); presets have none. */
export function expiryChoiceProblem(
  seconds: number | null,
  customDate: number | null,
  now: number,
): ExpiryProblem | null {
  if (seconds !== CUSTOM_DATE_MARKER) return null;
  if (customDate === null) return 'customExpiryRequired';
  const problem = checkCustomExpiry(customDate, now);
  return problem === 'too_soon' ? 'expiryTooSoon' : problem === 'too_late' ? 'expiryTooLate' : null;
}
