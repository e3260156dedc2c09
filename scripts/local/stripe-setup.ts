/**
 * What `npm run stripe:setup` does in a Stripe account (scripts/stripe-setup.ts): one product
 * per paid plan with a price (spec §9: personal, pro, business) and a monthly and a yearly
 * price each, found again by their lookup keys (`sendbridge_<role>_<month|year>`), so running
 * it twice creates nothing the second time. A price whose amount no longer matches
 * functions/domain/plans.ts is replaced by a new one that takes over its lookup key (Stripe
 * prices are immutable). Answers STRIPE_PRICES: `{ "<role>/<period>": "price_..." }`.
 */
import type Stripe from 'stripe';
import type { BillingPeriod } from '../../functions/domain/billing-api';
import { PAID_ROLES, PLANS, type Role } from '../../functions/domain/plans';

export const CURRENCY = 'usd';
export const lookupKeyOf = (role: Role, period: BillingPeriod) => `sendbridge_${role}_${period}`;
export const PRODUCT_ROLE_METADATA = 'sendbridge_role';

export interface CataloguePrice {
  readonly role: Role;
  readonly period: BillingPeriod;
  readonly lookupKey: string;
  /** minor units */
  readonly amount: number;
  readonly nickname: string;
}

/** The prices the app sells, from the plan table. */
export function wantedPrices(): CataloguePrice[] {
  return PAID_ROLES.flatMap((role) => {
    const price = PLANS[role].price;
    // Only prices the spec publishes (§9); an inferred one (premium's) is not on sale.
    if (!price || price.monthly <= 0 || PLANS[role].inferred.includes('price')) return [];
    return (['month', 'year'] as const).map((period) => ({
      role,
      period,
      lookupKey: lookupKeyOf(role, period),
      amount: Math.round((period === 'month' ? price.monthly : price.yearly) * 100),
      nickname: `${PLANS[role].displayName} ${period === 'month' ? 'monthly' : 'yearly'}`,
    }));
  });
}

export interface SetupReport {
  readonly prices: Record<string, string>;
  /** what was created: `product <id>`, `price <id>` */
  readonly created: string[];
}

export async function setUpStripeCatalogue(
  stripe: Stripe,
  log: (line: string) => void = () => undefined,
): Promise<SetupReport> {
  const wanted = wantedPrices();
  const created: string[] = [];
  const existing = new Map<string, Stripe.Price>();
  for await (const price of stripe.prices.list({
    lookup_keys: wanted.map((w) => w.lookupKey),
    active: true,
    limit: 100,
  })) {
    if (price.lookup_key) existing.set(price.lookup_key, price);
  }
  const products = new Map<string, string>();
  const productFor = async (role: Role): Promise<string> => {
    const known = products.get(role);
    if (known) return known;
    if (products.size === 0) {
      for await (const p of stripe.products.list({ active: true, limit: 100 })) {
        const r = p.metadata?.[PRODUCT_ROLE_METADATA];
        if (r && !products.has(r)) products.set(r, p.id);
      }
      const found = products.get(role);
      if (found) return found;
    }
    const product = await stripe.products.create(
      { name: `SendBridge ${PLANS[role].displayName}`, metadata: { [PRODUCT_ROLE_METADATA]: role, role } },
      { idempotencyKey: `sendbridge-product-${role}` },
    );
    created.push(`product ${product.id}`);
    log(`created product ${product.id} (${product.name})`);
    products.set(role, product.id);
    return product.id;
  };
  const out: Record<string, string> = {};
  for (const w of wanted) {
    const have = existing.get(w.lookupKey);
    const matches =
      have &&
      have.unit_amount === w.amount &&
      have.currency === CURRENCY &&
      have.recurring?.interval === w.period &&
      have.metadata?.role === w.role;
    if (have && matches) {
      out[`${w.role}/${w.period}`] = have.id;
      continue;
    }
    const product = have
      ? typeof have.product === 'string'
        ? have.product
        : have.product.id
      : await productFor(w.role);
    const price = await stripe.prices.create({
      product,
      currency: CURRENCY,
      unit_amount: w.amount,
      recurring: { interval: w.period },
      lookup_key: w.lookupKey,
      ...(have ? { transfer_lookup_key: true } : {}),
      nickname: w.nickname,
      metadata: { role: w.role },
    });
    created.push(`price ${price.id}`);
    log(
      `created price ${price.id} (${w.nickname}, ${(w.amount / 100).toFixed(2)} ${CURRENCY.toUpperCase()})${have ? `, replacing ${have.id}` : ''}`,
    );
    out[`${w.role}/${w.period}`] = price.id;
  }
  return { prices: out, created };
}
