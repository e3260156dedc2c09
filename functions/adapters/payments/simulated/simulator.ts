/**
 * The payments simulator (PAYMENTS=simulated): a local payment provider, not a mock. It keeps
 * customers, payment methods, checkout sessions, setup intents, subscriptions, invoices,
 * refunds and an event log in the table (store.ts), answers in Stripe's shapes, has a clock
 * that only moves when advanced (like a Stripe test clock), and delivers Stripe-shaped, signed
 * events to the webhook (events.ts). Its checkout screen is part of the app
 * (/payments/simulated/* routes). Behaviour and choices: docs/decisions/, "Payments providers".
 *
 * Lifecycle of a subscription, each step run by `advanceClock` when its time comes:
 * - checkout with a test card: customer + card, `trialing` until now + trial days, a $0 invoice
 *   (paid); events customer.subscription.created, invoice.paid, checkout.session.completed;
 * - TRIAL_WILL_END_DAYS before the trial ends: customer.subscription.trial_will_end;
 * - at each period end (the trial's end first): cancel_at_period_end -> canceled
 *   (customer.subscription.deleted); else a pending downgrade applies, the next period is
 *   invoiced and charged to the default card: paid -> `active` (invoice.paid,
 *   customer.subscription.updated); declined -> `past_due` (invoice.payment_failed,
 *   customer.subscription.updated), retried 3 and then 5 more days later, then `unpaid`
 *   (Stripe's default end state of smart retries: the invoice stays open).
 */
import { table } from '../../../data/base';
import { keys } from '../../../data/keys';
import { ddb } from '../../../lib/clients/dynamodb';
import { safeEqual } from '../../../lib/secrets';
import type { BillingPeriod, PriceView, SimulatedSessionView } from '../../../domain/billing-api';
import { TRIAL_WILL_END_DAYS } from '../../../domain/billing-api';
import type {
  CheckoutSessionObject,
  CreateCheckoutInput,
  CustomerObject,
  InvoiceObject,
  PaymentEvent,
  PaymentMethodObject,
  PaymentsProvider,
  RecurringPriceObject,
  SubscriptionObject,
} from '../provider';
import { CardError, InvalidRequestError } from '../provider';
import { verifySignedPayload } from '../signature';
import { checkCard, type CardBehaviour, type CardFields } from './cards';
import {
  deliverAll,
  listEvents,
  recordEvent,
  redeliverEvent,
  retryUndelivered,
  type DeliveryRecord,
  type DeliveryTarget,
  type EventWithDelivery,
  type SimEvent,
} from './events';
import { discounted, priceView, SIM_COUPONS, SIM_CURRENCY, SIM_PRICES, simPrice } from './prices';
import {
  getObject,
  listDue,
  listForCustomer,
  putObject,
  randomSecret,
  setSimNow,
  simId,
  simNow,
  SimConflictError,
  type SimItem,
} from './store';

export const DAY_SECONDS = 24 * 3600;
/** A checkout session stays open this long (Stripe's default). */
export const CHECKOUT_EXPIRY_SECONDS = 24 * 3600;
/** Payment retries after a declined renewal: 3 days later, then 5 more days, then `unpaid`. */
export const RETRY_DELAYS_DAYS: readonly number[] = [3, 5];

// ---- stored shapes ---------------------------------------------------------------------

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type CustomerData = Mutable<Omit<CustomerObject, 'subscriptions'>> & { created: number; invoice_prefix: string };
interface CustomerSim {
  readonly userId: string | null;
}

type PaymentMethodData = PaymentMethodObject & {
  type: 'card';
  customer: string | null;
  created: number;
  billing_details: { name: string | null; address: { postal_code: string | null } };
};
interface PaymentMethodSim {
  readonly behaviour: CardBehaviour;
}

type SessionData = Mutable<CheckoutSessionObject> & {
  created: number;
  expires_at: number;
  return_url: string;
  ui_mode: 'embedded';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  amount_total: number;
  currency: string;
};
interface SessionSim {
  readonly priceId: string;
  readonly trialDays: number;
  readonly couponId: string | null;
  readonly customerName: string | null;
}

interface SetupIntentData {
  id: string;
  object: 'setup_intent';
  client_secret: string;
  customer: string;
  status: 'requires_payment_method' | 'succeeded';
  payment_method: string | null;
  usage: 'off_session';
  created: number;
}

// The simulator sells its own prices only, each billed every period.
type SubscriptionData = Omit<Mutable<SubscriptionObject>, 'items' | 'pending_price'> & {
  current_period_start: number;
  ended_at: number | null;
  items: {
    object: 'list';
    data: {
      id: string;
      object: 'subscription_item';
      price: RecurringPriceObject;
      quantity: number;
      current_period_start: number;
      current_period_end: number;
    }[];
  };
  plan: RecurringPriceObject;
  pending_price?: RecurringPriceObject | null;
  latest_invoice: string | null;
};
interface SubscriptionSim {
  readonly trialWillEndSent: boolean;
  /** the declined invoice being retried */
  readonly retry: { readonly invoiceId: string; readonly attempts: number; readonly nextAt: number } | null;
  /** when the next step is due (mirrors the gsi2 key), null when none */
  readonly dueAt: number | null;
}

