/**
 * Plans and billing (spec §1 7-day trial, card required, 30-day no-risk refund,
 * embedded card payment; §2 /pricing, /register step 3, /dash/account tab 1,
 * /dash/account/billing, /appsumoforever, /thankyou2; §3 Subscription view, Checkout request,
 * User.stripeId, isSumo; §6 role from the subscription; §7 GET /getStripeData, POST /addCard,
 * POST /create-subscription, POST /stripe/createSubscription; §8 card errors). The contract
 * between the API, the pricing / checkout / billing screens and the tests.
 *
 * Two payment providers sit behind one interface (functions/adapters/payments/): `stripe`
 * (Stripe's API and its embedded Checkout) and `simulated` (a local provider with its own
 * checkout screen inside the app, the default for `npm start` and the tests). The browser
 * learns which one runs from GET /billing/config and mounts that provider's checkout.
 *
 *   GET  /billing/config               (public) provider, publishable key, the prices on sale  -> 200 BillingConfigResponse
 *   POST /stripe/createSubscription    (JWT) CheckoutRequest: a Checkout Session, embedded,
 *                                      subscription mode, 7-day trial, card required          -> 200 CheckoutResponse
 *                                      400 unknown_price | 403 not_your_account | 403 team_member_billing
 *                                      | 409 already_subscribed (a live subscription: change plan instead)
 *   GET  /getStripeData                (JWT) the caller's customer and subscription (spec §7 shape) and
 *                                      the Subscription view of spec §3                       -> 200 StripeDataResponse
 *                                      (no customer yet: 200 with customer null, view.status 'none')
 *   POST /billing/setup-intent         (JWT) a SetupIntent to replace the card                 -> 200 SetupIntentResponse
 *   POST /addCard                      (JWT) { paymentMethodId }: the confirmed card becomes the
 *                                      subscription's and customer's default                  -> 200 { card: CardView }
 *                                      402 card error (code and message as the provider words them)
 *   POST /create-subscription          (JWT) ChangePlanRequest: change plan or period          -> 200 StripeDataResponse
 *                                      upgrade now (prorated), downgrade at period end;
 *                                      409 no_subscription | 409 plan_unchanged
 *                                      | 409 storage_exceeds_plan (details { used, limit, role })
 *   POST /billing/cancel               (JWT) { cancel: true } at period end, { cancel: false } resumes -> 200 StripeDataResponse
 *   POST /billing/refund               (JWT) the 30-day no-risk refund: refunds the charges and
 *                                      ends the subscription now                              -> 200 StripeDataResponse
 *                                      409 no_subscription | 409 refund_window_over | 409 nothing_to_refund
 *   GET  /billing/invoices             (JWT) the caller's invoices, newest first               -> 200 InvoicesResponse
 *   POST /stripe/webhook               (no JWT) raw body + `Stripe-Signature`; verified (300 s tolerance),
 *                                      idempotent by event id                                 -> 200 { received: true }
 *                                      400 invalid_signature | signature_too_old | invalid_event
 *   POST /appsumo/redeem               (JWT) { code }: a lifetime code                         -> 200 RedeemResponse
 *                                      400 invalid_code | 409 code_already_used | 409 sumo_codes_full
 *
 * Simulated provider only (404 not_found when PAYMENTS=stripe):
 *   GET  /payments/simulated/checkout?clientSecret=   (JWT, owner) the session the screen shows -> 200 SimulatedSessionView
 *   POST /payments/simulated/checkout   (JWT, owner) SimulatedCardInput for a checkout session   -> 200 { status: 'complete', returnUrl }
 *   POST /payments/simulated/setup      (JWT, owner) SimulatedCardInput for a SetupIntent        -> 200 { paymentMethodId }
 *                                       402 card errors in Stripe's words, e.g.
 *                                       card_declined 'Your card was declined.',
 *                                       incorrect_number 'Your card number is incorrect.',
 *                                       invalid_expiry_year "Your card's expiration year is invalid.",
 *                                       invalid_cvc "Your card's security code is invalid."
 *
 * Only the provider's verified state chooses a role: the browser's price, client_reference_id,
 * role or metadata never do (spec §6: role from the price's plan metadata, else the
 * customer's metadata, else free).
 */
import * as z from 'zod/mini';
import { LADDER_ROLES, type Role } from './plans';

