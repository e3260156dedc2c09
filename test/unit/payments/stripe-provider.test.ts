/**
 * The Stripe provider drives the REAL `stripe` SDK (its fetch HTTP client over a recording
 * fetch, test/helpers/stripe-recorder.ts): each method's requests are asserted as they go on
 * the wire (method, path, form body), answered with canned Stripe JSON, and the answers are
 * read back in the interface's shapes. Also: Stripe's error answers become CardError /
 * InvalidRequestError, and webhooks go through `stripe.webhooks.constructEventAsync`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CardError, InvalidRequestError, WebhookError } from '../../../functions/adapters/payments/provider';
import { REFUNDED_METADATA_KEY, StripeProvider } from '../../../functions/adapters/payments/stripe';
import { createStripeKeysLoader } from '../../../functions/adapters/payments/stripe-keys';
import { signatureHeader } from '../../../functions/adapters/payments/signature';
import { WEBHOOK_TOLERANCE_SECONDS } from '../../../functions/domain/billing-api';
import { paymentEventSchema } from '../../../functions/adapters/payments/event-schema';
import { list, price, stripeRecorder, subscription, type StripeRecorder } from '../../helpers/stripe-recorder';

const KEYS = { secretKey: 'sk_test_unit', publishableKey: 'pk_test_unit', webhookSecret: 'whsec_unit' };
const PRICES = { 'pro/month': 'price_pro_m', 'pro/year': 'price_pro_y', 'business/month': 'price_biz_m' };

let rec: StripeRecorder;
let provider: StripeProvider;
let secretReads: number;

beforeEach(() => {
  rec = stripeRecorder();
  secretReads = 0;
  const keys = createStripeKeysLoader('sendbridge/stripe', () => ({
    getSecretValue: async (input) => {
      secretReads += 1;
      expect(input).toEqual({ SecretId: 'sendbridge/stripe' });
      return { SecretString: JSON.stringify(KEYS) };
    },
  }));
  provider = new StripeProvider({ keys, prices: PRICES, fetch: rec.fetch, maxNetworkRetries: 0 });
  rec.on('GET /v1/prices', {
    body: list([
      price('price_pro_m', 'pro', 'month', 2900, 'Pro monthly'),
      price('price_pro_y', 'pro', 'year', 22800, null),
      price('price_biz_m', 'business', 'month', 6900, 'Business monthly'),
      price('price_other', 'pro', 'month', 100, 'Not ours'),
    ]),
  });
});

describe('keys and prices', () => {
  it('reads the secret once, authenticates with the secret key, and answers the publishable key once loaded', async () => {
    expect(provider.publishableKey).toBeNull();
    await provider.ready();
    expect(provider.publishableKey).toBe('pk_test_unit');
    await provider.prices();
    await provider.prices();
    expect(secretReads).toBe(1);
    expect(rec.requests[0]!.headers.get('authorization')).toBe('Bearer sk_test_unit');
  });

  it('lists prices once and keeps only the configured ones, with their role and period from STRIPE_PRICES', async () => {
    const views = await provider.prices();
    expect(rec.lines()).toEqual(['GET /v1/prices']);
    expect(rec.requests[0]!.query).toEqual({ active: 'true', limit: '100' });
    expect(views).toEqual([
      { priceId: 'price_pro_m', role: 'pro', period: 'month', amount: 29, currency: 'usd', nickname: 'Pro monthly' },
      { priceId: 'price_pro_y', role: 'pro', period: 'year', amount: 228, currency: 'usd', nickname: 'Pro yearly' },
      {
        priceId: 'price_biz_m',
        role: 'business',
        period: 'month',
        amount: 69,
        currency: 'usd',
        nickname: 'Business monthly',
      },
    ]);
    await provider.prices();
    expect(rec.lines()).toEqual(['GET /v1/prices']);
  });
});

describe('checkout', () => {
  const input = {
    price: {
      priceId: 'price_pro_y',
      role: 'pro' as const,
      period: 'year' as const,
      amount: 228,
      currency: 'usd',
      nickname: 'Pro yearly',
    },
    userId: 'user-1',
    customerEmail: 'alice@example.com',
    fullName: 'Alice A',
    referrer: 'https://example.com/ref',
    clientReferenceId: 'ref-42',
    trialDays: 7,
    returnUrl: 'https://app.example.com/thankyou2?session_id={CHECKOUT_SESSION_ID}',
  };
  const session = {
    id: 'cs_test_1',
    object: 'checkout.session',
    mode: 'subscription',
    status: 'open',
    client_secret: 'cs_test_1_secret_x',
    client_reference_id: 'ref-42',
    customer: null,
    customer_email: 'alice@example.com',
    subscription: null,
    metadata: { userId: 'user-1' },
  };

  it('creates an embedded Checkout Session in subscription mode with the 7-day trial, card required, promotion codes allowed', async () => {
    rec.on('POST /v1/checkout/sessions', { body: session });
    const out = await provider.createCheckoutSession(input);
    expect(rec.lines()).toEqual(['GET /v1/prices', 'POST /v1/checkout/sessions']);
    expect(rec.requests[1]!.form).toEqual({
      ui_mode: 'embedded_page',
      mode: 'subscription',
      'line_items[0][price]': 'price_pro_y',
      'line_items[0][quantity]': '1',
      'subscription_data[trial_period_days]': '7',
      'subscription_data[metadata][userId]': 'user-1',
      payment_method_collection: 'always',
      return_url: 'https://app.example.com/thankyou2?session_id={CHECKOUT_SESSION_ID}',
      client_reference_id: 'ref-42',
      customer_email: 'alice@example.com',
      'metadata[userId]': 'user-1',
      'metadata[fullName]': 'Alice A',
      'metadata[referrer]': 'https://example.com/ref',
      allow_promotion_codes: 'true',
    });
    expect(out).toEqual({ ...session, object: 'checkout.session' });
  });

  it('passes a promotion code (looked up by its code) or a coupon through as discounts, and reuses a customer', async () => {
    rec.on('POST /v1/checkout/sessions', { body: session });
    rec.on('GET /v1/promotion_codes', (req) => ({
      body: list(req.query.code === 'SPRING' ? [{ id: 'promo_9', object: 'promotion_code', code: 'SPRING' }] : []),
    }));
    await provider.createCheckoutSession({ ...input, couponId: 'SPRING', customerId: 'cus_7' });
    await provider.createCheckoutSession({ ...input, couponId: 'COUPON25' });
    await provider.createCheckoutSession({ ...input, couponId: 'promo_direct' });
    const forms = rec.requests.filter((r) => r.path === '/v1/checkout/sessions').map((r) => r.form);
    expect(rec.requests.find((r) => r.path === '/v1/promotion_codes')!.query).toEqual({
      code: 'SPRING',
      active: 'true',
      limit: '1',
    });
    expect(forms[0]).toMatchObject({ 'discounts[0][promotion_code]': 'promo_9', customer: 'cus_7' });
    expect(forms[0]).not.toHaveProperty('customer_email');
    expect(forms[0]).not.toHaveProperty('allow_promotion_codes');
    expect(forms[1]).toMatchObject({ 'discounts[0][coupon]': 'COUPON25', customer_email: 'alice@example.com' });
    expect(forms[2]).toMatchObject({ 'discounts[0][promotion_code]': 'promo_direct' });
  });

  it('refuses a price that is not configured without calling Checkout', async () => {
    await expect(
      provider.createCheckoutSession({ ...input, price: { ...input.price, priceId: 'price_other' } }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    expect(rec.lines()).toEqual(['GET /v1/prices']);
  });

  it('retrieves a session, and answers null for a missing one', async () => {
    rec.on('GET /v1/checkout/sessions/cs_test_1', {
      body: { ...session, status: 'complete', customer: 'cus_1', subscription: 'sub_1' },
    });
    expect(await provider.retrieveCheckoutSession('cs_test_1')).toMatchObject({
      status: 'complete',
      customer: 'cus_1',
      subscription: 'sub_1',
    });
    expect(await provider.retrieveCheckoutSession('cs_gone')).toBeNull();
  });
});

describe("errors in the interface's words", () => {
  it("StripeCardError -> CardError with Stripe's code, message and decline code", async () => {
    rec.on('POST /v1/checkout/sessions', {
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        },
      },
    });
    const err = await provider
      .createCheckoutSession({
        price: {
          priceId: 'price_pro_m',
          role: 'pro',
          period: 'month',
          amount: 29,
          currency: 'usd',
          nickname: 'Pro monthly',
        },
        userId: 'u',
        customerEmail: 'a@example.com',
        trialDays: 7,
        returnUrl: 'https://x',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CardError);
    expect(err).toMatchObject({
      code: 'card_declined',
      message: 'Your card has insufficient funds.',
      declineCode: 'insufficient_funds',
    });
  });

  it('StripeInvalidRequestError -> InvalidRequestError with its code and param', async () => {
    rec.on('POST /v1/setup_intents', {
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: 'customer',
          message: "No such customer: 'cus_x'",
        },
      },
    });
    const err = await provider.createSetupIntent('cus_x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err).toMatchObject({ code: 'resource_missing', param: 'customer', message: "No such customer: 'cus_x'" });
  });
});

describe('customers, cards, invoices', () => {
  it('retrieves the customer with subscriptions (newest first, pending downgrade from the schedule) and the default card expanded', async () => {
    const older = subscription({ id: 'sub_old', created: 1_600_000_000, status: 'canceled' });
    const newer = subscription({
      id: 'sub_new',
      schedule: {
        id: 'sub_sched_1',
        object: 'subscription_schedule',
        phases: [
          { start_date: 1_700_000_000, items: [{ price: 'price_pro_m' }] },
          { start_date: 1_702_592_000, items: [{ price: 'price_biz_m' }] },
        ],
      },
    });
    rec.on('GET /v1/customers/cus_1', {
      body: {
        id: 'cus_1',
        object: 'customer',
        email: 'alice@example.com',
        name: 'Alice',
        metadata: { userId: 'user-1' },
        invoice_settings: {
          default_payment_method: {
            id: 'pm_1',
            object: 'payment_method',
            card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031 },
          },
        },
        discount: null,
        subscriptions: list([older, newer]),
      },
    });
    const customer = await provider.retrieveCustomer('cus_1');
    const req = rec.requests.find((r) => r.path === '/v1/customers/cus_1')!;
    expect(req.query).toEqual({
      'expand[0]': 'subscriptions',
      'expand[1]': 'subscriptions.data.schedule',
      'expand[2]': 'invoice_settings.default_payment_method',
    });
    expect(customer!.invoice_settings.default_payment_method).toEqual({
      id: 'pm_1',
      object: 'payment_method',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031 },
    });
    expect(customer!.subscriptions!.data.map((s) => s.id)).toEqual(['sub_new', 'sub_old']);
    const live = customer!.subscriptions!.data[0]!;
    expect(live).toMatchObject({
      status: 'active',
      current_period_start: 1_700_000_000,
      current_period_end: 1_702_592_000,
      pending_price: { id: 'price_biz_m', unit_amount: 6900 },
    });
    expect(live.items.data[0]!.price).toMatchObject({
      id: 'price_pro_m',
      metadata: { role: 'pro' },
      recurring: { interval: 'month' },
    });
    rec.on('GET /v1/customers/cus_deleted', { body: { id: 'cus_deleted', object: 'customer', deleted: true } });
    expect(await provider.retrieveCustomer('cus_deleted')).toBeNull();
    expect(await provider.retrieveCustomer('cus_unknown')).toBeNull();
  });

  it('a SetupIntent for the customer, off session', async () => {
    rec.on('POST /v1/setup_intents', {
      body: { id: 'seti_1', object: 'setup_intent', client_secret: 'seti_1_secret_x' },
    });
    expect(await provider.createSetupIntent('cus_1')).toEqual({ id: 'seti_1', client_secret: 'seti_1_secret_x' });
    expect(rec.requests.at(-1)!.form).toEqual({ customer: 'cus_1', usage: 'off_session' });
  });

  it("the new card becomes the customer's and the live subscriptions' default; a past-due invoice is paid with it", async () => {
    rec.on('GET /v1/payment_methods/pm_2', {
      body: {
        id: 'pm_2',
        object: 'payment_method',
        customer: 'cus_1',
        card: { brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2030 },
      },
    });
    rec.on('POST /v1/customers/cus_1', { body: { id: 'cus_1', object: 'customer' } });
    rec.on('GET /v1/subscriptions', {
      body: list([
        subscription({ id: 'sub_due', status: 'past_due', latest_invoice: 'in_open' }),
        subscription({ id: 'sub_gone', status: 'canceled' }),
      ]),
    });
    rec.on('POST /v1/subscriptions/sub_due', { body: subscription({ id: 'sub_due' }) });
    rec.on('POST /v1/invoices/in_open/pay', { body: { id: 'in_open', object: 'invoice', status: 'paid' } });
    const pm = await provider.setDefaultPaymentMethod('cus_1', 'pm_2');
    expect(pm).toEqual({
      id: 'pm_2',
      object: 'payment_method',
      card: { brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2030 },
    });
    expect(rec.lines()).toEqual([
      'GET /v1/payment_methods/pm_2',
      'POST /v1/customers/cus_1',
      'GET /v1/subscriptions',
      'POST /v1/subscriptions/sub_due',
      'POST /v1/invoices/in_open/pay',
    ]);
    expect(rec.requests[1]!.form).toEqual({ 'invoice_settings[default_payment_method]': 'pm_2' });
    expect(rec.requests[2]!.query).toEqual({ customer: 'cus_1', status: 'all', limit: '20' });
    expect(rec.requests[3]!.form).toEqual({ default_payment_method: 'pm_2' });
    expect(rec.requests[4]!.form).toEqual({ payment_method: 'pm_2', off_session: 'true' });
  });

  it("refuses another customer's card", async () => {
    rec.on('GET /v1/payment_methods/pm_x', {
      body: {
        id: 'pm_x',
        object: 'payment_method',
        customer: 'cus_other',
        card: { brand: 'visa', last4: '1111', exp_month: 1, exp_year: 2030 },
      },
    });
    await expect(provider.setDefaultPaymentMethod('cus_1', 'pm_x')).rejects.toMatchObject({ code: 'resource_missing' });
    expect(rec.lines()).toEqual(['GET /v1/payment_methods/pm_x']);
  });

  it('lists invoices with their subscription from parent.subscription_details and the refunded amount from our metadata', async () => {
    rec.on('GET /v1/invoices', {
      body: list([
        {
          id: 'in_2',
          object: 'invoice',
          number: 'AB-0002',
          customer: 'cus_1',
          created: 1_702_000_000,
          total: 2900,
          amount_paid: 2900,
          currency: 'usd',
          status: 'paid',
          invoice_pdf: 'https://pay.stripe.com/invoice/pdf',
          hosted_invoice_url: 'https://invoice.stripe.com/i/x',
          metadata: { [REFUNDED_METADATA_KEY]: '2900' },
          parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
        },
        {
          id: 'in_1',
          object: 'invoice',
          number: 'AB-0001',
          customer: 'cus_1',
          created: 1_700_000_000,
          total: 0,
          amount_paid: 0,
          currency: 'usd',
          status: 'paid',
          invoice_pdf: null,
          hosted_invoice_url: null,
          metadata: {},
          parent: null,
        },
      ]),
    });
    const invoices = await provider.listInvoices('cus_1');
    expect(rec.requests.at(-1)!.query).toEqual({ customer: 'cus_1', limit: '100' });
    expect(invoices).toEqual([
      {
        id: 'in_2',
        object: 'invoice',
        number: 'AB-0002',
        customer: 'cus_1',
        subscription: 'sub_1',
        created: 1_702_000_000,
        total: 2900,
        amount_paid: 2900,
        currency: 'usd',
        status: 'paid',
        invoice_pdf: 'https://pay.stripe.com/invoice/pdf',
        hosted_invoice_url: 'https://invoice.stripe.com/i/x',
        amount_refunded: 2900,
      },
      {
        id: 'in_1',
        object: 'invoice',
        number: 'AB-0001',
        customer: 'cus_1',
        subscription: null,
        created: 1_700_000_000,
        total: 0,
        amount_paid: 0,
        currency: 'usd',
        status: 'paid',
        invoice_pdf: null,
        hosted_invoice_url: null,
        amount_refunded: 0,
      },
    ]);
  });
});

describe('subscription changes', () => {
  const expandQuery = { 'expand[0]': 'schedule', 'expand[1]': 'default_payment_method' };

  it('upgrade now: the item changes price with always_invoice proration, error_if_incomplete', async () => {
    let after = subscription();
    rec.on('GET /v1/subscriptions/sub_1', () => ({ body: after }));
    rec.on('POST /v1/subscriptions/sub_1', () => {
      after = subscription({
        items: list([
          {
            id: 'si_1',
            object: 'subscription_item',
            current_period_start: 1_700_000_000,
            current_period_end: 1_702_592_000,
            price: price('price_biz_m', 'business', 'month', 6900),
          },
        ]),
      });
      return { body: after };
    });
    const sub = await provider.changePrice('sub_1', 'price_biz_m', 'now');
    expect(rec.lines()).toEqual([
      'GET /v1/prices',
      'GET /v1/subscriptions/sub_1',
      'POST /v1/subscriptions/sub_1',
      'GET /v1/subscriptions/sub_1',
    ]);
    expect(rec.requests[1]!.query).toEqual(expandQuery);
    expect(rec.requests[2]!.form).toEqual({
      'items[0][id]': 'si_1',
      'items[0][price]': 'price_biz_m',
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    expect(sub.items.data[0]!.price.id).toBe('price_biz_m');
  });

  it('a change while trialing switches without proration', async () => {
    rec.on('GET /v1/subscriptions/sub_1', { body: subscription({ status: 'trialing', trial_end: 1_700_600_000 }) });
    rec.on('POST /v1/subscriptions/sub_1', { body: subscription({ status: 'trialing' }) });
    await provider.changePrice('sub_1', 'price_pro_y', 'now');
    expect(rec.requests.find((r) => r.method === 'POST')!.form).toMatchObject({ proration_behavior: 'none' });
  });

  it('downgrade at period end: a schedule from the subscription, current price until the period end, then the new one, released after', async () => {
    let sched: unknown = null;
    rec.on('GET /v1/subscriptions/sub_1', () => ({
      body: subscription({
        items: list([
          {
            id: 'si_1',
            object: 'subscription_item',
            current_period_start: 1_700_000_000,
            current_period_end: 1_702_592_000,
            price: price('price_biz_m', 'business', 'month', 6900),
          },
        ]),
        schedule: sched,
      }),
    }));
    rec.on('POST /v1/subscription_schedules', { body: { id: 'sub_sched_1', object: 'subscription_schedule' } });
    rec.on('POST /v1/subscription_schedules/sub_sched_1', () => {
      sched = {
        id: 'sub_sched_1',
        object: 'subscription_schedule',
        phases: [
          { start_date: 1_700_000_000, items: [{ price: 'price_biz_m' }] },
          { start_date: 1_702_592_000, items: [{ price: 'price_pro_m' }] },
        ],
      };
      return { body: sched };
    });
    const sub = await provider.changePrice('sub_1', 'price_pro_m', 'period_end');
    expect(rec.lines()).toEqual([
      'GET /v1/prices',
      'GET /v1/subscriptions/sub_1',
      'POST /v1/subscription_schedules',
      'POST /v1/subscription_schedules/sub_sched_1',
      'GET /v1/subscriptions/sub_1',
    ]);
    expect(rec.requests[2]!.form).toEqual({ from_subscription: 'sub_1' });
    expect(rec.requests[3]!.form).toEqual({
      end_behavior: 'release',
      proration_behavior: 'none',
      'phases[0][items][0][price]': 'price_biz_m',
      'phases[0][items][0][quantity]': '1',
      'phases[0][start_date]': '1700000000',
      'phases[0][end_date]': '1702592000',
      'phases[1][items][0][price]': 'price_pro_m',
      'phases[1][items][0][quantity]': '1',
      'phases[1][duration][interval]': 'month',
      'phases[1][duration][interval_count]': '1',
    });
    expect(sub.items.data[0]!.price.id).toBe('price_biz_m');
    expect(sub.pending_price).toMatchObject({ id: 'price_pro_m', unit_amount: 2900 });
  });

  it('cancel at period end (releasing a pending downgrade) and resume', async () => {
    rec.on('GET /v1/subscriptions/sub_1', {
      body: subscription({ schedule: { id: 'sub_sched_1', object: 'subscription_schedule', phases: [] } }),
    });
    rec.on('POST /v1/subscription_schedules/sub_sched_1/release', {
      body: { id: 'sub_sched_1', object: 'subscription_schedule' },
    });
    rec.on('POST /v1/subscriptions/sub_1', (req) => ({
      body: subscription({ cancel_at_period_end: req.form.cancel_at_period_end === 'true' }),
    }));
    expect((await provider.setCancelAtPeriodEnd('sub_1', true)).cancel_at_period_end).toBe(true);
    expect(rec.lines()).toEqual([
      'GET /v1/subscriptions/sub_1',
      'POST /v1/subscription_schedules/sub_sched_1/release',
      'POST /v1/subscriptions/sub_1',
    ]);
    expect(rec.requests[2]!.form).toEqual({
      cancel_at_period_end: 'true',
      'expand[0]': 'schedule',
      'expand[1]': 'default_payment_method',
    });
    expect((await provider.setCancelAtPeriodEnd('sub_1', false)).cancel_at_period_end).toBe(false);
    expect(rec.requests.at(-1)!.form).toMatchObject({ cancel_at_period_end: 'false' });
  });

  it("refund and cancel: each paid invoice's payment intent is refunded, the invoice marked, then the subscription cancelled now", async () => {
    rec.on('GET /v1/invoices', {
      body: list([
        { id: 'in_2', object: 'invoice', amount_paid: 2900, metadata: {}, status: 'paid' },
        { id: 'in_1', object: 'invoice', amount_paid: 0, metadata: {}, status: 'paid' },
      ]),
    });
    rec.on('GET /v1/invoice_payments', {
      body: list([
        {
          id: 'inpay_1',
          object: 'invoice_payment',
          status: 'paid',
          payment: { type: 'payment_intent', payment_intent: 'pi_1' },
        },
      ]),
    });
    rec.on('POST /v1/refunds', { body: { id: 're_1', object: 'refund', amount: 2900, status: 'succeeded' } });
    rec.on('POST /v1/invoices/in_2', { body: { id: 'in_2', object: 'invoice' } });
    rec.on('DELETE /v1/subscriptions/sub_1', {
      body: subscription({ status: 'canceled', canceled_at: 1_701_000_000 }),
    });
    const out = await provider.refundAndCancel('sub_1');
    expect(rec.lines()).toEqual([
      'GET /v1/invoices',
      'GET /v1/invoice_payments',
      'POST /v1/refunds',
      'POST /v1/invoices/in_2',
      'DELETE /v1/subscriptions/sub_1',
    ]);
    expect(rec.requests[0]!.query).toEqual({ subscription: 'sub_1', status: 'paid', limit: '100' });
    expect(rec.requests[1]!.query).toEqual({ invoice: 'in_2', limit: '100' });
    expect(rec.requests[2]!.form).toEqual({
      payment_intent: 'pi_1',
      reason: 'requested_by_customer',
      'metadata[invoice]': 'in_2',
      'metadata[subscription]': 'sub_1',
    });
    expect(rec.requests[3]!.form).toEqual({ [`metadata[${REFUNDED_METADATA_KEY}]`]: '2900' });
    expect(rec.requests[4]!.query).toEqual({ invoice_now: 'false', prorate: 'false' });
    expect(out).toMatchObject({ refunded: 2900, subscription: { status: 'canceled' } });
  });
});

describe('webhooks through stripe.webhooks.constructEventAsync', () => {
  const event = {
    id: 'evt_1',
    object: 'event',
    type: 'customer.subscription.updated',
    created: 1_700_000_100,
    api_version: '2026-10-28.endive',
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: subscription({ status: 'past_due' }) },
  };
  const body = JSON.stringify(event);
  const now = Math.floor(Date.now() / 1000);

  it('accepts a valid signature and maps the object to the interface shape', async () => {
    const out = await provider.verifyWebhook(body, signatureHeader(body, KEYS.webhookSecret, now), now);
    expect(out).toMatchObject({
      id: 'evt_1',
      type: 'customer.subscription.updated',
      created: 1_700_000_100,
      data: { object: { id: 'sub_1', status: 'past_due', current_period_end: 1_702_592_000 } },
    });
    // what the mapping gives is what the webhook handler's schema accepts
    expect(paymentEventSchema.safeParse(out).success).toBe(true);
  });

  it('maps a one-time price to no period (not a monthly one), and refuses an object it cannot read', async () => {
    const sub = subscription({ status: 'active' }) as { items: { data: { price: Record<string, unknown> }[] } };
    const oneTime = {
      ...event,
      data: {
        object: {
          ...sub,
          items: {
            ...sub.items,
            data: sub.items.data.map((i) => ({ ...i, price: { ...i.price, recurring: null, type: 'one_time' } })),
          },
        },
      },
    };
    const oneTimeBody = JSON.stringify(oneTime);
    const out = await provider.verifyWebhook(oneTimeBody, signatureHeader(oneTimeBody, KEYS.webhookSecret, now), now);
    expect(
      (out.data.object as { items: { data: { price: { recurring: unknown } }[] } }).items.data[0]!.price.recurring,
    ).toBeNull();
    expect(paymentEventSchema.safeParse(out).success).toBe(true);
    const broken = JSON.stringify({
      ...event,
      data: { object: { id: 'sub_2', object: 'subscription', customer: 'cus_1', status: 'active' } },
    });
    const refused = await provider
      .verifyWebhook(broken, signatureHeader(broken, KEYS.webhookSecret, now), now)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WebhookError);
    expect((refused as WebhookError).code).toBe('invalid_event');
  });

  it('refuses tampered, too old, wrong-secret and missing signatures with their codes', async () => {
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e: unknown) => (e instanceof WebhookError ? e.code : String(e)),
      );
    expect(
      await code(
        provider.verifyWebhook(body.replace('past_due', 'active'), signatureHeader(body, KEYS.webhookSecret, now), now),
      ),
    ).toBe('invalid_signature');
    expect(
      await code(
        provider.verifyWebhook(
          body,
          signatureHeader(body, KEYS.webhookSecret, now - WEBHOOK_TOLERANCE_SECONDS - 10),
          now,
        ),
      ),
    ).toBe('signature_too_old');
    expect(await code(provider.verifyWebhook(body, signatureHeader(body, 'whsec_wrong', now), now))).toBe(
      'invalid_signature',
    );
    expect(await code(provider.verifyWebhook(body, undefined, now))).toBe('invalid_signature');
    expect(await code(provider.verifyWebhook(body, 'garbage', now))).toBe('invalid_signature');
  });
});
