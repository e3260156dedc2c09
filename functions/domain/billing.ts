/**
 * The user's billing state (spec §3 Subscription view, User.stripeId, isSumo; §6 role
 * from the subscription plan's metadata, else the customer's, else free). Pure: the webhook
 * handler and the billing routes hand in the provider's objects (Stripe's shapes, epoch
 * seconds, minor units, functions/adapters/payments/provider.ts) and store or answer what
 * comes out (epoch ms, major units, functions/domain/billing-api.ts).
 *
 * Imports only types from payment-objects.ts (the provider's object shapes), so the frontend may import it too.
 */
import type { CustomerObject, PaymentMethodObject, PriceObject, SubscriptionObject } from './payment-objects';
import {
  SUMO_MAX_CODES,
  SUMO_TIERS,
  type BillingPeriod,
  type CardView,
  type StripeDataResponse,
  type SubscriptionStatus,
  type SubscriptionView,
} from './billing-api';
import { DEFAULT_ROLE, REFUND_DAYS, isRole, resolveRole, type Role } from './plans';

const DAY_MS = 86_400_000;
const ms = (seconds: number | null | undefined): number | null =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? seconds * 1000 : null;

/**
 * Statuses under which the subscription's plan is the user's: its limits apply, and
 * domain/blocking.ts decides whether sending is blocked (past_due, unpaid: suspended; paused, a
 * stale trialing: trial expired). canceled and incomplete_expired are over; incomplete never
 * paid its first invoice (with a trial it does not occur): all three give free.
 */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid', 'paused'];

export function isLiveStatus(status: string | null | undefined): boolean {
  return (LIVE_STATUSES as readonly string[]).includes(status ?? '');
}

/** What the profile keeps of the subscription (docs/data-model.md, billing patterns). */
export interface BillingState {
  /** the subscription plan's role (spec §6), free when the price and customer name none */
  readonly subscriptionRole: Role;
  readonly status: Exclude<SubscriptionStatus, 'none'>;
  /** the provider's customer id (spec §3 User.stripeId) */
  readonly stripeId: string;
  readonly subscriptionId: string;
  readonly priceId: string | null;
  readonly period: BillingPeriod | null;
  /** epoch ms */
  readonly trialEnd: number | null;
  /** epoch ms */
  readonly periodEnd: number | null;
  readonly cancelAtPeriodEnd: boolean;
  readonly card: CardView | null;
  /** epoch ms of the event (or request) this state comes from: the newest state wins */
  readonly at: number;
}

/** The subscription's current price (its first item's). */
export function priceOf(sub: Pick<SubscriptionObject, 'items'>): PriceObject | null {
  return sub.items.data[0]?.price ?? null;
}