export type PaymentsProviderName = 'stripe' | 'simulated';
export type BillingPeriod = 'month' | 'year';

/** A price on sale: personal 12 / 108, pro 29 / 228, business 69 / 588 (spec §9), in whole currency units. */
export interface PriceView {
  /** the provider's price id (Stripe `price_...`, from configuration; simulated: `price_sim_<role>_<period>`) */
  readonly priceId: string;
  readonly role: Role;
  readonly period: BillingPeriod;
  /** in the currency's major unit, e.g. 29 */
  readonly amount: number;
  /** ISO 4217, lower case, as Stripe writes it */
  readonly currency: string;
  /** e.g. 'Pro monthly' */
  readonly nickname: string;
}

export interface BillingConfigResponse {
  readonly provider: PaymentsProviderName;
  /** Stripe's publishable key (pk_...) when provider is stripe; null for the simulator */
  readonly publishableKey: string | null;
  readonly prices: readonly PriceView[];
  readonly trialDays: number;
  readonly refundDays: number;
  /** plans the spec gives no price for (businessplus and above): offered as 'Contact us' */
  readonly contactRoles: readonly Role[];
}

const id = z.string().check(z.minLength(1), z.maxLength(255));
const shortText = z.string().check(z.maxLength(255));

/** spec §3 Checkout request; the response reads clientSecret and type. */
export const checkoutRequestSchema = z.object({
  price_id: id,
  customer_email: z.string().check(z.minLength(3), z.maxLength(254)),
  /** recorded on the session for reconciliation, never trusted for the role */
  client_reference_id: z.optional(shortText),
  /** the caller's user id (the spec's mongo_id); another user's id is 403 not_your_account */
  mongo_id: id,
  fullName: z.optional(shortText),
  stripeCode: z.optional(shortText),
  referrer: z.optional(z.string().check(z.maxLength(2048))),
  /** a coupon or promotion code passed to the provider as is */
  coupon_id: z.optional(shortText),
  name: z.optional(shortText),
});
export type CheckoutRequest = z.input<typeof checkoutRequestSchema>;

export interface CheckoutResponse {
  /** Stripe: the embedded Checkout Session's client_secret; simulated: the simulator's session secret */
  readonly clientSecret: string;
  /** which checkout the page mounts */
  readonly type: PaymentsProviderName;
  readonly sessionId: string;
}

/** spec §7 POST /create-subscription: priceId chooses the plan and period; role and trial in the body are ignored. */
export const changePlanSchema = z.object({
  priceId: id,
  stripeCustomerId: z.optional(shortText),
  SSuserId: z.optional(shortText),
  role: z.optional(shortText),
  addCardOnly: z.optional(z.boolean()),
  trial: z.optional(z.boolean()),
});
export type ChangePlanRequest = z.input<typeof changePlanSchema>;

/** spec §7 POST /addCard: the payment method the SetupIntent confirmed. */
export const addCardSchema = z.object({
  paymentMethodId: id,
  stripeCustomerId: z.optional(shortText),
  SSuserId: z.optional(shortText),
  addCardOnly: z.optional(z.boolean()),
});
export type AddCardRequest = z.input<typeof addCardSchema>;

export const cancelSchema = z.object({ cancel: z.boolean() });
export const redeemSchema = z.object({ code: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)) });

/** The simulator's card field (test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0000 0000 0341 attaches but every later charge fails). */
export const simulatedCardSchema = z.object({
  clientSecret: id,
  /** digits, spaces allowed */
  number: z.string().check(z.minLength(1), z.maxLength(32)),
  expMonth: z.number().check(z.int()),
  expYear: z.number().check(z.int()),
  cvc: z.string().check(z.maxLength(8)),
  name: z.optional(shortText),
  postalCode: z.optional(z.string().check(z.maxLength(16))),
});
export type SimulatedCardInput = z.input<typeof simulatedCardSchema>;

export interface SimulatedSessionView {
  readonly sessionId: string;
  readonly mode: 'subscription' | 'setup';
  readonly customerEmail: string;
  readonly price: PriceView | null;
  readonly trialDays: number;
  /** 'open' until paid; 'complete' after; 'expired' after 24 h */
  readonly status: 'open' | 'complete' | 'expired';
  /** where the page goes when complete: /thankyou2?session_id=... */
  readonly returnUrl: string;
}

