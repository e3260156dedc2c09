/**
 * The Stripe provider (PAYMENTS=stripe): Stripe's API through the `stripe` SDK on its fetch
 * HTTP client, answering in the interface's shapes (provider.ts). Keys come from Secrets
 * Manager once per cold start (stripe-keys.ts); the SDK itself is loaded on first use, so the
 * simulator's deployments never evaluate it (docs/decisions/, "Payments providers").
 *
 * Stripe's current API (the SDK's pinned version) moved a few fields the interface keeps where
 * the webhook handler and the views read them; this module puts them back:
 * - a subscription's period lives on its items: `current_period_start/end` are the first item's;
 * - an invoice's subscription is `parent.subscription_details.subscription`;
 * - a downgrade at period end is a subscription schedule's next phase: `pending_price`;
 * - a refunded invoice is marked with metadata `sendbridge_refunded` (minor units) when
 *   refundAndCancel refunds its payment, read back as `amount_refunded`.
 */
import type Stripe from 'stripe';
import type { BillingPeriod, PriceView } from '../../domain/billing-api';
import { WEBHOOK_TOLERANCE_SECONDS } from '../../domain/billing-api';
import { isRole, PLANS, type Role } from '../../domain/plans';
import {
  CardError,
  InvalidRequestError,
  WebhookError,
  type CheckoutSessionObject,
  type CreateCheckoutInput,
  type CustomerObject,
  type InvoiceObject,
  type PaymentEvent,
  type PaymentMethodObject,
  type PaymentsProvider,
  type PriceObject,
  type SubscriptionObject,
} from './provider';
import { parseEvent } from './signature';
import type { StripeKeysLoader } from './stripe-keys';

type StripeClass = typeof Stripe;

/** Metadata key of the refunded amount that refundAndCancel writes on an invoice. */
export const REFUNDED_METADATA_KEY = 'sendbridge_refunded';

export interface StripeProviderOptions {
  readonly keys: StripeKeysLoader;
  /** `role/period` -> price id (STRIPE_PRICES) */
  readonly prices: Readonly<Record<string, string>>;
  /** loads the SDK (default: a dynamic import, so only Stripe deployments evaluate it) */
  readonly sdk?: () => Promise<StripeClass>;
  /** the fetch the SDK's HTTP client uses (tests record the requests through it) */
  readonly fetch?: typeof fetch;
  /** the SDK's network retries (default 2, as Stripe recommends; tests use 0) */
  readonly maxNetworkRetries?: number;
}

/**
 * Where the SDK is imported from: the `stripe` package when run from source (tests, `npm
 * start`); in a Lambda bundle, the separate chunk lib/lambda-bundles.ts writes beside
 * index.mjs (it defines STRIPE_SDK_CHUNK), so the simulator's functions never load its 246 KB.
 */
declare const STRIPE_SDK_CHUNK: string | undefined;
const STRIPE_SDK_MODULE: string = typeof STRIPE_SDK_CHUNK === 'string' ? STRIPE_SDK_CHUNK : 'stripe';

const loadSdk = async (): Promise<StripeClass> =>
  ((await import(STRIPE_SDK_MODULE)) as { default: StripeClass }).default;

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : v.id;

/** A one-time price has no period (null), rather than passing for a monthly one. */
function intervalOf(price: Stripe.Price): BillingPeriod | null {
  if (!price.recurring) return null;
  return price.recurring.interval === 'year' ? 'year' : 'month';
}

export function toPrice(price: Stripe.Price): PriceObject {
  const interval = intervalOf(price);
  return {
    id: price.id,
    object: 'price',
    nickname: price.nickname,
    unit_amount: price.unit_amount ?? 0,
    currency: price.currency,
    recurring: interval ? { interval } : null,
    metadata: { ...price.metadata },
    ...(price.product ? { product: idOf(price.product as string | { id: string })! } : {}),
  };
}