function cardOf(pm: string | PaymentMethodObject | null | undefined): CardView | null {
  if (!pm || typeof pm === 'string' || !pm.card) return null;
  return { brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
}

/** The card that pays: the subscription's default payment method, else the customer's. */
export function cardFrom(
  sub: Pick<SubscriptionObject, 'default_payment_method'> | null,
  customer: Pick<CustomerObject, 'invoice_settings'> | null,
): CardView | null {
  return cardOf(sub?.default_payment_method) ?? cardOf(customer?.invoice_settings.default_payment_method);
}

/** spec §6: the price's metadata.role, else the customer's metadata.role, else free. */
export function subscriptionRoleOf(
  sub: Pick<SubscriptionObject, 'items'>,
  customer: Pick<CustomerObject, 'metadata'> | null,
): Role {
  return resolveRole({ planRole: priceOf(sub)?.metadata.role ?? null, customerRole: customer?.metadata.role ?? null });
}

/** The billing state a subscription object gives, at `at` (epoch ms). */
export function billingStateOf(sub: SubscriptionObject, customer: CustomerObject | null, at: number): BillingState {
  const price = priceOf(sub);
  const periodEnd = sub.current_period_end ?? sub.items.data[0]?.current_period_end ?? null;
  return {
    subscriptionRole: subscriptionRoleOf(sub, customer),
    status: sub.status,
    stripeId: sub.customer,
    subscriptionId: sub.id,
    priceId: price?.id ?? null,
    period: price?.recurring?.interval ?? null,
    trialEnd: ms(sub.trial_end),
    periodEnd: ms(periodEnd),
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    card: cardFrom(sub, customer),
    at,
  };
}

// ---- roles and lifetime codes ------------------------------------------------------------------

/** A plan's rank: the lifetime codes' ladder (SUMO_TIERS), free and anon below, premium as pro. */
export function tierRank(role: string | null | undefined): number {
  if (role === 'premium') return SUMO_TIERS.indexOf('pro') + 1;
  const at = SUMO_TIERS.indexOf(role as Role);
  return at === -1 ? 0 : at + 1;
}

/** The tier n redeemed lifetime codes give (spec §3 isSumo): 1 code personal … 8 teamelite; none: free. */
export function sumoRoleOf(codes: number): Role {
  const n = Math.min(Math.max(0, Math.floor(codes)), SUMO_MAX_CODES);
  return n === 0 ? DEFAULT_ROLE : SUMO_TIERS[n - 1]!;
}

/** spec §3 isSumo: code1..code8, true for each code redeemed. */
export function isSumoOf(codes: number): Record<`code${number}`, boolean> {
  return Object.fromEntries(Array.from({ length: SUMO_MAX_CODES }, (_, i) => [`code${i + 1}`, i < codes])) as Record<
    `code${number}`,
    boolean
  >;
}

export interface RoleSources {
  /** the subscription's role, and its status ('none' or absent: never subscribed) */
  readonly subscriptionRole?: string | null;
  readonly status?: string | null;
  readonly sumoCodes?: number | null;
}

/**
 * The enforced plan: the higher tier of a live subscription's role and the lifetime codes'
 * tier. A subscription that is over (canceled, incomplete_expired) or never paid gives free.
 */
export function effectiveRole(src: RoleSources): Role {
  const fromSubscription: Role =
    isLiveStatus(src.status) && isRole(src.subscriptionRole) ? src.subscriptionRole : DEFAULT_ROLE;
  const fromCodes = sumoRoleOf(src.sumoCodes ?? 0);
  return tierRank(fromCodes) > tierRank(fromSubscription) ? fromCodes : fromSubscription;
}

/** The higher tier of two plans (the first on a tie). */
export function higherTier(a: Role, b: Role): Role {
  return tierRank(b) > tierRank(a) ? b : a;
}

/**
 * The plan an account has apart from lifetime codes: its subscription's while one is live
 * (free once it is over); an account that never subscribed keeps the role it was given
 * (sign-up's free, a seeded or granted plan).
 */
export function baseRoleOf(p: {
  role?: string | null;
  subscriptionId?: string | null;
  subscriptionRole?: string | null;
  status?: string | null;
}): Role {
  if (p.subscriptionId)
    return effectiveRole({ subscriptionRole: p.subscriptionRole ?? null, status: p.status ?? null });
  return isRole(p.role) ? p.role : DEFAULT_ROLE;
}

/** What domain/blocking.ts reads for an account (BlockingUser), given its stored fields. */
export interface AccountStanding {
  readonly role?: string | null;
  readonly status?: string | null;
  readonly trialEnd?: number | null;
  readonly subscriptionRole?: string | null;
  readonly sumoCodes?: number | null;
}

/**
 * The status and trial end that decide blocking: when the lifetime codes alone give the enforced
 * plan (their tier at least the subscription's), no subscription status blocks it: the codes
 * are paid for once, forever.
 */
export function blockingOf(p: AccountStanding): { role: string; status: string | null; trialEnd: number | null } {
  const role = p.role ?? DEFAULT_ROLE;
  const codes = p.sumoCodes ?? 0;
  if (codes > 0 && tierRank(sumoRoleOf(codes)) >= tierRank(role)) return { role, status: 'active', trialEnd: null };
  return { role, status: p.status ?? null, trialEnd: p.trialEnd ?? null };
}

// ---- time ----------------------------------------------------------------------------------------

/** Whole days left in a trial, rounded up (6 days and 1 hour: 7); null unless trialing. */
export function trialDaysLeft(
  status: string | null | undefined,
  trialEnd: number | null | undefined,
  now: number,
): number | null {
  if (status !== 'trialing' || trialEnd == null) return null;
  return Math.max(0, Math.ceil((trialEnd - now) / DAY_MS));
}

/** Until when the 30-day no-risk refund is offered (epoch ms), or null: no charge yet, or the window is over. */
export function refundableUntil(
  firstChargeAt: number | null | undefined,
  now: number,
  refundDays = REFUND_DAYS,
): number | null {
  if (firstChargeAt == null) return null;
  const until = firstChargeAt + refundDays * DAY_MS;
  return now < until ? until : null;
}

/**
 * "Now" for billing answers: the wall clock, or the newest provider event's time when that is
 * later. The simulator's clock runs ahead of the wall clock (like a Stripe test clock), and
 * its events say how far it has gone; Stripe's events are never ahead.
 */
export function billingNow(wallClock: number, billingUpdatedAt: number | null | undefined): number {
  return Math.max(wallClock, billingUpdatedAt ?? 0);
}

// ---- out-of-order events -------------------------------------------------------------------------

export interface StoredBilling {
  readonly subscriptionId?: string | null;
  readonly status?: string | null;
  readonly billingUpdatedAt?: number | null;
}

/**
 * Whether a subscription state may replace what is stored: 'apply', 'stale' (older than the
 * stored state: the newest wins), 'same-time' (as old as the stored one: the provider's current
 * object decides) or 'other' (a subscription that is over, while another one is live: a late
 * event of an old subscription never ends the new one).
 */
export function stateDecision(
  stored: StoredBilling,
  next: Pick<BillingState, 'subscriptionId' | 'status' | 'at'>,
): 'apply' | 'stale' | 'same-time' | 'other' {
  const sameSubscription = !stored.subscriptionId || stored.subscriptionId === next.subscriptionId;
  if (!sameSubscription && isLiveStatus(stored.status) && !isLiveStatus(next.status)) return 'other';
  const storedAt = stored.billingUpdatedAt ?? null;
  if (storedAt === null || next.at > storedAt) return 'apply';
  if (next.at < storedAt) return 'stale';
  return 'same-time';
}

// ---- views ---------------------------------------------------------------------------------------

export interface ViewInput {
  /** the user's subscription (the provider's object), null when none */
  readonly subscription: SubscriptionObject | null;
  readonly customer: CustomerObject | null;
  readonly sumoCodes: number;
  /** epoch ms of the first non-zero paid invoice */
  readonly firstChargeAt: number | null;
  /** billingNow() */
  readonly now: number;
  /**
   * The plan the account holds apart from a subscription (baseRoleOf: a seeded or granted plan, a
   * lifetime deal): shown while no subscription is live, so billing agrees with the account page.
   */
  readonly heldRole?: Role;
}

const major = (minor: number | null | undefined): number | null => (typeof minor === 'number' ? minor / 100 : null);

/** spec §3 Subscription view. */
export function subscriptionView(input: ViewInput): SubscriptionView {
  const sub = input.subscription;
  const price = sub ? priceOf(sub) : null;
  const status: SubscriptionStatus = sub?.status ?? 'none';
  const trialEnd = ms(sub?.trial_end);
  const live = isLiveStatus(status);
  const periodEnd = ms(sub?.current_period_end);
  const pending = sub?.pending_price ?? null;
  const discount = sub?.discount ?? input.customer?.discount ?? null;
  const paid = effectiveRole({
    subscriptionRole: sub ? subscriptionRoleOf(sub, input.customer) : null,
    status,
    sumoCodes: input.sumoCodes,
  });
  const role = !live && input.heldRole ? higherTier(paid, input.heldRole) : paid;
  return {
    status,
    role,
    nickname: price?.nickname ?? null,
    amount: major(price?.unit_amount),
    currency: price?.currency ?? null,
    period: price?.recurring?.interval ?? null,
    priceId: price?.id ?? null,
    trialDaysLeft: trialDaysLeft(status, trialEnd, input.now),
    trialEnd: status === 'trialing' ? trialEnd : null,
    renewalDate: live ? periodEnd : null,
    cancelAtPeriodEnd: live && sub?.cancel_at_period_end === true,
    pendingChange:
      live && pending?.recurring && periodEnd !== null
        ? {
            priceId: pending.id,
            role: resolveRole({ planRole: pending.metadata.role ?? null }),
            period: pending.recurring.interval,
            at: periodEnd,
          }
        : null,
    card: cardFrom(sub, input.customer),
    refundableUntil: live ? refundableUntil(input.firstChargeAt, input.now) : null,
    sumoCodes: Math.min(Math.max(0, input.sumoCodes), SUMO_MAX_CODES),
    discount: discount
      ? {
          code: discount.coupon.id,
          percentOff: discount.coupon.percent_off,
          amountOff: major(discount.coupon.amount_off),
        }
      : null,
  };
}

/** The subscription the billing page is about: the stored one if the customer still has it, else the newest live one, else the newest. */
export function currentSubscription(
  customer: CustomerObject | null,
  storedId: string | null | undefined,
): SubscriptionObject | null {
  const subs = customer?.subscriptions?.data ?? [];
  return subs.find((s) => s.id === storedId) ?? subs.find((s) => isLiveStatus(s.status)) ?? subs[0] ?? null;
}

/** GET /getStripeData: spec §7's shape (Stripe's units: minor amounts, epoch seconds) plus the view. */
export function stripeDataResponse(input: ViewInput): StripeDataResponse {
  const { customer, subscription } = input;
  const view = subscriptionView(input);
  if (!customer) return { customer: null, view };
  const pm = customer.invoice_settings.default_payment_method;
  const subs = subscription ? [subscription] : [];
  return {
    customer: {
      id: customer.id,
      metadata: isRole(customer.metadata.role) ? { role: customer.metadata.role } : {},
      subscriptions: {
        data: subs.map((s) => {
          const price = priceOf(s);
          return {
            id: s.id,
            status: s.status,
            plan: {
              id: price?.id ?? '',
              nickname: price?.nickname ?? null,
              amount: price?.unit_amount ?? 0,
              interval: price?.recurring?.interval ?? 'month',
              metadata: price && isRole(price.metadata.role) ? { role: price.metadata.role } : {},
            },
            trial_end: s.trial_end,
            current_period_end: s.current_period_end,
            cancel_at_period_end: s.cancel_at_period_end,
          };
        }),
      },
      invoice_settings: {
        default_payment_method:
          pm && typeof pm !== 'string'
            ? {
                id: pm.id,
                card: {
                  brand: pm.card.brand,
                  last4: pm.card.last4,
                  exp_month: pm.card.exp_month,
                  exp_year: pm.card.exp_year,
                },
              }
            : null,
      },
      discount: customer.discount ? { coupon: { ...customer.discount.coupon } } : null,
    },
    view,
  };
}

/** A plan change: up (now, prorated), down (at the period end) or the same plan (refused). */
export function changeDirection(
  from: { role: Role; period: BillingPeriod | null; priceId: string | null },
  to: { role: Role; period: BillingPeriod; priceId: string },
): 'upgrade' | 'downgrade' | 'same' {
  if (from.priceId === to.priceId) return 'same';
  const a = tierRank(from.role);
  const b = tierRank(to.role);
  if (b > a) return 'upgrade';
  if (b < a) return 'downgrade';
  // Same plan, other period: yearly is the bigger commitment, so month -> year is charged now.
  return to.period === 'year' ? 'upgrade' : 'downgrade';
}
