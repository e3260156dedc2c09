import { PLANS, ROLES, type PlanLimits, type Role } from '../../../functions/domain/plans';

export type ListedRole = Exclude<Role, 'premium'>;

/** Roles shown on the pricing table, in ascending order; premium is a package, not a listed plan. */
export const LISTED_ROLES: readonly ListedRole[] = ROLES.filter((r): r is ListedRole => r !== 'premium');

/** The plans with a published price get a card of their own. */
export const CARD_ROLES = ['free', 'personal', 'pro', 'business'] as const satisfies readonly ListedRole[];

export function plan(role: ListedRole): PlanLimits {
  return PLANS[role];
}

/** Largest yearly saving over twelve monthly payments, in whole percent. */
export function maxYearlySavingPercent(): number {
  let best = 0;
  for (const role of LISTED_ROLES) {
    const price = PLANS[role].price;
    if (!price || price.monthly === 0) continue;
    best = Math.max(best, 1 - price.yearly / (price.monthly * 12));
  }
  return Math.floor(best * 100);
}