function toPaymentMethod(pm: Stripe.PaymentMethod): PaymentMethodObject {
  const card = pm.card;
  return {
    id: pm.id,
    object: 'payment_method',
    card: {
      brand: card?.brand ?? 'unknown',
      last4: card?.last4 ?? '',
      exp_month: card?.exp_month ?? 0,
      exp_year: card?.exp_year ?? 0,
    },
  };
}

function toDiscount(
  discounts: readonly (string | Stripe.Discount)[] | Stripe.Discount | null | undefined,
): SubscriptionObject['discount'] {
  const first = Array.isArray(discounts) ? discounts[0] : discounts;
  if (!first || typeof first === 'string') return null;
  const coupon = (first as Stripe.Discount).source?.coupon;
  if (!coupon || typeof coupon === 'string')
    return coupon ? { coupon: { id: coupon, percent_off: null, amount_off: null } } : null;
  return { coupon: { id: coupon.id, percent_off: coupon.percent_off ?? null, amount_off: coupon.amount_off ?? null } };
}

export function toSubscription(sub: Stripe.Subscription, pendingPrice: PriceObject | null = null): SubscriptionObject {
  const items = sub.items.data.map((i) => ({
    id: i.id,
    price: toPrice(i.price),
    current_period_end: i.current_period_end,
  }));
  const first = sub.items.data[0];
  const pm = sub.default_payment_method;
  return {
    id: sub.id,
    object: 'subscription',
    customer: idOf(sub.customer as string | { id: string })!,
    status: sub.status as SubscriptionObject['status'],
    items: { data: items },
    trial_end: sub.trial_end ?? null,
    current_period_start: first?.current_period_start ?? sub.start_date,
    current_period_end: first?.current_period_end ?? sub.start_date,
    cancel_at_period_end: sub.cancel_at_period_end,
    canceled_at: sub.canceled_at ?? null,
    created: sub.created,
    metadata: { ...sub.metadata },
    default_payment_method: pm && typeof pm !== 'string' ? toPaymentMethod(pm) : (pm ?? null),
    discount: toDiscount(sub.discounts),
    pending_price: pendingPrice,
  };
}

export function toInvoice(inv: Stripe.Invoice): InvoiceObject {
  const subscription = inv.parent?.subscription_details?.subscription ?? null;
  const refunded = Number(inv.metadata?.[REFUNDED_METADATA_KEY] ?? 0);
  return {
    id: inv.id ?? '',
    object: 'invoice',
    number: inv.number,
    customer: idOf(inv.customer as string | { id: string } | null) ?? '',
    subscription: idOf(subscription as string | { id: string } | null),
    created: inv.created,
    total: inv.total,
    amount_paid: inv.amount_paid,
    currency: inv.currency,
    status: (inv.status ?? 'draft') as InvoiceObject['status'],
    invoice_pdf: inv.invoice_pdf ?? null,
    hosted_invoice_url: inv.hosted_invoice_url ?? null,
    amount_refunded: Number.isFinite(refunded) ? refunded : 0,
  };
}

export function toCheckoutSession(s: Stripe.Checkout.Session): CheckoutSessionObject {
  return {
    id: s.id,
    object: 'checkout.session',
    mode: s.mode === 'setup' ? 'setup' : 'subscription',
    status: (s.status ?? 'open') as CheckoutSessionObject['status'],
    client_secret: s.client_secret ?? '',
    client_reference_id: s.client_reference_id,
    customer: idOf(s.customer as string | { id: string } | null),
    customer_email: s.customer_email ?? s.customer_details?.email ?? null,
    subscription: idOf(s.subscription as string | { id: string } | null),
    metadata: { ...(s.metadata ?? {}) },
  };
}

/** Runs a Stripe call with its errors in the interface's words: card errors -> CardError, invalid requests -> InvalidRequestError. */
async function mapErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { type?: string; code?: string; message?: string; decline_code?: string; param?: string };
    if (e?.type === 'StripeCardError')
      throw new CardError(e.code ?? 'card_declined', e.message ?? 'Your card was declined.', e.decline_code);
    if (e?.type === 'StripeInvalidRequestError')
      throw new InvalidRequestError(e.code ?? 'invalid_request', e.message ?? 'Invalid request', e.param);
    throw err;
  }
}

