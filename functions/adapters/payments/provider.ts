/**
 * The payments interface. Two providers implement it: `stripe` (Stripe's API through
 * the `stripe` SDK) and `simulated` (a local provider whose customers, subscriptions, invoices
 * and clock live in the table and whose checkout screen is part of the app). Everything above
 * it (routes, the webhook handler, role changes, limit screens) runs the same code in both.
 *
 * Objects and events come back in Stripe's shapes (the subset below), so the webhook handler
 * and the views read one shape. Times are epoch SECONDS, amounts are minor units (cents), as
 * in Stripe's API; the HTTP contract (functions/domain/billing-api.ts) converts to ms / major units.
 */
import type { BillingPeriod, PaymentsProviderName, PriceView, SubscriptionStatus } from '../../domain/billing-api';

export interface PaymentCard {
  readonly brand: string;
  readonly last4: string;
  readonly exp_month: number;
  readonly exp_year: number;
}

export interface PaymentMethodObject {
  readonly id: string;
  readonly object: 'payment_method';
  readonly card: PaymentCard;
}

export interface PriceObject {
  readonly id: string;
  readonly object: 'price';
  readonly nickname: string | null;
  /** minor units */
  readonly unit_amount: number;
  readonly currency: string;
  /** absent or null on a one-time price (Stripe sends such items too): no billing period */
  readonly recurring?: { readonly interval: BillingPeriod } | null;
  /** `role`: the plan this price pays for (spec §6: role from the subscription plan's metadata) */
  readonly metadata: { readonly role?: string };
  readonly product?: string;
}

/** A price billed every period: every price on sale is one (the simulator's, Stripe's configured ones). */
export type RecurringPriceObject = PriceObject & { readonly recurring: { readonly interval: BillingPeriod } };

export interface SubscriptionObject {
  readonly id: string;
  readonly object: 'subscription';
  readonly customer: string;
  readonly status: Exclude<SubscriptionStatus, 'none'>;
  readonly items: { readonly data: readonly { readonly id: string; readonly price: PriceObject; readonly current_period_end?: number }[] };
  readonly trial_end: number | null;
  readonly current_period_start?: number;
  readonly current_period_end: number;
  readonly cancel_at_period_end: boolean;
  readonly canceled_at: number | null;
  readonly created: number;
  readonly metadata: Record<string, string>;
  readonly default_payment_method: string | PaymentMethodObject | null;
  readonly discount?: { readonly coupon: { readonly id: string; readonly percent_off: number | null; readonly amount_off: number | null } } | null;
  /** a downgrade waiting for the period end (Stripe: a subscription schedule's next phase) */
  readonly pending_price?: PriceObject | null;
}

export interface CustomerObject {
  readonly id: string;
  readonly object: 'customer';
  readonly email: string | null;
  readonly name?: string | null;
  readonly metadata: Record<string, string>;
  readonly invoice_settings: { readonly default_payment_method: string | PaymentMethodObject | null };
  readonly discount?: SubscriptionObject['discount'];
  /** the customer's subscriptions, newest first (Stripe: expand[]=subscriptions) */
  readonly subscriptions?: { readonly data: readonly SubscriptionObject[] };
}

export interface InvoiceObject {
  readonly id: string;
  readonly object: 'invoice';
  readonly number: string | null;
  readonly customer: string;
  readonly subscription: string | null;
  readonly created: number;
  readonly total: number;
  readonly amount_paid: number;
  readonly currency: string;
  readonly status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  readonly invoice_pdf: string | null;
  readonly hosted_invoice_url: string | null;
  /** refunded amount of the invoice's charge, minor units */
  readonly amount_refunded?: number;
}

export interface CheckoutSessionObject {
  readonly id: string;
  readonly object: 'checkout.session';
  readonly mode: 'subscription' | 'setup';
  readonly status: 'open' | 'complete' | 'expired';
  readonly client_secret: string;
  readonly client_reference_id: string | null;
  readonly customer: string | null;
  readonly customer_email: string | null;
  readonly subscription: string | null;
  readonly metadata: Record<string, string>;
}

