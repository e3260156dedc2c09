/**
 * Which plan and price the pricing, register and upgrade screens offer (spec §2, §9): the
 * period from `?period=` or `?save=`, the plan from `?plan=` (the premium package PRM preselects
 * pro), the price on sale for a role and period, where a plan card's 'Free trial' leads, and
 * whether a plan change takes effect now or at the period end.
 */
import type { BillingPeriod, PriceView, SubscriptionStatus } from '@domain/billing-api';
import { PLANS, PREMIUM_PACKAGE, ROLES, type Role } from '@domain/plans';

/** Roles a visitor can start a trial of from the plan cards (their price is published). */
export const TRIAL_ROLES = ['personal', 'pro', 'business'] as const satisfies readonly Role[];
export type TrialRole = (typeof TRIAL_ROLES)[number];

export function isTrialRole(value: unknown): value is TrialRole {
  return typeof value === 'string' && (TRIAL_ROLES as readonly string[]).includes(value);
}

/** 'year' for year / yearly / annual, else 'month'. */
export function parsePeriod(raw: string | null | undefined): BillingPeriod {
  const value = raw?.trim().toLowerCase();
  return value === 'year' || value === 'yearly' || value === 'annual' ? 'year' : 'month';
}

/** Pricing's `save` parameter: present and not '0' shows yearly prices. */
export function periodFromSave(save: string | null): BillingPeriod {
  return save !== null && save !== '0' ? 'year' : 'month';
}

/**
 * The plan a `?plan=` names: a listed role, or pro for the premium package (the guest done
 * view's 'Keep these files' and the link-mode upsell send plan=premium; PRM is its code).
 */
export function selectedPlan(raw: string | null | undefined): Role | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return null;
  if (value === 'premium' || value === PREMIUM_PACKAGE.toLowerCase()) return 'pro';
  return (ROLES as readonly string[]).includes(value) ? (value as Role) : null;
}

/** Plans the spec gives no price for, offered as 'Contact us': the config's list, else the plan table's. */
export function contactRolesOf(config: { readonly contactRoles: readonly Role[] } | null): readonly Role[] {
  if (config) return config.contactRoles;
  return ROLES.filter((role) => role !== 'anon' && role !== 'premium' && PLANS[role].price === null);
}

export function priceFor(prices: readonly PriceView[], role: string, period: BillingPeriod): PriceView | null {
  return prices.find((p) => p.role === role && p.period === period) ?? null;
}

export function priceById(prices: readonly PriceView[], priceId: string | null | undefined): PriceView | null {
  return priceId ? (prices.find((p) => p.priceId === priceId) ?? null) : null;
}

/**
 * Where a plan card's button leads. Signed out: registration with the plan and period (step 3
 * takes the card). Signed in: free is the dashboard; a paid plan is the account's plan tab.
 */
export function trialHref(role: Role, period: BillingPeriod, signedIn: boolean, coupon?: string | null): string {
  const query = new URLSearchParams();
  if (signedIn) {
    if (role === 'free') return '/dash';
    query.set('tab', '1');
    query.set('plan', role);
    query.set('period', period);
    if (coupon) query.set('coupon', coupon);
    return `/dash/account?${query.toString()}`;
  }
  query.set('plan', role);
  if (role !== 'free') query.set('period', period);
  if (coupon) query.set('coupon', coupon);
  return `/register?${query.toString()}`;
}

/** Statuses of a subscription that still exists: a plan change goes through POST /create-subscription, not a new checkout. */
const LIVE: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid', 'paused'];

export function isLiveSubscription(status: SubscriptionStatus): boolean {
  return LIVE.includes(status);
}

export type ChangeKind = 'same' | 'upgrade' | 'downgrade';

const rank = (role: Role) => ROLES.indexOf(role);

/**
 * An upgrade (a higher plan, or the same plan paid yearly instead of monthly) takes effect now,
 * prorated; a downgrade (a lower plan, or yearly to monthly) waits for the period end.
 */
export function changeKind(
  current: { role: Role; period: BillingPeriod | null },
  target: { role: Role; period: BillingPeriod },
): ChangeKind {
  if (current.role === target.role) {
    if (current.period === target.period) return 'same';
    return target.period === 'year' ? 'upgrade' : 'downgrade';
  }
  return rank(target.role) > rank(current.role) ? 'upgrade' : 'downgrade';
}

/** Whole percent saved by paying a year at once instead of twelve months. */
export function yearlySavingPercent(monthly: PriceView | null, yearly: PriceView | null): number | null {
  if (!monthly || !yearly || monthly.amount <= 0) return null;
  return Math.round((1 - yearly.amount / (monthly.amount * 12)) * 100);
}