type InvoiceData = Mutable<InvoiceObject> & {
  subtotal: number;
  amount_due: number;
  amount_remaining: number;
  amount_refunded: number;
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  attempt_count: number;
  attempted: boolean;
  next_payment_attempt: number | null;
  period_start: number;
  period_end: number;
  customer_email: string | null;
  charge: string | null;
  parent: { type: 'subscription_details'; subscription_details: { subscription: string } } | null;
  lines: {
    object: 'list';
    data: {
      id: string;
      object: 'line_item';
      amount: number;
      currency: string;
      description: string;
      period: { start: number; end: number };
      pricing: { price_details: { price: string } };
    }[];
  };
  status_transitions: { paid_at: number | null };
};

interface RefundData {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  currency: string;
  status: 'succeeded';
  created: number;
  metadata: { invoice: string };
}

type Pending = SimItem<SimEvent, DeliveryRecord>;

// ---- helpers ---------------------------------------------------------------------------

const missing = (what: string, id: string, param = 'id') =>
  new InvalidRequestError('resource_missing', `No such ${what}: '${id}'`, param);

/** Adds one billing interval in UTC, keeping the day of month where it exists (Jan 31 + 1 month = Feb 28/29). */
export function addInterval(at: number, interval: BillingPeriod): number {
  const d = new Date(at * 1000);
  const day = d.getUTCDate();
  const target = new Date(d.getTime());
  target.setUTCDate(1);
  if (interval === 'month') target.setUTCMonth(target.getUTCMonth() + 1);
  else target.setUTCFullYear(target.getUTCFullYear() + 1);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

function subIndex(sub: SubscriptionData, sim: SubscriptionSim) {
  return {
    gsi1: keys.simpayCustomerList('SUBS', sub.customer, sub.created, sub.id),
    gsi2: sim.dueAt === null ? null : keys.simpayDue(sim.dueAt, sub.id),
  };
}

/** The next step of a subscription: trial_will_end, a payment retry or the period end. */
function nextStep(
  sub: SubscriptionData,
  sim: Omit<SubscriptionSim, 'dueAt'>,
): { at: number; kind: 'trial_will_end' | 'retry' | 'period_end' } | null {
  const steps: { at: number; kind: 'trial_will_end' | 'retry' | 'period_end' }[] = [];
  if (sub.status === 'trialing') {
    if (
      !sim.trialWillEndSent &&
      sub.trial_end !== null &&
      sub.trial_end - TRIAL_WILL_END_DAYS * DAY_SECONDS > sub.created
    ) {
      steps.push({ at: sub.trial_end - TRIAL_WILL_END_DAYS * DAY_SECONDS, kind: 'trial_will_end' });
    }
    steps.push({ at: sub.current_period_end, kind: 'period_end' });
  } else if (sub.status === 'active') {
    steps.push({ at: sub.current_period_end, kind: 'period_end' });
  } else if (sub.status === 'past_due' || sub.status === 'unpaid') {
    if (sub.status === 'past_due' && sim.retry) steps.push({ at: sim.retry.nextAt, kind: 'retry' });
    if (sub.cancel_at_period_end) steps.push({ at: sub.current_period_end, kind: 'period_end' });
  }
  steps.sort((a, b) => a.at - b.at || (a.kind === 'period_end' ? 1 : -1));
  return steps[0] ?? null;
}

function withDue(sub: SubscriptionData, sim: Omit<SubscriptionSim, 'dueAt'>): SubscriptionSim {
  return { ...sim, dueAt: nextStep(sub, sim)?.at ?? null };
}

/** The subscription on `price` for the period start..end, with nothing pending (its item moves too). */
function withPrice(sub: SubscriptionData, price: RecurringPriceObject, start: number, end: number): SubscriptionData {
  return {
    ...sub,
    plan: price,
    pending_price: null,
    current_period_start: start,
    current_period_end: end,
    items: {
      object: 'list',
      data: [{ ...sub.items.data[0]!, price, current_period_start: start, current_period_end: end }],
    },
  };
}

function publicSubscription(sub: SubscriptionData): SubscriptionObject {
  return structuredClone(sub);
}

function priceFor(priceId: string): RecurringPriceObject {
  const price = simPrice(priceId);
  if (!price) throw missing('price', priceId, 'price');
  return price;
}

function parseSecret(secret: string, prefix: 'cs' | 'seti'): string | null {
  const m = new RegExp(`^(${prefix}_sim_[A-Za-z0-9]{16})_secret_[A-Za-z0-9]{24}$`, 'u').exec(secret);
  return m ? m[1]! : null;
}

export type CompleteCheckoutResult =
  | { readonly kind: 'not_found' }
  | { readonly kind: 'not_open'; readonly status: 'complete' | 'expired' }
  | {
      readonly kind: 'complete';
      readonly returnUrl: string;
      readonly subscriptionId: string;
      readonly customerId: string;
    };

export type ConfirmSetupResult =
  | { readonly kind: 'not_found' }
  | { readonly kind: 'not_open' }
  | { readonly kind: 'confirmed'; readonly paymentMethodId: string };

export interface AdvanceResult {
  /** the simulator's now after the advance (epoch seconds) */
  readonly now: number;
  /** subscription steps run */
  readonly steps: number;
  /** events delivered late (undelivered ones retried at the tick) */
  readonly redelivered: number;
}

export interface SimulatorOptions {
  /** where events go and the secret they are signed with */
  readonly target: () => DeliveryTarget;
  /** the app's origin, for hosted invoice pages */
  readonly appOrigin: () => string;
}

/**
 * The simulated provider: the PaymentsProvider interface plus the simulator's own operations
 * (its checkout screen, its clock, its event log).
 */
export class PaymentsSimulator implements PaymentsProvider {
  readonly name = 'simulated' as const;
  readonly publishableKey = null;

  constructor(private readonly opts: SimulatorOptions) {}

  now(): Promise<number> {
    return simNow();
  }

  async prices(): Promise<readonly PriceView[]> {
    return SIM_PRICES.map(priceView);
  }

  // ---- checkout -------------------------------------------------------------------------

  async createCheckoutSession(input: CreateCheckoutInput): Promise<CheckoutSessionObject> {
    const price = priceFor(input.price.priceId);
    if (input.customerId && !(await getObject(input.customerId)))
      throw missing('customer', input.customerId, 'customer');
    if (input.couponId && !SIM_COUPONS[input.couponId]) throw missing('coupon', input.couponId, 'discounts[0][coupon]');
    const now = await simNow();
    const id = simId('cs');
    const session: SessionData = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      client_secret: `${id}_secret_${randomSecret()}`,
      client_reference_id: input.clientReferenceId ?? null,
      customer: input.customerId ?? null,
      customer_email: input.customerId ? null : input.customerEmail,
      subscription: null,
      metadata: {
        userId: input.userId,
        ...(input.fullName ? { fullName: input.fullName } : {}),
        ...(input.referrer ? { referrer: input.referrer.slice(0, 500) } : {}),
      },
      created: now,
      expires_at: now + CHECKOUT_EXPIRY_SECONDS,
      return_url: input.returnUrl,
      ui_mode: 'embedded',
      payment_status: 'unpaid',
      amount_total: 0,
      currency: price.currency,
    };
    const sim: SessionSim = {
      priceId: price.id,
      trialDays: input.trialDays,
      couponId: input.couponId ?? null,
      customerName: input.fullName ?? null,
    };
    await putObject<SessionData, SessionSim>({ id, kind: 'checkout_session', data: session, sim }, 0);
    return structuredClone(session);
  }

  async retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionObject | null> {
    const item = await getObject<SessionData, SessionSim>(sessionId);
    if (item?.kind !== 'checkout_session') return null;
    return this.sessionWithStatus(item.data, await simNow());
  }

  private sessionWithStatus(session: SessionData, now: number): SessionData {
    return session.status === 'open' && now >= session.expires_at
      ? { ...session, status: 'expired' }
      : structuredClone(session);
  }

  private async sessionBySecret(
    clientSecret: string,
    userId: string,
  ): Promise<SimItem<SessionData, SessionSim> | null> {
    const id = parseSecret(clientSecret, 'cs');
    if (!id) return null;
    const item = await getObject<SessionData, SessionSim>(id);
    if (item?.kind !== 'checkout_session' || !safeEqual(item.data.client_secret, clientSecret)) return null;
    // Only the user the session was made for may see or pay it.
    if (item.data.metadata.userId !== userId) return null;
    return item;
  }

  /** What the simulator's checkout screen shows; null when the secret is unknown or not the caller's. */
  async checkoutView(clientSecret: string, userId: string): Promise<SimulatedSessionView | null> {
    const item = await this.sessionBySecret(clientSecret, userId);
    if (!item) return null;
    const session = this.sessionWithStatus(item.data, await simNow());
    const price = simPrice(item.sim.priceId);
    let customerEmail = session.customer_email ?? '';
    if (!customerEmail && session.customer)
      customerEmail = (await getObject<CustomerData, CustomerSim>(session.customer))?.data.email ?? '';
    return {
      sessionId: session.id,
      mode: session.mode,
      customerEmail,
      price: price ? priceView(price) : null,
      trialDays: item.sim.trialDays,
      status: session.status,
      returnUrl: returnUrlOf(session),
    };
  }

  /**
   * Pays a checkout session with a card (the simulator's card field). A card refused at entry
   * throws its CardError and creates nothing; a good card (4242…, or 0341 which fails only
   * later) makes the customer, the card, the trialing subscription and its $0 invoice.
   */
  async completeCheckout(
    clientSecret: string,
    cardInput: CardFields & { name?: string | undefined; postalCode?: string | undefined },
    userId: string,
  ): Promise<CompleteCheckoutResult> {
    const item = await this.sessionBySecret(clientSecret, userId);
    if (!item) return { kind: 'not_found' };
    const now = await simNow();
    const session = this.sessionWithStatus(item.data, now);
    if (session.status !== 'open') return { kind: 'not_open', status: session.status };
    if (session.customer) {
      // A session made for an existing customer pays only as that customer's user.
      const owner = await getObject<CustomerData, CustomerSim>(session.customer);
      if (!owner || owner.sim.userId !== userId) return { kind: 'not_found' };
    }
    const checked = checkCard(cardInput, now);
    const price = priceFor(item.sim.priceId);
    const coupon = item.sim.couponId ? SIM_COUPONS[item.sim.couponId] : undefined;
    const discount = item.sim.couponId && coupon ? { coupon: { id: item.sim.couponId, ...coupon } } : null;
    const firstAmount = item.sim.trialDays > 0 ? 0 : discounted(price.unit_amount, discount?.coupon);
    // Without a trial (never asked by the app) the first payment is due now: a card that cannot pay is declined before anything is made.
    if (firstAmount > 0 && checked.behaviour !== 'succeeds')
      throw new CardError('card_declined', 'Your card was declined.', 'generic_decline');

    // Claim the session first: a second submit of the same session loses here, before anything is made.
    const subId = simId('sub');
    const customerId = session.customer ?? simId('cus');
    const claimed: SessionData = {
      ...session,
      status: 'complete',
      customer: customerId,
      subscription: subId,
      payment_status: item.sim.trialDays > 0 ? 'no_payment_required' : 'paid',
    };
    try {
      await putObject<SessionData, SessionSim>(
        { id: item.id, kind: 'checkout_session', data: claimed, sim: item.sim },
        item.version,
      );
    } catch (err) {
      if (err instanceof SimConflictError) return { kind: 'not_open', status: 'complete' };
      throw err;
    }

    const pmId = simId('pm');
    const paymentMethod: PaymentMethodData = {
      id: pmId,
      object: 'payment_method',
      type: 'card',
      card: checked.card,
      customer: customerId,
      created: now,
      billing_details: { name: cardInput.name ?? null, address: { postal_code: cardInput.postalCode ?? null } },
    };
    await putObject<PaymentMethodData, PaymentMethodSim>(
      { id: pmId, kind: 'payment_method', data: paymentMethod, sim: { behaviour: checked.behaviour } },
      0,
    );

    const existing = session.customer ? await getObject<CustomerData, CustomerSim>(session.customer) : undefined;
    if (existing) {
      await putObject(
        { ...existing, data: { ...existing.data, invoice_settings: { default_payment_method: pmId } } },
        existing.version,
      );
    } else {
      const customer: CustomerData = {
        id: customerId,
        object: 'customer',
        email: session.customer_email,
        name: item.sim.customerName ?? cardInput.name ?? null,
        metadata: { userId },
        invoice_settings: { default_payment_method: pmId },
        discount: null,
        created: now,
        invoice_prefix: customerId.slice(-8).toUpperCase(),
      };
      await putObject<CustomerData, CustomerSim>(
        { id: customerId, kind: 'customer', data: customer, sim: { userId } },
        0,
      );
    }

    const trialEnd = item.sim.trialDays > 0 ? now + item.sim.trialDays * DAY_SECONDS : null;
    const periodEnd = trialEnd ?? addInterval(now, price.recurring.interval);
    const invoiceId = simId('in');
    const sub: SubscriptionData = {
      id: subId,
      object: 'subscription',
      customer: customerId,
      status: trialEnd ? 'trialing' : 'active',
      items: {
        object: 'list',
        data: [
          {
            id: simId('si'),
            object: 'subscription_item',
            price,
            quantity: 1,
            current_period_start: now,
            current_period_end: periodEnd,
          },
        ],
      },
      plan: price,
      trial_end: trialEnd,
      current_period_start: now,
      current_period_end: periodEnd,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      created: now,
      metadata: { userId },
      default_payment_method: pmId,
      discount,
      pending_price: null,
      latest_invoice: invoiceId,
    };
    const events: Pending[] = [];
    const charged = await this.charge(pmId, firstAmount);
    if (!charged.ok) throw new Error(`payments simulator: the card ${pmId} checked as paying did not pay`);
    const subSim = withDue(sub, { trialWillEndSent: false, retry: null });
    await putObject<SubscriptionData, SubscriptionSim>(
      { id: subId, kind: 'subscription', data: sub, sim: subSim },
      0,
      subIndex(sub, subSim),
    );
    events.push(await recordEvent('customer.subscription.created', publicSubscription(sub), now));
    const invoice = await this.createInvoice(invoiceId, sub, firstAmount, 'subscription_create', now, now, periodEnd);
    const paid = await this.markPaid(invoice, charged.chargeId, now);
    events.push(await recordEvent('invoice.paid', paid, now));
    events.push(await recordEvent('checkout.session.completed', { ...claimed, amount_total: firstAmount }, now));
    await deliverAll(events, this.opts.target());
    return { kind: 'complete', returnUrl: returnUrlOf(claimed), subscriptionId: subId, customerId };
  }

  // ---- cards ----------------------------------------------------------------------------

  async createSetupIntent(customerId: string): Promise<{ readonly id: string; readonly client_secret: string }> {
    const customer = await getObject<CustomerData, CustomerSim>(customerId);
    if (customer?.kind !== 'customer') throw missing('customer', customerId, 'customer');
    const id = simId('seti');
    const intent: SetupIntentData = {
      id,
      object: 'setup_intent',
      client_secret: `${id}_secret_${randomSecret()}`,
      customer: customerId,
      status: 'requires_payment_method',
      payment_method: null,
      usage: 'off_session',
      created: await simNow(),
    };
    await putObject<SetupIntentData, Record<string, never>>({ id, kind: 'setup_intent', data: intent, sim: {} }, 0);
    return { id, client_secret: intent.client_secret };
  }

  /** The simulator's card field for a SetupIntent: the card is attached to the customer (not yet their default). */
  async confirmSetup(
    clientSecret: string,
    cardInput: CardFields & { name?: string | undefined; postalCode?: string | undefined },
    userId: string,
  ): Promise<ConfirmSetupResult> {
    const id = parseSecret(clientSecret, 'seti');
    const item = id ? await getObject<SetupIntentData, Record<string, never>>(id) : undefined;
    if (item?.kind !== 'setup_intent' || !safeEqual(item.data.client_secret, clientSecret))
      return { kind: 'not_found' };
    const customer = await getObject<CustomerData, CustomerSim>(item.data.customer);
    if (!customer || customer.sim.userId !== userId) return { kind: 'not_found' };
    if (item.data.status !== 'requires_payment_method') return { kind: 'not_open' };
    const now = await simNow();
    const checked = checkCard(cardInput, now);
    const pmId = simId('pm');
    try {
      await putObject({ ...item, data: { ...item.data, status: 'succeeded', payment_method: pmId } }, item.version);
    } catch (err) {
      if (err instanceof SimConflictError) return { kind: 'not_open' };
      throw err;
    }
    const paymentMethod: PaymentMethodData = {
      id: pmId,
      object: 'payment_method',
      type: 'card',
      card: checked.card,
      customer: customer.id,
      created: now,
      billing_details: { name: cardInput.name ?? null, address: { postal_code: cardInput.postalCode ?? null } },
    };
    await putObject<PaymentMethodData, PaymentMethodSim>(
      { id: pmId, kind: 'payment_method', data: paymentMethod, sim: { behaviour: checked.behaviour } },
      0,
    );
    return { kind: 'confirmed', paymentMethodId: pmId };
  }

  async setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<PaymentMethodObject> {
    const customer = await getObject<CustomerData, CustomerSim>(customerId);
    if (customer?.kind !== 'customer') throw missing('customer', customerId, 'customer');
    const pm = await getObject<PaymentMethodData, PaymentMethodSim>(paymentMethodId);
    if (pm?.kind !== 'payment_method' || pm.data.customer !== customerId)
      throw missing('payment_method', paymentMethodId, 'default_payment_method');
    await putObject(
      { ...customer, data: { ...customer.data, invoice_settings: { default_payment_method: paymentMethodId } } },
      customer.version,
    );
    const now = await simNow();
    const events: Pending[] = [];
    for (const subItem of await listForCustomer<SubscriptionData, SubscriptionSim>('SUBS', customerId)) {
      if (subItem.data.status === 'canceled' || subItem.data.status === 'incomplete_expired') continue;
      let sub: SubscriptionData = { ...subItem.data, default_payment_method: paymentMethodId };
      let sim: SubscriptionSim = subItem.sim;
      const previous: Record<string, unknown> = { default_payment_method: subItem.data.default_payment_method };
      const invoiceEvents: Pending[] = [];
      // A past-due or unpaid subscription's open invoice is paid with the new card at once.
      if (sim.retry && (sub.status === 'past_due' || sub.status === 'unpaid')) {
        const invoice = await getObject<InvoiceData, Record<string, never>>(sim.retry.invoiceId);
        const charged = invoice ? await this.charge(paymentMethodId, invoice.data.amount_due) : { ok: false as const };
        if (invoice && charged.ok) {
          const paid = await this.markPaid(invoice, charged.chargeId, now);
          invoiceEvents.push(await recordEvent('invoice.paid', paid, now));
          previous.status = sub.status;
          sub = { ...sub, status: 'active' };
          sim = { ...sim, retry: null };
        }
      }
      const nextSim = withDue(sub, sim);
      await putObject(
        { id: sub.id, kind: 'subscription', data: sub, sim: nextSim },
        subItem.version,
        subIndex(sub, nextSim),
      );
      events.push(
        ...invoiceEvents,
        await recordEvent('customer.subscription.updated', publicSubscription(sub), now, previous),
      );
    }
    await deliverAll(events, this.opts.target());
    return { id: pm.data.id, object: 'payment_method', card: pm.data.card };
  }

  // ---- reads ------------------------------------------------------------------------------

  async retrieveCustomer(customerId: string): Promise<CustomerObject | null> {
    const customer = await getObject<CustomerData, CustomerSim>(customerId);
    if (customer?.kind !== 'customer') return null;
    const subs = await listForCustomer<SubscriptionData, SubscriptionSim>('SUBS', customerId);
    const pmId = customer.data.invoice_settings.default_payment_method;
    const pm = typeof pmId === 'string' ? await getObject<PaymentMethodData, PaymentMethodSim>(pmId) : undefined;
    return {
      ...customer.data,
      invoice_settings: {
        default_payment_method: pm ? { id: pm.data.id, object: 'payment_method', card: pm.data.card } : null,
      },
      subscriptions: { data: subs.map((s) => publicSubscription(s.data)) },
    };
  }

  async listInvoices(customerId: string): Promise<readonly InvoiceObject[]> {
    return (await listForCustomer<InvoiceData, Record<string, never>>('INVOICES', customerId)).map((i) =>
      structuredClone(i.data),
    );
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionObject | null> {
    const item = await getObject<SubscriptionData, SubscriptionSim>(subscriptionId);
    return item && item.kind === 'subscription' ? publicSubscription(item.data) : null;
  }

  // ---- changes ----------------------------------------------------------------------------

  private async liveSubscription(subscriptionId: string): Promise<SimItem<SubscriptionData, SubscriptionSim>> {
    const item = await getObject<SubscriptionData, SubscriptionSim>(subscriptionId);
    if (item?.kind !== 'subscription') throw missing('subscription', subscriptionId);
    if (item.data.status === 'canceled' || item.data.status === 'incomplete_expired') {
      throw new InvalidRequestError(
        'resource_invalid_state',
        'A canceled subscription can only update its cancellation_details and metadata.',
        'id',
      );
    }
    return item;
  }

  /**
   * Upgrade now: the price switches at once and the difference for the rest of the period is
   * invoiced and charged (while trialing it just switches; a change of interval starts a new
   * period, charged in full less the unused part of the old one). A declined charge throws
   * CardError and changes nothing (Stripe's `payment_behavior: error_if_incomplete`).
   * At period end: the price waits in `pending_price` and applies at the next period end.
   */
  async changePrice(subscriptionId: string, priceId: string, when: 'now' | 'period_end'): Promise<SubscriptionObject> {
    const item = await this.liveSubscription(subscriptionId);
    const price = priceFor(priceId);
    const now = await simNow();
    const old = item.data;
    const events: Pending[] = [];
    let sub: SubscriptionData;
    const previous: Record<string, unknown> = { items: old.items, pending_price: old.pending_price ?? null };
    if (when === 'period_end') {
      sub = { ...old, pending_price: price.id === old.plan.id ? null : price };
    } else {
      const setPrice = (s: SubscriptionData, start: number, end: number) => withPrice(s, price, start, end);
      if (old.status === 'trialing') {
        sub = setPrice(old, old.current_period_start, old.current_period_end);
      } else {
        const oldAmount = discounted(old.plan.unit_amount, old.discount?.coupon);
        const newAmount = discounted(price.unit_amount, old.discount?.coupon);
        const length = Math.max(1, old.current_period_end - old.current_period_start);
        const unused = Math.max(0, old.current_period_end - now) / length;
        let amount: number;
        if (price.recurring.interval === old.plan.recurring.interval) {
          sub = setPrice(old, old.current_period_start, old.current_period_end);
          amount = Math.round((newAmount - oldAmount) * unused);
        } else {
          sub = setPrice(old, now, addInterval(now, price.recurring.interval));
          amount = newAmount - Math.round(oldAmount * unused);
        }
        // A credit (downgrade now) is not carried as a customer balance here: nothing is charged.
        if (amount > 0) {
          const pmId = typeof sub.default_payment_method === 'string' ? sub.default_payment_method : null;
          const charged = pmId ? await this.charge(pmId, amount) : { ok: false as const };
          if (!charged.ok) throw new CardError('card_declined', 'Your card was declined.', 'generic_decline');
          const invoiceId = simId('in');
          sub = { ...sub, latest_invoice: invoiceId };
          const invoice = await this.createInvoice(
            invoiceId,
            sub,
            amount,
            'subscription_update',
            now,
            now,
            sub.current_period_end,
          );
          events.push(await recordEvent('invoice.paid', await this.markPaid(invoice, charged.chargeId, now), now));
        }
      }
    }
    const sim = withDue(sub, item.sim);
    await putObject({ id: sub.id, kind: 'subscription', data: sub, sim }, item.version, subIndex(sub, sim));
    events.push(await recordEvent('customer.subscription.updated', publicSubscription(sub), now, previous));
    await deliverAll(events, this.opts.target());
    return publicSubscription(sub);
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<SubscriptionObject> {
    const item = await this.liveSubscription(subscriptionId);
    const now = await simNow();
    const sub: SubscriptionData = { ...item.data, cancel_at_period_end: cancel, canceled_at: cancel ? now : null };
    const sim = withDue(sub, item.sim);
    await putObject({ id: sub.id, kind: 'subscription', data: sub, sim }, item.version, subIndex(sub, sim));
    const event = await recordEvent('customer.subscription.updated', publicSubscription(sub), now, {
      cancel_at_period_end: item.data.cancel_at_period_end,
      canceled_at: item.data.canceled_at,
    });
    await deliverAll([event], this.opts.target());
    return publicSubscription(sub);
  }

  async refundAndCancel(
    subscriptionId: string,
  ): Promise<{ readonly refunded: number; readonly subscription: SubscriptionObject }> {
    const item = await this.liveSubscription(subscriptionId);
    const now = await simNow();
    const sub: SubscriptionData = {
      ...item.data,
      status: 'canceled',
      canceled_at: now,
      ended_at: now,
      cancel_at_period_end: false,
      pending_price: null,
    };
    const sim = withDue(sub, { ...item.sim, retry: null });
    await putObject({ id: sub.id, kind: 'subscription', data: sub, sim }, item.version, subIndex(sub, sim));
    let refunded = 0;
    for (const invoice of await listForCustomer<InvoiceData, Record<string, never>>('INVOICES', sub.customer)) {
      const inv = invoice.data;
      const left = inv.amount_paid - inv.amount_refunded;
      if (inv.subscription !== sub.id || inv.status !== 'paid' || left <= 0 || !inv.charge) continue;
      const refundId = simId('re');
      const refund: RefundData = {
        id: refundId,
        object: 'refund',
        amount: left,
        charge: inv.charge,
        currency: inv.currency,
        status: 'succeeded',
        created: now,
        metadata: { invoice: inv.id },
      };
      await putObject<RefundData, Record<string, never>>({ id: refundId, kind: 'refund', data: refund, sim: {} }, 0);
      await putObject({ ...invoice, data: { ...inv, amount_refunded: inv.amount_paid } }, invoice.version, {
        gsi1: keys.simpayCustomerList('INVOICES', inv.customer, inv.created, inv.id),
      });
      refunded += left;
    }
    const event = await recordEvent('customer.subscription.deleted', publicSubscription(sub), now, {
      status: item.data.status,
    });
    await deliverAll([event], this.opts.target());
    return { refunded, subscription: publicSubscription(sub) };
  }

  // ---- the clock ----------------------------------------------------------------------------

  /**
   * Moves the clock forward by `seconds` and runs every step that falls due on the way, in
   * time order, each at its own time (events carry it as `created`), delivering their events.
   * Undelivered events are retried first. `advanceClock(0)` is a tick: what is due now runs.
   */
  async advanceClock(seconds: number): Promise<AdvanceResult> {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('the clock only moves forward');
    const target = this.opts.target();
    const redelivered = await retryUndelivered(target);
    const until = (await simNow()) + Math.floor(seconds);
    let steps = 0;
    for (let guard = 0; guard < 10_000; guard += 1) {
      const [due] = await listDue<SubscriptionData, SubscriptionSim>(until, 1);
      if (!due || due.sim.dueAt === null) break;
      await setSimNow(due.sim.dueAt);
      try {
        await this.runStep(due, target, until);
        steps += 1;
      } catch (err) {
        // Someone changed the subscription meanwhile: read it again on the next round.
        if (!(err instanceof SimConflictError)) throw err;
      }
    }
    return { now: await setSimNow(until), steps, redelivered };
  }

  private async runStep(
    item: SimItem<SubscriptionData, SubscriptionSim>,
    target: DeliveryTarget,
    until: number,
  ): Promise<void> {
    const step = nextStep(item.data, item.sim);
    if (!step || step.at > until) {
      // Nothing due after all (a queue entry older than the subscription's state): file it under its real next step.
      const sim = { ...item.sim, dueAt: step?.at ?? null };
      await putObject(
        { id: item.id, kind: 'subscription', data: item.data, sim },
        item.version,
        subIndex(item.data, sim),
      );
      return;
    }
    const at = step.at;
    const events: Pending[] = [];
    const old = item.data;
    if (step.kind === 'trial_will_end') {
      const sim = withDue(old, { ...item.sim, trialWillEndSent: true });
      await putObject({ id: old.id, kind: 'subscription', data: old, sim }, item.version, subIndex(old, sim));
      events.push(await recordEvent('customer.subscription.trial_will_end', publicSubscription(old), at));
    } else if (step.kind === 'retry' && item.sim.retry) {
      const retry = item.sim.retry;
      const invoice = await getObject<InvoiceData, Record<string, never>>(retry.invoiceId);
      const pmId = typeof old.default_payment_method === 'string' ? old.default_payment_method : null;
      const charged = invoice && pmId ? await this.charge(pmId, invoice.data.amount_due) : { ok: false as const };
      if (invoice && charged.ok) {
        const sub: SubscriptionData = { ...old, status: 'active' };
        const sim = withDue(sub, { ...item.sim, retry: null });
        await putObject({ id: sub.id, kind: 'subscription', data: sub, sim }, item.version, subIndex(sub, sim));
        events.push(await recordEvent('invoice.paid', await this.markPaid(invoice, charged.chargeId, at), at));
        events.push(
          await recordEvent('customer.subscription.updated', publicSubscription(sub), at, { status: old.status }),
        );
      } else {
        const attempts = retry.attempts + 1;
        const delay = RETRY_DELAYS_DAYS[attempts - 1];
        const sub: SubscriptionData = delay === undefined ? { ...old, status: 'unpaid' } : old;
        const nextRetry =
          delay === undefined ? null : { invoiceId: retry.invoiceId, attempts, nextAt: at + delay * DAY_SECONDS };
        const sim = withDue(sub, {
          ...item.sim,
          retry: nextRetry ?? { ...retry, attempts, nextAt: Number.MAX_SAFE_INTEGER },
        });
        await putObject({ id: sub.id, kind: 'subscription', data: sub, sim }, item.version, subIndex(sub, sim));
        if (invoice)
          events.push(
            await recordEvent(
              'invoice.payment_failed',
              await this.markFailed(invoice, attempts, nextRetry?.nextAt ?? null),
              at,
            ),
          );
        if (sub.status !== old.status)
          events.push(
            await recordEvent('customer.subscription.updated', publicSubscription(sub), at, { status: old.status }),
          );
      }
    } else if (old.cancel_at_period_end) {
      const sub: SubscriptionData = {
        ...old,
        status: 'canceled',
        ended_at: at,
        canceled_at: old.canceled_at ?? at,
        pending_price: null,
      };
      const sim = withDue(sub, { ...item.sim, retry: null });
      await putObject({ id: sub.id, kind: 'subscription', data: sub, sim }, item.version, subIndex(sub, sim));
      events.push(
        await recordEvent('customer.subscription.deleted', publicSubscription(sub), at, { status: old.status }),
      );
    } else {
      // The period ends: a pending change applies, the next period is invoiced and charged.
      const price = old.pending_price ?? old.plan;
      const start = old.current_period_end;
      const end = addInterval(start, price.recurring.interval);
      const amount = discounted(price.unit_amount, old.discount?.coupon);
      const pmId = typeof old.default_payment_method === 'string' ? old.default_payment_method : null;
      const charged = pmId ? await this.charge(pmId, amount) : { ok: false as const };
      const invoiceId = simId('in');
      const moved: SubscriptionData = { ...withPrice(old, price, start, end), latest_invoice: invoiceId };
      const previous = {
        status: old.status,
        current_period_start: old.current_period_start,
        current_period_end: old.current_period_end,
        items: old.items,
        ...(old.pending_price ? { pending_price: old.pending_price } : {}),
      };
      const sub: SubscriptionData = { ...moved, status: charged.ok ? 'active' : 'past_due' };
      const retry = charged.ok ? null : { invoiceId, attempts: 1, nextAt: at + RETRY_DELAYS_DAYS[0]! * DAY_SECONDS };
      const sim = withDue(sub, { ...item.sim, retry });
      await putObject({ id: sub.id, kind: 'subscription', data: sub, sim }, item.version, subIndex(sub, sim));
      const invoice = await this.createInvoice(invoiceId, sub, amount, 'subscription_cycle', at, start, end);
      if (charged.ok)
        events.push(await recordEvent('invoice.paid', await this.markPaid(invoice, charged.chargeId, at), at));
      else
        events.push(await recordEvent('invoice.payment_failed', await this.markFailed(invoice, 1, retry!.nextAt), at));
      events.push(await recordEvent('customer.subscription.updated', publicSubscription(sub), at, previous));
    }
    await deliverAll(events, target);
  }

  // ---- invoices and charges ------------------------------------------------------------------

  /** Charges a card on file: the 0341 card (and a missing one) declines, every other test card pays. */
  private async charge(
    paymentMethodId: string,
    amount: number,
  ): Promise<{ ok: true; chargeId: string | null } | { ok: false }> {
    if (amount <= 0) return { ok: true, chargeId: null };
    const pm = await getObject<PaymentMethodData, PaymentMethodSim>(paymentMethodId);
    if (pm?.kind !== 'payment_method' || pm.sim.behaviour !== 'succeeds') return { ok: false };
    return { ok: true, chargeId: simId('ch') };
  }

  private async nextInvoiceNumber(customerId: string): Promise<string> {
    const out = await ddb().update({
      TableName: table(),
      Key: keys.simpayInvoiceCounter(customerId),
      UpdateExpression: 'SET entity = :e ADD #n :one',
      ExpressionAttributeNames: { '#n': 'count' },
      ExpressionAttributeValues: { ':e': 'SimPayInvoiceCounter', ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    });
    const n = Number(out.Attributes?.count ?? 1);
    return `${customerId.slice(-8).toUpperCase()}-${String(n).padStart(4, '0')}`;
  }

  private async createInvoice(
    id: string,
    sub: SubscriptionData,
    amount: number,
    reason: InvoiceData['billing_reason'],
    at: number,
    periodStart: number,
    periodEnd: number,
  ): Promise<SimItem<InvoiceData, Record<string, never>>> {
    const customer = await getObject<CustomerData, CustomerSim>(sub.customer);
    const invoice: InvoiceData = {
      id,
      object: 'invoice',
      number: await this.nextInvoiceNumber(sub.customer),
      customer: sub.customer,
      customer_email: customer?.data.email ?? null,
      subscription: sub.id,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
      created: at,
      subtotal: amount,
      total: amount,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      amount_refunded: 0,
      currency: sub.plan.currency ?? SIM_CURRENCY,
      status: 'open',
      billing_reason: reason,
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      period_start: periodStart,
      period_end: periodEnd,
      invoice_pdf: null,
      hosted_invoice_url: `${this.opts.appOrigin()}/dash/account/billing/invoices/${id}`,
      charge: null,
      lines: {
        object: 'list',
        data: [
          {
            id: simId('il'),
            object: 'line_item',
            amount,
            currency: sub.plan.currency,
            description:
              reason === 'subscription_update'
                ? `Remaining time on ${sub.plan.nickname ?? sub.plan.id}`
                : reason === 'subscription_create' && amount === 0
                  ? `Trial period for ${sub.plan.nickname ?? sub.plan.id}`
                  : `1 × ${sub.plan.nickname ?? sub.plan.id}`,
            period: { start: periodStart, end: periodEnd },
            pricing: { price_details: { price: sub.plan.id } },
          },
        ],
      },
      status_transitions: { paid_at: null },
    };
    return putObject<InvoiceData, Record<string, never>>({ id, kind: 'invoice', data: invoice, sim: {} }, 0, {
      gsi1: keys.simpayCustomerList('INVOICES', sub.customer, at, id),
    });
  }

  private async markPaid(
    item: SimItem<InvoiceData, Record<string, never>>,
    chargeId: string | null,
    at: number,
  ): Promise<InvoiceData> {
    const inv = item.data;
    const data: InvoiceData = {
      ...inv,
      status: 'paid',
      amount_paid: inv.amount_due,
      amount_remaining: 0,
      attempt_count: inv.amount_due > 0 ? inv.attempt_count + 1 : inv.attempt_count,
      attempted: inv.amount_due > 0,
      next_payment_attempt: null,
      charge: chargeId,
      status_transitions: { paid_at: at },
    };
    await putObject({ ...item, data }, item.version, {
      gsi1: keys.simpayCustomerList('INVOICES', inv.customer, inv.created, inv.id),
    });
    return structuredClone(data);
  }

  private async markFailed(
    item: SimItem<InvoiceData, Record<string, never>>,
    attempts: number,
    nextAttempt: number | null,
  ): Promise<InvoiceData> {
    const data: InvoiceData = {
      ...item.data,
      attempt_count: attempts,
      attempted: true,
      next_payment_attempt: nextAttempt,
    };
    await putObject({ ...item, data }, item.version, {
      gsi1: keys.simpayCustomerList('INVOICES', data.customer, data.created, data.id),
    });
    return structuredClone(data);
  }

  // ---- events ---------------------------------------------------------------------------------

  listEvents(): Promise<EventWithDelivery[]> {
    return listEvents();
  }

  redeliverEvent(eventId: string): Promise<DeliveryRecord | null> {
    return redeliverEvent(eventId, this.opts.target());
  }

  async verifyWebhook(rawBody: string, signatureHeader: string | undefined, nowSeconds: number): Promise<PaymentEvent> {
    return verifySignedPayload(rawBody, signatureHeader, this.opts.target().secret, nowSeconds);
  }
}

function returnUrlOf(session: Pick<SessionData, 'return_url' | 'id'>): string {
  return session.return_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
}
