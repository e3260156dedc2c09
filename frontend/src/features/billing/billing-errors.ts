/**
 * The billing routes' refusals (functions/domain/billing-api.ts) in the billing screens' own
 * words (lazy `billing` catalogue); card errors are shown as the provider words them
 * (checkout-state.ts cardErrorMessage). Other codes read through the app's table (i18n/error-keys.ts).
 */
export type BillingErrorKey =
  | 'refusals.refund_window_over'
  | 'refusals.nothing_to_refund'
  | 'upgrade.noSubscription'
  | 'upgrade.unchanged'
  | 'upgrade.storageExceedsShort'
  | 'checkout.problems.already_subscribed'
  | 'checkout.problems.team_member'
  | 'checkout.problems.not_on_sale';

const KEYS: Readonly<Record<string, BillingErrorKey>> = {
  refund_window_over: 'refusals.refund_window_over',
  nothing_to_refund: 'refusals.nothing_to_refund',
  no_subscription: 'upgrade.noSubscription',
  plan_unchanged: 'upgrade.unchanged',
  storage_exceeds_plan: 'upgrade.storageExceedsShort',
  already_subscribed: 'checkout.problems.already_subscribed',
  team_member_billing: 'checkout.problems.team_member',
  unknown_price: 'checkout.problems.not_on_sale',
};

export function billingErrorKey(err: unknown): BillingErrorKey | null {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && Object.hasOwn(KEYS, code) ? KEYS[code]! : null;
}
