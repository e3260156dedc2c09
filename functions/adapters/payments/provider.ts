/**
 * The payments interface. Two providers implement it: `stripe` (Stripe's API through
 * the `stripe` SDK) and `simulated` (a local provider whose customers, subscriptions, invoices
 * and clock live in the table and whose checkout screen is part of the app). Everything above
 * it (routes, the webhook handler, role changes, limit screens) runs the same code in both.
 *
 * Objects and events come back in Stripe's shapes (the subset in domain/payment-objects.ts and
 * below), so the webhook handler and the views read one shape. Times are epoch SECONDS, amounts are minor units (cents), as
 * in Stripe's API; the HTTP contract (functions/domain/billing-api.ts) converts to ms / major units.
 */
import type { PaymentsProviderName, PriceView } from '../../domain/billing-api';
import type {
  CheckoutSessionObject,
  CustomerObject,
  InvoiceObject,
  PaymentMethodObject,
  SubscriptionObject,
} from '../../domain/payment-objects';

// The objects' shapes are the domain's (billing rules read them); callers keep importing them from here.
export type {
  PaymentCard,
  PaymentMethodObject,
  PriceObject,
  RecurringPriceObject,
  SubscriptionObject,
  CustomerObject,
  InvoiceObject,
  CheckoutSessionObject,
} from '../../domain/payment-objects';

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
  readonly data: {
    readonly object: SubscriptionObject | InvoiceObject | CheckoutSessionObject | Record<string, unknown>;
  };
}

/** Why a webhook was refused: each is a 400 with this code. */
export type WebhookRefusal = 'invalid_signature' | 'signature_too_old' | 'invalid_event';

export class WebhookError extends Error {
  constructor(
    readonly code: WebhookRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}

/** A card problem in the provider's words (spec §8: card errors are shown as the provider words them). */
export class CardError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly declineCode?: string,
  ) {
    super(message);
    this.name = 'CardError';
  }
}

/** The provider refused a request as invalid (Stripe's invalid_request_error): the page reloads (spec §8). */
export class InvalidRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
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
  refundAndCancel(
    subscriptionId: string,
  ): Promise<{ readonly refunded: number; readonly subscription: SubscriptionObject }>;
  listInvoices(customerId: string): Promise<readonly InvoiceObject[]>;
  /**
   * Verifies `Stripe-Signature` (t=..., v1=HMAC-SHA256 of `${t}.${rawBody}` with the webhook
   * secret) within the tolerance and parses the event; throws WebhookError.
   */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined, nowSeconds: number): Promise<PaymentEvent>;
}