const isMissing = (err: unknown) => err instanceof InvalidRequestError && err.code === 'resource_missing';

export class StripeProvider implements PaymentsProvider {
  readonly name = 'stripe' as const;
  private client: Promise<{ stripe: Stripe; Sdk: StripeClass }> | undefined;
  private priceCache: Promise<Map<string, { view: PriceView; object: PriceObject }>> | undefined;

  constructor(private readonly opts: StripeProviderOptions) {}

  /** Stripe's publishable key once the keys are loaded (`ready()`), else null. */
  get publishableKey(): string | null {
    return this.opts.keys.current?.publishableKey ?? null;
  }

  /** Loads the keys (and with them the publishable key). */
  async ready(): Promise<void> {
    await this.opts.keys.load();
  }

  private sdk(): Promise<{ stripe: Stripe; Sdk: StripeClass }> {
    this.client ??= (async () => {
      const [Sdk, keys] = await Promise.all([(this.opts.sdk ?? loadSdk)(), this.opts.keys.load()]);
      const stripe = new Sdk(keys.secretKey, {
        httpClient: Sdk.createFetchHttpClient(this.opts.fetch),
        maxNetworkRetries: this.opts.maxNetworkRetries ?? 2,
        timeout: 20_000,
        appInfo: { name: 'SendBridge' },
      });
      return { stripe, Sdk };
    })().catch((err: unknown) => {
      this.client = undefined;
      throw err;
    });
    return this.client;
  }

  private async call<T>(fn: (stripe: Stripe) => Promise<T>): Promise<T> {
    const { stripe } = await this.sdk();
    return mapErrors(() => fn(stripe));
  }

  /** The configured prices (STRIPE_PRICES) as Stripe has them: one list call per cold start. */
  private prices_(): Promise<Map<string, { view: PriceView; object: PriceObject }>> {
    this.priceCache ??= this.call(async (stripe) => {
      const wanted = new Map(Object.entries(this.opts.prices).map(([key, id]) => [id, key]));
      const out = new Map<string, { view: PriceView; object: PriceObject }>();
      for await (const price of stripe.prices.list({ active: true, limit: 100 })) {
        const key = wanted.get(price.id);
        if (!key) continue;
        const [role, period] = key.split('/') as [string, BillingPeriod];
        if (!isRole(role)) continue;
        const object = toPrice(price);
        const nickname =
          price.nickname ?? `${PLANS[role as Role].displayName} ${period === 'month' ? 'monthly' : 'yearly'}`;
        out.set(price.id, {
          object,
          view: {
            priceId: price.id,
            role: role as Role,
            period,
            amount: object.unit_amount / 100,
            currency: object.currency,
            nickname,
          },
        });
      }
      return out;
    }).catch((err: unknown) => {
      this.priceCache = undefined;
      throw err;
    });
    return this.priceCache;
  }

  async prices(): Promise<readonly PriceView[]> {
    return [...(await this.prices_()).values()].map((p) => p.view);
  }

  /** Promotion codes (`promo_...`, or a customer-facing code) and coupon ids, as Checkout's `discounts`. */
  private async discountFor(stripe: Stripe, code: string): Promise<Stripe.Checkout.SessionCreateParams.Discount> {
    if (code.startsWith('promo_')) return { promotion_code: code };
    const found = await stripe.promotionCodes.list({ code, active: true, limit: 1 });
    return found.data[0] ? { promotion_code: found.data[0].id } : { coupon: code };
  }