export interface SetupIntentResponse {
  readonly clientSecret: string;
  readonly type: PaymentsProviderName;
}

export interface CardView {
  readonly brand: string;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
}

/** User.status mirrors the subscription; 'none' when there never was one. */
export type SubscriptionStatus =
  | 'none'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'unpaid'
  | 'canceled'
  | 'incomplete'
  | 'incomplete_expired'
  | 'paused';

/** spec §3 Subscription view: status, amount, nickname, trial days, trial end, renewal date, role, period, card. */
export interface SubscriptionView {
  readonly status: SubscriptionStatus;
  readonly role: Role;
  readonly nickname: string | null;
  /** major units */
  readonly amount: number | null;
  readonly currency: string | null;
  readonly period: BillingPeriod | null;
  readonly priceId: string | null;
  /** whole days left in the trial (rounded up), when trialing */
  readonly trialDaysLeft: number | null;
  /** epoch ms */
  readonly trialEnd: number | null;
  /** epoch ms: the next charge, or when a cancelled subscription ends */
  readonly renewalDate: number | null;
  readonly cancelAtPeriodEnd: boolean;
  /** a downgrade waiting for the period end */
  readonly pendingChange: {
    readonly priceId: string;
    readonly role: Role;
    readonly period: BillingPeriod;
    readonly at: number;
  } | null;
  readonly card: CardView | null;
  /** epoch ms until which the 30-day refund is offered; null when not (no charge yet, or window over) */
  readonly refundableUntil: number | null;
  /** lifetime codes redeemed (0-8) and the tier they give */
  readonly sumoCodes: number;
  readonly discount: {
    readonly code: string | null;
    readonly percentOff: number | null;
    readonly amountOff: number | null;
  } | null;
}

/** GET /getStripeData: the spec's shape (metadata.role, subscriptions.data[0], invoice_settings, discount) plus the view. */
export interface StripeDataResponse {
  readonly customer: {
    readonly id: string;
    readonly metadata: { readonly role?: string };
    readonly subscriptions: {
      readonly data: readonly {
        readonly id: string;
        readonly status: SubscriptionStatus;
        readonly plan: {
          readonly id: string;
          readonly nickname: string | null;
          readonly amount: number;
          readonly interval: BillingPeriod;
          readonly metadata: { readonly role?: string };
        };
        /** epoch seconds, as Stripe */
        readonly trial_end: number | null;
        readonly current_period_end: number;
        readonly cancel_at_period_end: boolean;
      }[];
    };
    readonly invoice_settings: {
      readonly default_payment_method: {
        readonly id: string;
        readonly card: {
          readonly brand: string;
          readonly last4: string;
          readonly exp_month: number;
          readonly exp_year: number;
        };
      } | null;
    };
    readonly discount: {
      readonly coupon: { readonly id: string; readonly percent_off: number | null; readonly amount_off: number | null };
    } | null;
  } | null;
  readonly view: SubscriptionView;
}

export interface InvoiceView {
  readonly id: string;
  readonly number: string | null;
  /** epoch ms */
  readonly created: number;
  /** major units */
  readonly total: number;
  readonly amountPaid: number;
  readonly currency: string;
  readonly status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  /** Stripe's invoice PDF; null for the simulator */
  readonly pdfUrl: string | null;
  /** Stripe's hosted invoice page; the simulator's is an app page (/dash/account/billing/invoices/{id}) */
  readonly hostedUrl: string | null;
  readonly refunded: boolean;
}

export interface InvoicesResponse {
  readonly invoices: readonly InvoiceView[];
}

/** Lifetime codes (spec §3 isSumo code1..code8): each stacks to the next plan tier. */
export const SUMO_MAX_CODES = 8;
export const SUMO_TIERS: readonly Role[] = LADDER_ROLES;

export interface RedeemResponse {
  readonly codesRedeemed: number;
  /** the tier the codes give */
  readonly sumoRole: Role;
  /** the enforced role now (the higher of the subscription's and the codes') */
  readonly role: Role;
}

/** How long a webhook's signed timestamp is accepted (Stripe's default tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** trial_will_end arrives this long before the trial ends (as Stripe sends it). */
export const TRIAL_WILL_END_DAYS = 3;
/** The mail's link (spec §2: /?ref=trial_ending goes to Login). */
export const TRIAL_ENDING_PATH = '/?ref=trial_ending';