/** The events the webhook handles, as Stripe sends them. */
export type PaymentEventType =
  | 'checkout.session.completed'
  | 'customer.subscription.created'
  | 'customer.subscription.updated'
  | 'customer.subscription.deleted'
  | 'customer.subscription.trial_will_end'
  | 'invoice.paid'
  | 'invoice.payment_failed';

export interface PaymentEvent {
  readonly id: string;
  readonly object: 'event';
  readonly type: PaymentEventType | (string & {});
  /** epoch seconds */
  readonly created: number;
  readonly data: { readonly object: SubscriptionObject | InvoiceObject | CheckoutSessionObject | Record<string, unknown> };
}

/** Why a webhook was refused: each is a 400 with this code. */
export type WebhookRefusal = 'invalid_signature' | 'signature_too_old' | 'invalid_event';

export class WebhookError extends Error {
  constructor(readonly code: WebhookRefusal, message: string) {
    super(message);
    this.name = 'WebhookError';
  }
}

/** A card problem in the provider's words (spec §8: card errors are shown as the provider words them). */
export class CardError extends Error {
  constructor(readonly code: string, message: string, readonly declineCode?: string) {
    super(message);
    this.name = 'CardError';
  }
}

/** The provider refused a request as invalid (Stripe's invalid_request_error): the page reloads (spec §8). */
export class InvalidRequestError extends Error {
  constructor(readonly code: string, message: string, readonly param?: string) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}

export interface CreateCheckoutInput {
  readonly price: PriceView;
  readonly userId: string;
  readonly customerEmail: string;
  /** reuse the user's customer when they have one */
  readonly customerId?: string;
  readonly fullName?: string;
  readonly referrer?: string;
  readonly clientReferenceId?: string;
  /** a coupon id or promotion code, passed through */
  readonly couponId?: string;
  readonly trialDays: number;
  /** absolute URL the checkout returns to, with `{CHECKOUT_SESSION_ID}` where the id goes */
  readonly returnUrl: string;
}

export interface PaymentsProvider {
  readonly name: PaymentsProviderName;
  /** Stripe's publishable key; null for the simulator */
  readonly publishableKey: string | null;
  /** the prices on sale (from configuration for Stripe, built in for the simulator) */
  prices(): Promise<readonly PriceView[]>;
  /** an embedded Checkout Session in subscription mode, trial, card required, `metadata.userId` set */
  createCheckoutSession(input: CreateCheckoutInput): Promise<CheckoutSessionObject>;
  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionObject | null>;
  /** the customer with their subscriptions (newest first) and default payment method expanded */
  retrieveCustomer(customerId: string): Promise<CustomerObject | null>;
  /** a SetupIntent to collect a new card */
  createSetupIntent(customerId: string): Promise<{ readonly id: string; readonly client_secret: string }>;
  /** the payment method becomes the customer's and their live subscription's default */
  setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<PaymentMethodObject>;
  /** upgrade now with proration (`now`), or change at the period end (`period_end`) */
  changePrice(subscriptionId: string, priceId: string, when: 'now' | 'period_end'): Promise<SubscriptionObject>;
  /** cancel at period end (true) or resume (false) */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<SubscriptionObject>;
  /** refund every paid invoice of the subscription and cancel it now */
  refundAndCancel(subscriptionId: string): Promise<{ readonly refunded: number; readonly subscription: SubscriptionObject }>;
  listInvoices(customerId: string): Promise<readonly InvoiceObject[]>;
  /**
   * Verifies `Stripe-Signature` (t=..., v1=HMAC-SHA256 of `${t}.${rawBody}` with the webhook
   * secret) within the tolerance and parses the event; throws WebhookError.
   */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined, nowSeconds: number): Promise<PaymentEvent>;
}