  async createCheckoutSession(input: CreateCheckoutInput): Promise<CheckoutSessionObject> {
    const prices = await this.prices_();
    if (!prices.has(input.price.priceId))
      throw new InvalidRequestError(
        'resource_missing',
        `No such price: '${input.price.priceId}'`,
        'line_items[0][price]',
      );
    return this.call(async (stripe) => {
      const discount = input.couponId ? await this.discountFor(stripe, input.couponId) : undefined;
      const metadata: Record<string, string> = {
        userId: input.userId,
        ...(input.fullName ? { fullName: input.fullName } : {}),
        ...(input.referrer ? { referrer: input.referrer.slice(0, 500) } : {}),
      };
      const session = await stripe.checkout.sessions.create({
        ui_mode: 'embedded_page',
        mode: 'subscription',
        line_items: [{ price: input.price.priceId, quantity: 1 }],
        subscription_data: { trial_period_days: input.trialDays, metadata: { userId: input.userId } },
        payment_method_collection: 'always',
        return_url: input.returnUrl,
        ...(input.clientReferenceId ? { client_reference_id: input.clientReferenceId } : {}),
        ...(input.customerId ? { customer: input.customerId } : { customer_email: input.customerEmail }),
        metadata,
        ...(discount ? { discounts: [discount] } : { allow_promotion_codes: true }),
      });
      return toCheckoutSession(session);
    });
  }

  async retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionObject | null> {
    try {
      return toCheckoutSession(await this.call((stripe) => stripe.checkout.sessions.retrieve(sessionId)));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /** The price a subscription's schedule moves to at the period end, when it has one. */
  private async pendingPriceOf(sub: Stripe.Subscription): Promise<PriceObject | null> {
    const schedule = sub.schedule;
    if (!schedule || typeof schedule === 'string') return null;
    const current = sub.items.data[0]?.price.id;
    const next = schedule.phases.find(
      (p) => p.start_date >= (sub.items.data[0]?.current_period_end ?? Number.MAX_SAFE_INTEGER),
    );
    const priceRef = next?.items[0]?.price;
    const priceId = idOf(priceRef as string | { id: string } | undefined);
    if (!priceId || priceId === current) return null;
    if (priceRef && typeof priceRef !== 'string' && 'unit_amount' in priceRef) return toPrice(priceRef as Stripe.Price);
    return (await this.prices_()).get(priceId)?.object ?? null;
  }

  async retrieveCustomer(customerId: string): Promise<CustomerObject | null> {
    let customer: Stripe.Customer | Stripe.DeletedCustomer;
    try {
      customer = await this.call((stripe) =>
        stripe.customers.retrieve(customerId, {
          expand: ['subscriptions', 'subscriptions.data.schedule', 'invoice_settings.default_payment_method'],
        }),
      );
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    if (customer.deleted) return null;
    const subs = [...(customer.subscriptions?.data ?? [])].sort((a, b) => b.created - a.created);
    const pm = customer.invoice_settings?.default_payment_method;
    return {
      id: customer.id,
      object: 'customer',
      email: customer.email ?? null,
      name: customer.name ?? null,
      metadata: { ...customer.metadata },
      invoice_settings: { default_payment_method: pm && typeof pm !== 'string' ? toPaymentMethod(pm) : (pm ?? null) },
      discount: toDiscount(customer.discount ?? null),
      subscriptions: {
        data: await Promise.all(subs.map(async (s) => toSubscription(s, await this.pendingPriceOf(s)))),
      },
    };
  }

  async createSetupIntent(customerId: string): Promise<{ readonly id: string; readonly client_secret: string }> {
    const intent = await this.call((stripe) =>
      stripe.setupIntents.create({ customer: customerId, usage: 'off_session' }),
    );
    return { id: intent.id, client_secret: intent.client_secret ?? '' };
  }

  /**
   * The card becomes the customer's and their live subscriptions' default; a past-due or unpaid
   * subscription's open invoice is then paid with it (as the simulator does). A card that fails
   * that payment stays the default; the invoice stays open for Stripe's retries.
   */
  async setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<PaymentMethodObject> {
    return this.call(async (stripe) => {
      const pm = await stripe.paymentMethods.retrieve(paymentMethodId);
      if (idOf(pm.customer as string | { id: string } | null) !== customerId) {
        throw new InvalidRequestError(
          'resource_missing',
          `No such PaymentMethod: '${paymentMethodId}'`,
          'payment_method',
        );
      }
      await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } });
      const subs = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
      for (const sub of subs.data) {
        if (sub.status === 'canceled' || sub.status === 'incomplete_expired') continue;
        await stripe.subscriptions.update(sub.id, { default_payment_method: paymentMethodId });
        const open =
          (sub.status === 'past_due' || sub.status === 'unpaid') && sub.latest_invoice
            ? idOf(sub.latest_invoice as string | { id: string })
            : null;
        if (open) {
          try {
            await stripe.invoices.pay(open, { payment_method: paymentMethodId, off_session: true });
          } catch (err) {
            if ((err as { type?: string }).type !== 'StripeCardError') throw err;
          }
        }
      }
      return toPaymentMethod(pm);
    });
  }

