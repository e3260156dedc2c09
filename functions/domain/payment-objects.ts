/**
 * The payment provider's objects in Stripe's shapes (the subset SendBridge reads): what the
 * payments adapters return and the billing rules (billing.ts) read. Here, in the domain, so
 * those rules depend on no adapter; functions/adapters/payments/provider.ts re-exports them.
 * Times are epoch SECONDS, amounts minor units (cents), as in Stripe's API.
 */
import type { BillingPeriod, SubscriptionStatus } from './billing-api';

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
  readonly items: {
    readonly data: readonly {
      readonly id: string;
      readonly price: PriceObject;
      readonly current_period_end?: number;
    }[];
  };
  readonly trial_end: number | null;
  readonly current_period_start?: number;
  readonly current_period_end: number;
  readonly cancel_at_period_end: boolean;
  readonly canceled_at: number | null;
  readonly created: number;
  readonly metadata: Record<string, string>;
  readonly default_payment_method: string | PaymentMethodObject | null;
  readonly discount?: {
    readonly coupon: { readonly id: string; readonly percent_off: number | null; readonly amount_off: number | null };
  } | null;
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
