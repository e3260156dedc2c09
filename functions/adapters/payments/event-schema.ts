/**
 * The payment events the webhook acts on, as a schema: the envelope and, for each handled
 * type, the fields of its object the handler reads, with the bounds a real provider keeps
 * (Stripe's id alphabet and 255 characters, metadata keys of 40 and values of 500 characters,
 * epoch seconds a date can hold). A signed event outside it is refused with 400 `invalid_event`
 * before any of it is used, so no shape a provider may send reaches the code as a surprise.
 * Objects stay open (`looseObject`): providers add fields, and the handler ignores them.
 */
import * as z from 'zod/mini';

/** Stripe's ids: `cus_…`, `sub_…`, `evt_…` (letters, digits, underscores; at most 255). */
export const PAYMENT_ID_PATTERN = /^[A-Za-z0-9_]{1,255}$/u;
/** 9999-12-31T23:59:59Z: later seconds make no date (and their milliseconds pass 2^53). */
export const MAX_EPOCH_SECONDS = 253_402_300_799;
/** Amounts in minor units up to ten billion of a currency: more than any price or invoice of ours. */
const MAX_MINOR_AMOUNT = 1_000_000_000_000;

export const SUBSCRIPTION_EVENT_TYPES = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
] as const;
export const INVOICE_EVENT_TYPES = ['invoice.paid', 'invoice.payment_failed'] as const;
export const CHECKOUT_EVENT_TYPES = ['checkout.session.completed'] as const;
/** Every type the webhook handles; others are acknowledged and ignored. */
export const HANDLED_EVENT_TYPES: readonly string[] = [
  ...CHECKOUT_EVENT_TYPES,
  ...SUBSCRIPTION_EVENT_TYPES,
  ...INVOICE_EVENT_TYPES,
];

const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;

const paymentId = z.string().check(z.regex(PAYMENT_ID_PATTERN));
const epochSeconds = z.number().check(z.int(), z.gte(0), z.lte(MAX_EPOCH_SECONDS));
const minorAmount = z.number().check(z.int(), z.gte(0), z.lte(MAX_MINOR_AMOUNT));
const metadata = z.record(z.string().check(z.maxLength(40)), z.string().check(z.maxLength(500)));

const priceSchema = z.looseObject({
  id: paymentId,
  object: z.literal('price'),
  nickname: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
  // null for tiered prices
  unit_amount: z.optional(z.nullable(minorAmount)),
  currency: z.string().check(z.regex(/^[a-z]{3}$/u)),
  // a one-time price has none: such a subscription item has no billing period
  recurring: z.optional(z.nullable(z.looseObject({ interval: z.enum(['month', 'year']) }))),
  metadata,
});

// Zeros and '' are what the Stripe mapping gives a payment method without card details.
const cardSchema = z.looseObject({
  brand: z.string().check(z.minLength(1), z.maxLength(40)),
  last4: z.string().check(z.regex(/^[0-9]{0,4}$/u)),
  exp_month: z.number().check(z.int(), z.gte(0), z.lte(12)),
  exp_year: z.number().check(z.int(), z.gte(0), z.lte(9999)),
});

const paymentMethodSchema = z.union([
  paymentId,
  z.looseObject({ id: paymentId, object: z.literal('payment_method'), card: cardSchema }),
]);

export const subscriptionObjectSchema = z.looseObject({
  id: paymentId,
  object: z.literal('subscription'),
  customer: paymentId,
  status: z.enum(SUBSCRIPTION_STATUSES),
  items: z.looseObject({
    data: z
      .array(
        z.looseObject({ id: z.optional(paymentId), price: priceSchema, current_period_end: z.optional(epochSeconds) }),
      )
      .check(z.maxLength(20)),
  }),
  trial_end: z.optional(z.nullable(epochSeconds)),
  current_period_end: z.optional(z.nullable(epochSeconds)),
  cancel_at_period_end: z.optional(z.boolean()),
  metadata: z.optional(metadata),
  default_payment_method: z.optional(z.nullable(paymentMethodSchema)),
});

export const invoiceObjectSchema = z.looseObject({
  id: paymentId,
  object: z.literal('invoice'),
  customer: paymentId,
  subscription: z.optional(z.nullable(paymentId)),
  amount_paid: minorAmount,
});

/** The event's copy of the session is a hint: the handler reads the provider's own by this id. */
export const checkoutSessionObjectSchema = z.looseObject({
  id: paymentId,
  object: z.literal('checkout.session'),
});

const envelope = {
  id: paymentId,
  object: z.literal('event'),
  created: epochSeconds,
};

/** Any event: the envelope every type shares (an unhandled type is then ignored). */
export const paymentEventEnvelopeSchema = z.looseObject({
  ...envelope,
  type: z.string().check(z.minLength(1), z.maxLength(100)),
  data: z.looseObject({ object: z.record(z.string(), z.unknown()) }),
});

/** The handled events, each type with its object's shape: the schema the webhook checks and its fuzz test draws from. */
export const paymentEventSchema = z.union([
  z.looseObject({
    ...envelope,
    type: z.enum(SUBSCRIPTION_EVENT_TYPES),
    data: z.looseObject({ object: subscriptionObjectSchema }),
  }),
  z.looseObject({
    ...envelope,
    type: z.enum(INVOICE_EVENT_TYPES),
    data: z.looseObject({ object: invoiceObjectSchema }),
  }),
  z.looseObject({
    ...envelope,
    type: z.enum(CHECKOUT_EVENT_TYPES),
    data: z.looseObject({ object: checkoutSessionObjectSchema }),
  }),
]);