  private async retrieveSubscription(stripe: Stripe, subscriptionId: string): Promise<Stripe.Subscription> {
    return stripe.subscriptions.retrieve(subscriptionId, { expand: ['schedule', 'default_payment_method'] });
  }

  private async releaseSchedule(stripe: Stripe, sub: Stripe.Subscription): Promise<void> {
    const id = idOf(sub.schedule as string | { id: string } | null);
    if (id) await stripe.subscriptionSchedules.release(id);
  }

  /**
   * `now`: the item's price changes at once, prorated and invoiced immediately
   * (`proration_behavior: always_invoice`, `payment_behavior: error_if_incomplete`: a declined
   * card is a CardError and nothing changes); while trialing it just switches (no proration).
   * `period_end`: a subscription schedule keeps the current price until the period ends, then
   * the new one (`end_behavior: release`); choosing the current price again cancels it.
   */
  async changePrice(subscriptionId: string, priceId: string, when: 'now' | 'period_end'): Promise<SubscriptionObject> {
    const prices = await this.prices_();
    if (!prices.has(priceId)) throw new InvalidRequestError('resource_missing', `No such price: '${priceId}'`, 'price');
    return this.call(async (stripe) => {
      const sub = await this.retrieveSubscription(stripe, subscriptionId);
      const item = sub.items.data[0];
      if (!item)
        throw new InvalidRequestError('resource_missing', `Subscription ${subscriptionId} has no item`, 'items');
      if (when === 'now' || priceId === item.price.id) {
        await this.releaseSchedule(stripe, sub);
        if (priceId !== item.price.id) {
          await stripe.subscriptions.update(subscriptionId, {
            items: [{ id: item.id, price: priceId }],
            proration_behavior: sub.status === 'trialing' ? 'none' : 'always_invoice',
            payment_behavior: 'error_if_incomplete',
          });
        }
      } else {
        const scheduleId =
          idOf(sub.schedule as string | { id: string } | null) ??
          (await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId })).id;
        await stripe.subscriptionSchedules.update(scheduleId, {
          end_behavior: 'release',
          proration_behavior: 'none',
          phases: [
            {
              items: [{ price: item.price.id, quantity: 1 }],
              start_date: item.current_period_start,
              end_date: item.current_period_end,
            },
            {
              items: [{ price: priceId, quantity: 1 }],
              duration: { interval: prices.get(priceId)!.view.period, interval_count: 1 },
            },
          ],
        });
      }
      const after = await this.retrieveSubscription(stripe, subscriptionId);
      return toSubscription(after, await this.pendingPriceOf(after));
    });
  }

  /** Cancelling at period end also drops a pending downgrade (its schedule is released). */
  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<SubscriptionObject> {
    return this.call(async (stripe) => {
      if (cancel) await this.releaseSchedule(stripe, await this.retrieveSubscription(stripe, subscriptionId));
      const sub = await stripe.subscriptions.update(subscriptionId, {
        cancel_at_period_end: cancel,
        expand: ['schedule', 'default_payment_method'],
      });
      return toSubscription(sub, await this.pendingPriceOf(sub));
    });
  }

  /** Refunds each paid invoice's payments (payment intent, or charge for old invoices), marks the invoice, then cancels now. */
  async refundAndCancel(
    subscriptionId: string,
  ): Promise<{ readonly refunded: number; readonly subscription: SubscriptionObject }> {
    return this.call(async (stripe) => {
      let refunded = 0;
      for await (const invoice of stripe.invoices.list({ subscription: subscriptionId, status: 'paid', limit: 100 })) {
        if (invoice.amount_paid <= 0 || !invoice.id) continue;
        const already = Number(invoice.metadata?.[REFUNDED_METADATA_KEY] ?? 0);
        if (already >= invoice.amount_paid) continue;
        let amount = 0;
        for await (const payment of stripe.invoicePayments.list({ invoice: invoice.id, limit: 100 })) {
          if (payment.status !== 'paid') continue;
          const intent = idOf(payment.payment.payment_intent as string | { id: string } | undefined);
          const charge = idOf(payment.payment.charge as string | { id: string } | undefined);
          if (!intent && !charge) continue;
          const refund = await stripe.refunds.create({
            ...(intent ? { payment_intent: intent } : { charge: charge! }),
            reason: 'requested_by_customer',
            metadata: { invoice: invoice.id, subscription: subscriptionId },
          });
          amount += refund.amount;
        }
        if (amount > 0) {
          await stripe.invoices.update(invoice.id, { metadata: { [REFUNDED_METADATA_KEY]: String(already + amount) } });
          refunded += amount;
        }
      }
      const sub = await stripe.subscriptions.cancel(subscriptionId, { invoice_now: false, prorate: false });
      return { refunded, subscription: toSubscription(sub) };
    });
  }

  async listInvoices(customerId: string): Promise<readonly InvoiceObject[]> {
    return this.call(async (stripe) =>
      (await stripe.invoices.list({ customer: customerId, limit: 100 })).data.map(toInvoice),
    );
  }

  /**
   * `stripe.webhooks.constructEventAsync` with our tolerance and clock (its `receivedAt` is in ms); its refusals become
   * WebhookErrors. The event's object is returned in the interface's shape (subscriptions and
   * invoices mapped as above), so the webhook handler reads one shape in both modes.
   */
  async verifyWebhook(rawBody: string, signatureHeader: string | undefined, nowSeconds: number): Promise<PaymentEvent> {
    if (!signatureHeader) throw new WebhookError('invalid_signature', 'No Stripe-Signature header');
    const [{ stripe }, keys] = await Promise.all([this.sdk(), this.opts.keys.load()]);
    let event: Stripe.Event;
    try {
      event = await stripe.webhooks.constructEventAsync(
        rawBody,
        signatureHeader,
        keys.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        nowSeconds * 1000,
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/tolerance/iu.test(message))
        throw new WebhookError('signature_too_old', 'The signature timestamp is outside the tolerance');
      if ((err as { type?: string }).type === 'StripeSignatureVerificationError')
        throw new WebhookError('invalid_signature', 'No signature matches the payload');
      throw new WebhookError('invalid_event', 'The payload is not an event');
    }
    const parsed = parseEvent(JSON.stringify(event));
    const object = parsed.data.object as { object?: string };
    let mapped: PaymentEvent['data']['object'];
    // A signed event is still the sender's shape: one the mapping cannot read is refused, not a crash.
    try {
      mapped =
        object.object === 'subscription'
          ? toSubscription(object as Stripe.Subscription)
          : object.object === 'invoice'
            ? toInvoice(object as Stripe.Invoice)
            : object.object === 'checkout.session'
              ? toCheckoutSession(object as Stripe.Checkout.Session)
              : parsed.data.object;
    } catch {
      throw new WebhookError('invalid_event', 'The payload is not an event');
    }
    return { id: parsed.id, object: 'event', type: parsed.type, created: parsed.created, data: { object: mapped } };
  }
}
