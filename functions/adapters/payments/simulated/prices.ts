/**
 * The simulator's built-in prices: every plan with a published price in functions/domain/plans.ts
 * (spec §9: personal 12 / 108, pro 29 / 228, business 69 / 588 USD), monthly and yearly, as
 * Stripe price objects `price_sim_<role>_<month|year>` with metadata.role.
 */
import type { BillingPeriod, PriceView } from '../../../domain/billing-api';
import { PAID_ROLES, PLANS, type Role } from '../../../domain/plans';
import type { RecurringPriceObject } from '../provider';

export const SIM_CURRENCY = 'usd';

export const simPriceId = (role: Role, period: BillingPeriod) => `price_sim_${role}_${period}`;

function nickname(role: Role, period: BillingPeriod): string {
  return `${PLANS[role].displayName} ${period === 'month' ? 'monthly' : 'yearly'}`;
}

export const SIM_PRICES: readonly RecurringPriceObject[] = PAID_ROLES.flatMap((role) => {
  const price = PLANS[role].price;
  // Only prices the spec publishes (§9); an inferred one (premium's) is not on sale.
  if (!price || price.monthly <= 0 || PLANS[role].inferred.includes('price')) return [];
  return (['month', 'year'] as const).map(
    (period): RecurringPriceObject => ({
      id: simPriceId(role, period),
      object: 'price',
      nickname: nickname(role, period),
      unit_amount: Math.round((period === 'month' ? price.monthly : price.yearly) * 100),
      currency: SIM_CURRENCY,
      recurring: { interval: period },
      metadata: { role },
      product: `prod_sim_${role}`,
    }),
  );
});

export function simPrice(priceId: string): RecurringPriceObject | undefined {
  return SIM_PRICES.find((p) => p.id === priceId);
}

export function priceView(price: RecurringPriceObject): PriceView {
  return {
    priceId: price.id,
    role: price.metadata.role as Role,
    period: price.recurring.interval,
    amount: price.unit_amount / 100,
    currency: price.currency,
    nickname: price.nickname ?? price.id,
  };
}

/** Coupons the simulator knows (Stripe answers `resource_missing` for any other). */
export const SIM_COUPONS: Readonly<
  Record<string, { readonly percent_off: number | null; readonly amount_off: number | null }>
> = {
  SIM20: { percent_off: 20, amount_off: null },
  SIM5OFF: { percent_off: null, amount_off: 500 },
};

export function discounted(
  amount: number,
  coupon: { readonly percent_off: number | null; readonly amount_off: number | null } | null | undefined,
): number {
  if (!coupon) return amount;
  if (coupon.percent_off !== null) return Math.max(0, Math.round(amount * (1 - coupon.percent_off / 100)));
  return Math.max(0, amount - (coupon.amount_off ?? 0));
}
