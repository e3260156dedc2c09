/**
 * The payments simulator against DynamoDB Local, its checkout card routes through the
 * local gateway, and a local HTTP receiver standing in for the webhook: every event must arrive
 * in Stripe's shape with a valid Stripe-Signature. Covers checkout with the test cards, the
 * clock moving a trial to its end (good card -> active; 0341 -> past_due -> unpaid), cancel at
 * period end, refund, upgrade now and downgrade at period end, card replacement, and delivery
 * (an undelivered event retried at the next tick, redelivery on demand).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import type { SimulatedSessionView } from '../../functions/domain/billing-api';
import { TRIAL_WILL_END_DAYS, WEBHOOK_TOLERANCE_SECONDS } from '../../functions/domain/billing-api';
import type {
  InvoiceObject,
  PaymentEvent,
  SubscriptionObject,
  CheckoutSessionObject,
} from '../../functions/adapters/payments/provider';
import { simulator } from '../../functions/adapters/payments/simulated';
import { simPrice, priceView } from '../../functions/adapters/payments/simulated/prices';
import { verifySignedPayload } from '../../functions/adapters/payments/signature';
import { ENV } from '../../functions/lib/env-names';
import { resetPaymentsConfig } from '../../functions/lib/env';
import { runClockCommand } from '../../scripts/local/payments-clock';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, json, type TestUser } from '../helpers/transfers';

const SECRET = 'whsec_integration_test_secret';
const DAY = 24 * 3600;

interface Received {
  readonly event: PaymentEvent;
  readonly raw: string;
  readonly signature: string;
}

let app: LocalApp;
let receiver: Server;
const received: Received[] = [];
/** what the receiver answers (a failing webhook is 500) */
let answerStatus = 200;
let alice: TestUser;
let bob: TestUser;
const sim = () => simulator();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['stripe-signature'] ?? '');
      if (answerStatus === 200) {
        // The receiver is a real verifier: a bad signature would answer 400, and the test would see it undelivered.
        try {
          received.push({
            event: verifySignedPayload(raw, signature, SECRET, Math.floor(Date.now() / 1000)),
            raw,
            signature,
          });
        } catch {
          res.writeHead(400).end();
          return;
        }
      }
      res.writeHead(answerStatus, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  process.env[ENV.paymentsWebhookUrl] = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
  process.env[ENV.paymentsWebhookSecret] = SECRET;
  app = await startTestApp();
  // The stack sets its own local secret; this test's receiver checks with SECRET.
  process.env[ENV.paymentsWebhookSecret] = SECRET;
  resetPaymentsConfig();
  alice = await createUser(app, 'alice.payer@example.com', 'free');
  bob = await createUser(app, 'bob.other@example.com', 'free');
});

afterAll(async () => {
  await app?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const futureYear = () => new Date().getUTCFullYear() + 6;
const card = (number: string, extra: Record<string, unknown> = {}) => ({
  number,
  expMonth: 12,
  expYear: futureYear(),
  cvc: '123',
  name: 'Alice Payer',
  postalCode: '10001',
  ...extra,
});

async function newSession(
  user: TestUser,
  priceId = 'price_sim_pro_month',
  extra: { couponId?: string } = {},
): Promise<CheckoutSessionObject> {
  return sim().createCheckoutSession({
    price: priceView(simPrice(priceId)!),
    userId: user.sub,
    customerEmail: user.email,
    trialDays: 7,
    returnUrl: 'http://127.0.0.1:5999/thankyou2?session_id={CHECKOUT_SESSION_ID}',
    clientReferenceId: 'ref-1',
    ...extra,
  });
}

function pay(
  user: TestUser,
  clientSecret: string,
  number = '4242 4242 4242 4242',
  extra: Record<string, unknown> = {},
) {
  return api(app, '/payments/simulated/checkout', json({ clientSecret, ...card(number, extra) }, bearer(user)));
}

/** A trialing subscription of `user`, paid with `number`. */
async function subscribe(
  user: TestUser,
  number = '4242424242424242',
  priceId = 'price_sim_pro_month',
): Promise<{ sub: SubscriptionObject; session: CheckoutSessionObject }> {
  const session = await newSession(user, priceId);
  const res = await pay(user, session.client_secret, number);
  expect(res.status, res.text).toBe(200);
  const done = (await sim().retrieveCheckoutSession(session.id))!;
  const sub = (await sim().retrieveSubscription(done.subscription!))!;
  return { sub, session: done };
}

const eventsOf = (id: string) =>
  received.filter((r) => JSON.stringify(r.event.data.object).includes(id)).map((r) => r.event);
const typesOf = (id: string) => eventsOf(id).map((e) => e.type);
const subOf = (e: PaymentEvent) => e.data.object as SubscriptionObject;
/** the simulator's invoices carry Stripe's attempt fields beside the interface's subset */
const invoiceOf = (e: PaymentEvent) =>
  e.data.object as InvoiceObject & { attempt_count: number; next_payment_attempt: number | null };

describe('checkout with the test cards', () => {
  it('4242: the session is paid, a trialing subscription with a $0 invoice, and the events in Stripe shapes, signed', async () => {
    const before = received.length;
    const session = await newSession(alice, 'price_sim_pro_year');
    expect(session.client_secret).toMatch(/^cs_sim_[A-Za-z0-9]{16}_secret_[A-Za-z0-9]{24}$/u);
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      metadata: { userId: alice.sub },
      customer_email: alice.email,
    });

    const view = await api(
      app,
      `/payments/simulated/checkout?clientSecret=${encodeURIComponent(session.client_secret)}`,
      { headers: bearer(alice) },
    );
    expect(view.status, view.text).toBe(200);
    expect(view.json as SimulatedSessionView).toEqual({
      sessionId: session.id,
      mode: 'subscription',
      customerEmail: alice.email,
      price: {
        priceId: 'price_sim_pro_year',
        role: 'pro',
        period: 'year',
        amount: 228,
        currency: 'usd',
        nickname: 'Pro yearly',
      },
      trialDays: 7,
      status: 'open',
      returnUrl: `http://127.0.0.1:5999/thankyou2?session_id=${session.id}`,
    });

    const now = await sim().now();
    const res = await pay(alice, session.client_secret);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      status: 'complete',
      returnUrl: `http://127.0.0.1:5999/thankyou2?session_id=${session.id}`,
    });

    const done = (await sim().retrieveCheckoutSession(session.id))!;
    expect(done.status).toBe('complete');
    const sub = (await sim().retrieveSubscription(done.subscription!))!;
    expect(sub).toMatchObject({
      object: 'subscription',
      status: 'trialing',
      customer: done.customer,
      cancel_at_period_end: false,
      metadata: { userId: alice.sub },
    });
    expect(sub.trial_end! - now).toBeGreaterThanOrEqual(7 * DAY - 5);
    expect(sub.trial_end! - now).toBeLessThanOrEqual(7 * DAY + 5);
    expect(sub.current_period_end).toBe(sub.trial_end);
    expect(sub.items.data[0]!.price).toMatchObject({
      id: 'price_sim_pro_year',
      unit_amount: 22800,
      nickname: 'Pro yearly',
      metadata: { role: 'pro' },
      recurring: { interval: 'year' },
    });

    const customer = (await sim().retrieveCustomer(done.customer!))!;
    expect(customer.metadata.userId).toBe(alice.sub);
    expect(customer.email).toBe(alice.email);
    expect(customer.invoice_settings.default_payment_method).toMatchObject({
      object: 'payment_method',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: futureYear() },
    });
    expect(customer.subscriptions!.data.map((s) => s.id)).toEqual([sub.id]);

    const invoices = await sim().listInvoices(done.customer!);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      object: 'invoice',
      status: 'paid',
      total: 0,
      amount_paid: 0,
      subscription: sub.id,
      invoice_pdf: null,
    });
    expect(invoices[0]!.number).toMatch(/^[A-Z0-9]{8}-0001$/u);
    expect(invoices[0]!.hosted_invoice_url).toBe(
      `http://127.0.0.1:5999/dash/account/billing/invoices/${invoices[0]!.id}`,
    );

    const mine = received.slice(before);
    expect(mine.map((r) => r.event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    for (const r of mine) {
      expect(r.event).toMatchObject({ object: 'event', livemode: false });
      expect(r.event.id).toMatch(/^evt_sim_/u);
      expect(r.event.created).toBeGreaterThanOrEqual(now);
      expect(r.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/u);
      // The same bytes fail with another secret and once tampered.
      expect(() => verifySignedPayload(r.raw, r.signature, 'whsec_other', Math.floor(Date.now() / 1000))).toThrow(
        /signature/u,
      );
      expect(() =>
        verifySignedPayload(r.raw.replace('"object"', '"objekt"'), r.signature, SECRET, Math.floor(Date.now() / 1000)),
      ).toThrow(/signature/u);
      expect(() =>
        verifySignedPayload(r.raw, r.signature, SECRET, Math.floor(Date.now() / 1000) + WEBHOOK_TOLERANCE_SECONDS + 60),
      ).toThrow(/tolerance/u);
    }
    const completed = mine[2]!.event.data.object as CheckoutSessionObject;
    expect(completed).toMatchObject({
      id: session.id,
      object: 'checkout.session',
      status: 'complete',
      customer: done.customer,
      subscription: sub.id,
      client_reference_id: 'ref-1',
      metadata: { userId: alice.sub },
    });
    expect(subOf(mine[0]!.event).status).toBe('trialing');

    // Paying the same session again: it is complete.
    const again = await pay(alice, session.client_secret);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('checkout_not_open');
  });

  it("0002: declined with Stripe's card error; the session stays open and nothing is created", async () => {
    const before = received.length;
    const session = await newSession(alice);
    const res = await pay(alice, session.client_secret, '4000 0000 0000 0002');
    expect(res.status, res.text).toBe(402);
    expect(res.json.error).toEqual({
      code: 'card_declined',
      message: 'Your card was declined.',
      details: { declineCode: 'generic_decline' },
    });
    const after = (await sim().retrieveCheckoutSession(session.id))!;
    expect(after).toMatchObject({ status: 'open', customer: null, subscription: null });
    expect(received.length).toBe(before);
    expect((await sim().listEvents()).some((e) => JSON.stringify(e.event.data.object).includes(session.id))).toBe(
      false,
    );
    // The same session then pays with a good card.
    expect((await pay(alice, session.client_secret)).status).toBe(200);
  });

  it('checks the card like Stripe: number, expiry, CVC', async () => {
    const session = await newSession(alice);
    const lastYear = new Date().getUTCFullYear() - 1;
    const cases: [Record<string, unknown>, string, string][] = [
      [card('4242 4242 4242 4241'), 'incorrect_number', 'Your card number is incorrect.'],
      [card('1234'), 'invalid_number', 'Your card number is not a valid credit card number.'],
      [
        card('4242424242424242', { expYear: lastYear }),
        'invalid_expiry_year',
        "Your card's expiration year is invalid.",
      ],
      [card('4242424242424242', { expMonth: 13 }), 'invalid_expiry_month', "Your card's expiration month is invalid."],
      [card('4242424242424242', { cvc: '12' }), 'invalid_cvc', "Your card's security code is invalid."],
      [card('4000000000009995'), 'card_declined', 'Your card has insufficient funds.'],
    ];
    for (const [body, code, message] of cases) {
      const res = await api(
        app,
        '/payments/simulated/checkout',
        json({ clientSecret: session.client_secret, ...body }, bearer(alice)),
      );
      expect(res.status, `${code}: ${res.text}`).toBe(402);
      expect(res.json.error.code).toBe(code);
      expect(res.json.error.message).toBe(message);
    }
    expect((await sim().retrieveCheckoutSession(session.id))!.status).toBe('open');
    // Brands from the number.
    const amex = await pay(alice, session.client_secret, '3782 822463 10005', { cvc: '1234' });
    expect(amex.status, amex.text).toBe(200);
    const done = (await sim().retrieveCheckoutSession(session.id))!;
    const customer = (await sim().retrieveCustomer(done.customer!))!;
    expect(customer.invoice_settings.default_payment_method).toMatchObject({ card: { brand: 'amex', last4: '0005' } });
  });

  it("another user's session, an unknown secret, a malformed one: 404 and nothing paid", async () => {
    const session = await newSession(alice);
    const view = await api(
      app,
      `/payments/simulated/checkout?clientSecret=${encodeURIComponent(session.client_secret)}`,
      { headers: bearer(bob) },
    );
    expect(view.status).toBe(404);
    expect(JSON.stringify(view.json)).not.toContain(alice.email);
    expect((await pay(bob, session.client_secret)).status).toBe(404);
    const forged = session.client_secret.replace(/_secret_.*/u, `_secret_${'A'.repeat(24)}`);
    expect((await pay(alice, forged)).status).toBe(404);
    expect((await pay(alice, 'cs_nothing')).status).toBe(404);
    expect((await api(app, '/payments/simulated/checkout?clientSecret=x', { headers: bearer(alice) })).status).toBe(
      404,
    );
    expect((await sim().retrieveCheckoutSession(session.id))!.status).toBe('open');
    // Without a token: the gateway's 401.
    expect(
      (
        await api(
          app,
          '/payments/simulated/checkout',
          json({ clientSecret: session.client_secret, ...card('4242424242424242') }),
        )
      ).status,
    ).toBe(401);
  });

  it('an expired session (24 h on the simulated clock) cannot be paid', async () => {
    const session = await newSession(alice);
    await sim().advanceClock(DAY + 60);
    const view = await api(
      app,
      `/payments/simulated/checkout?clientSecret=${encodeURIComponent(session.client_secret)}`,
      { headers: bearer(alice) },
    );
    expect(view.json.status).toBe('expired');
    const res = await pay(alice, session.client_secret);
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('checkout_not_open');
  });
});

describe('a returning customer', () => {
  it("a new checkout for the user's customer adds a subscription to it (newest first); the card becomes the default; nobody else can pay as that customer", async () => {
    const { sub, session } = await subscribe(alice, '4242424242424242', 'price_sim_personal_year');
    await sim().refundAndCancel(sub.id);
    const again = await sim().createCheckoutSession({
      price: priceView(simPrice('price_sim_pro_year')!),
      userId: alice.sub,
      customerEmail: alice.email,
      customerId: session.customer!,
      trialDays: 7,
      returnUrl: 'http://127.0.0.1:5999/thankyou2?session_id={CHECKOUT_SESSION_ID}',
    });
    expect(again).toMatchObject({ customer: session.customer, customer_email: null });
    const view = await api(
      app,
      `/payments/simulated/checkout?clientSecret=${encodeURIComponent(again.client_secret)}`,
      { headers: bearer(alice) },
    );
    expect(view.json.customerEmail).toBe(alice.email);
    expect((await pay(alice, again.client_secret, '5555555555554444')).status).toBe(200);
    const customer = (await sim().retrieveCustomer(session.customer!))!;
    expect(customer.subscriptions!.data.map((s) => [s.status, s.items.data[0]!.price.id])).toEqual([
      ['trialing', 'price_sim_pro_year'],
      ['canceled', 'price_sim_personal_year'],
    ]);
    expect(customer.invoice_settings.default_payment_method).toMatchObject({
      card: { brand: 'mastercard', last4: '4444' },
    });
    await sim().setCancelAtPeriodEnd(customer.subscriptions!.data[0]!.id, true);

    const forged = await sim().createCheckoutSession({
      price: priceView(simPrice('price_sim_pro_month')!),
      userId: bob.sub,
      customerEmail: bob.email,
      customerId: session.customer!,
      trialDays: 7,
      returnUrl: 'http://x',
    });
    expect((await pay(bob, forged.client_secret)).status).toBe(404);
    expect((await sim().retrieveCheckoutSession(forged.id))!.status).toBe('open');
  });
});

describe('checkout without a trial, with a coupon', () => {
  it('charges the discounted first period at once; a card that cannot pay is declined before anything is made', async () => {
    const make = () =>
      sim().createCheckoutSession({
        price: priceView(simPrice('price_sim_pro_month')!),
        userId: bob.sub,
        customerEmail: bob.email,
        trialDays: 0,
        couponId: 'SIM20',
        returnUrl: 'http://127.0.0.1:5999/thankyou2?session_id={CHECKOUT_SESSION_ID}',
      });
    await expect(
      sim().createCheckoutSession({
        price: priceView(simPrice('price_sim_pro_month')!),
        userId: bob.sub,
        customerEmail: bob.email,
        trialDays: 0,
        couponId: 'NOPE',
        returnUrl: 'http://x',
      }),
    ).rejects.toThrow(/No such coupon/u);
    const declined = await make();
    const res = await pay(bob, declined.client_secret, '4000000000000341');
    expect(res.status, res.text).toBe(402);
    expect((await sim().retrieveCheckoutSession(declined.id))!).toMatchObject({ status: 'open', subscription: null });
    const session = await make();
    expect((await pay(bob, session.client_secret)).status).toBe(200);
    const done = (await sim().retrieveCheckoutSession(session.id))!;
    const sub = (await sim().retrieveSubscription(done.subscription!))!;
    expect(sub).toMatchObject({
      status: 'active',
      trial_end: null,
      discount: { coupon: { id: 'SIM20', percent_off: 20 } },
    });
    expect(
      eventsOf(sub.id)
        .filter((e) => e.type === 'invoice.paid')
        .map((e) => invoiceOf(e).amount_paid),
    ).toEqual([2320]);
    await sim().setCancelAtPeriodEnd(sub.id, true);
  });
});

describe('the clock: trials, renewals, failures', () => {
  it('4242: trial_will_end 3 days before, then at the trial end the card pays: invoice.paid and active', async () => {
    const { sub } = await subscribe(alice);
    const start = await sim().now();
    await sim().advanceClock(sub.trial_end! - start - TRIAL_WILL_END_DAYS * DAY + 1);
    expect(typesOf(sub.id)).toContain('customer.subscription.trial_will_end');
    const willEnd = eventsOf(sub.id).find((e) => e.type === 'customer.subscription.trial_will_end')!;
    expect(willEnd.created).toBe(sub.trial_end! - TRIAL_WILL_END_DAYS * DAY);
    expect((await sim().retrieveSubscription(sub.id))!.status).toBe('trialing');

    await sim().advanceClock(TRIAL_WILL_END_DAYS * DAY);
    const after = (await sim().retrieveSubscription(sub.id))!;
    expect(after.status).toBe('active');
    expect(after.current_period_start).toBe(sub.trial_end);
    expect(after.current_period_end).toBeGreaterThan(sub.trial_end! + 27 * DAY);
    const paid = eventsOf(sub.id)
      .filter((e) => e.type === 'invoice.paid')
      .map(invoiceOf);
    expect(paid.map((i) => i.amount_paid)).toEqual([0, 2900]);
    expect(paid[1]!.created).toBe(sub.trial_end);
    const updated = eventsOf(sub.id)
      .filter((e) => e.type === 'customer.subscription.updated')
      .map(subOf);
    expect(updated.at(-1)!.status).toBe('active');
    expect(typesOf(sub.id).slice(-2)).toEqual(['invoice.paid', 'customer.subscription.updated']);
  });

  it('0341: accepted, the trial starts; at its end invoice.payment_failed and past_due, retried 3 and 5 days later, then unpaid', async () => {
    const { sub } = await subscribe(alice, '4000000000000341');
    expect(sub.status).toBe('trialing');
    const start = await sim().now();
    await sim().advanceClock(sub.trial_end! - start + 60);
    let now = (await sim().retrieveSubscription(sub.id))!;
    expect(now.status).toBe('past_due');
    const failed = eventsOf(sub.id)
      .filter((e) => e.type === 'invoice.payment_failed')
      .map(invoiceOf);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      status: 'open',
      amount_paid: 0,
      total: 2900,
      attempt_count: 1,
      next_payment_attempt: sub.trial_end! + 3 * DAY,
    });
    expect(
      subOf(
        eventsOf(sub.id)
          .filter((e) => e.type === 'customer.subscription.updated')
          .at(-1)!,
      ).status,
    ).toBe('past_due');

    await sim().advanceClock(3 * DAY);
    now = (await sim().retrieveSubscription(sub.id))!;
    expect(now.status).toBe('past_due');
    expect(
      eventsOf(sub.id)
        .filter((e) => e.type === 'invoice.payment_failed')
        .map((e) => invoiceOf(e).attempt_count),
    ).toEqual([1, 2]);

    await sim().advanceClock(5 * DAY);
    now = (await sim().retrieveSubscription(sub.id))!;
    expect(now.status).toBe('unpaid');
    expect(
      eventsOf(sub.id)
        .filter((e) => e.type === 'invoice.payment_failed')
        .map((e) => invoiceOf(e).attempt_count),
    ).toEqual([1, 2, 3]);
    expect(
      subOf(
        eventsOf(sub.id)
          .filter((e) => e.type === 'customer.subscription.updated')
          .at(-1)!,
      ).status,
    ).toBe('unpaid');

    // A new card through a SetupIntent pays the open invoice at once: active again.
    const intent = await sim().createSetupIntent(now.customer);
    const bad = await api(
      app,
      '/payments/simulated/setup',
      json({ clientSecret: intent.client_secret, ...card('4000000000000002') }, bearer(alice)),
    );
    expect(bad.status).toBe(402);
    expect(
      (
        await api(
          app,
          '/payments/simulated/setup',
          json({ clientSecret: intent.client_secret, ...card('5555555555554444') }, bearer(bob)),
        )
      ).status,
    ).toBe(404);
    const setup = await api(
      app,
      '/payments/simulated/setup',
      json({ clientSecret: intent.client_secret, ...card('5555 5555 5555 4444') }, bearer(alice)),
    );
    expect(setup.status, setup.text).toBe(200);
    expect(setup.json.paymentMethodId).toMatch(/^pm_sim_/u);
    expect(
      (
        await api(
          app,
          '/payments/simulated/setup',
          json({ clientSecret: intent.client_secret, ...card('5555555555554444') }, bearer(alice)),
        )
      ).json.error.code,
    ).toBe('setup_not_open');
    const pm = await sim().setDefaultPaymentMethod(now.customer, setup.json.paymentMethodId);
    expect(pm.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    now = (await sim().retrieveSubscription(sub.id))!;
    expect(now.status).toBe('active');
    expect(now.default_payment_method).toBe(pm.id);
    expect(typesOf(sub.id).slice(-2)).toEqual(['invoice.paid', 'customer.subscription.updated']);
  });

  it('cancel at period end: still trialing until the end, then customer.subscription.deleted (canceled); resume undoes it', async () => {
    const { sub } = await subscribe(alice);
    const cancelled = await sim().setCancelAtPeriodEnd(sub.id, true);
    expect(cancelled).toMatchObject({ status: 'trialing', cancel_at_period_end: true });
    expect(subOf(eventsOf(sub.id).at(-1)!).cancel_at_period_end).toBe(true);
    const resumed = await sim().setCancelAtPeriodEnd(sub.id, false);
    expect(resumed.cancel_at_period_end).toBe(false);
    await sim().setCancelAtPeriodEnd(sub.id, true);
    const start = await sim().now();
    await sim().advanceClock(sub.current_period_end - start + 60);
    const after = (await sim().retrieveSubscription(sub.id))!;
    expect(after.status).toBe('canceled');
    const deleted = eventsOf(sub.id).filter((e) => e.type === 'customer.subscription.deleted');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.created).toBe(sub.current_period_end);
    expect(subOf(deleted[0]!).status).toBe('canceled');
    // Nothing was charged.
    expect(
      eventsOf(sub.id)
        .filter((e) => e.type === 'invoice.paid')
        .map((e) => invoiceOf(e).amount_paid),
    ).toEqual([0]);
    await expect(sim().setCancelAtPeriodEnd(sub.id, false)).rejects.toThrow(/canceled subscription/u);
  });

  it('refund: every paid invoice is refunded and the subscription ends now', async () => {
    const { sub } = await subscribe(alice, '4242424242424242', 'price_sim_business_month');
    await sim().advanceClock(sub.trial_end! - (await sim().now()) + 60);
    expect((await sim().retrieveSubscription(sub.id))!.status).toBe('active');
    const { refunded, subscription } = await sim().refundAndCancel(sub.id);
    expect(refunded).toBe(6900);
    expect(subscription.status).toBe('canceled');
    expect(typesOf(sub.id).at(-1)).toBe('customer.subscription.deleted');
    const invoices = (await sim().listInvoices(sub.customer)).filter((i) => i.subscription === sub.id);
    expect(invoices.map((i) => [i.amount_paid, i.amount_refunded])).toEqual([
      [6900, 6900],
      [0, 0],
    ]);
    // Nothing more happens to it on the clock.
    const count = eventsOf(sub.id).length;
    await sim().advanceClock(40 * DAY);
    expect(eventsOf(sub.id).length).toBe(count);
  });

  it('downgrade at period end waits in pending_price and applies at the renewal; upgrade now charges the prorated difference', async () => {
    const { sub } = await subscribe(alice, '4242424242424242', 'price_sim_business_month');
    await sim().advanceClock(sub.trial_end! - (await sim().now()) + 60);
    const active = (await sim().retrieveSubscription(sub.id))!;
    const pending = await sim().changePrice(sub.id, 'price_sim_pro_month', 'period_end');
    expect(pending.items.data[0]!.price.id).toBe('price_sim_business_month');
    expect(pending.pending_price?.id).toBe('price_sim_pro_month');
    await sim().advanceClock(active.current_period_end - (await sim().now()) + 60);
    const renewed = (await sim().retrieveSubscription(sub.id))!;
    expect(renewed.items.data[0]!.price.id).toBe('price_sim_pro_month');
    expect(renewed.pending_price).toBeNull();
    expect(
      eventsOf(sub.id)
        .filter((e) => e.type === 'invoice.paid')
        .map((e) => invoiceOf(e).amount_paid),
    ).toEqual([0, 6900, 2900]);

    // Upgrade now, a third into the period: about two thirds of (69 - 29) is charged at once.
    const length = renewed.current_period_end - renewed.current_period_start!;
    await sim().advanceClock(Math.floor(length / 3));
    const upgraded = await sim().changePrice(sub.id, 'price_sim_business_month', 'now');
    expect(upgraded.items.data[0]!.price.id).toBe('price_sim_business_month');
    expect(upgraded.current_period_end).toBe(renewed.current_period_end);
    const prorated = eventsOf(sub.id)
      .filter((e) => e.type === 'invoice.paid')
      .map(invoiceOf)
      .at(-1)!;
    expect(prorated.amount_paid).toBeGreaterThan(2600);
    expect(prorated.amount_paid).toBeLessThan(2750);
    await expect(sim().changePrice(sub.id, 'price_sim_nothing', 'now')).rejects.toThrow(/No such price/u);
  });

  it('a change while trialing just switches the price, with no invoice', async () => {
    const { sub } = await subscribe(bob);
    const count = eventsOf(sub.id).filter((e) => e.type === 'invoice.paid').length;
    const changed = await sim().changePrice(sub.id, 'price_sim_business_year', 'now');
    expect(changed).toMatchObject({
      status: 'trialing',
      trial_end: sub.trial_end,
      current_period_end: sub.current_period_end,
    });
    expect(changed.items.data[0]!.price.id).toBe('price_sim_business_year');
    expect(eventsOf(sub.id).filter((e) => e.type === 'invoice.paid')).toHaveLength(count);
    await sim().setCancelAtPeriodEnd(sub.id, true);
  });
});

describe('delivery', () => {
  it('an event the webhook refused is retried at the next tick; events can be listed and redelivered twice, out of order', async () => {
    answerStatus = 500;
    const { sub } = await subscribe(bob);
    answerStatus = 200;
    const logged = (await sim().listEvents()).filter((e) => JSON.stringify(e.event.data.object).includes(sub.id));
    expect(logged.map((e) => e.event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    for (const e of logged) expect(e.delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 500 });
    expect(eventsOf(sub.id)).toEqual([]);

    const tick = await sim().advanceClock(0);
    expect(tick.redelivered).toBeGreaterThanOrEqual(3);
    expect(typesOf(sub.id)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    const relisted = (await sim().listEvents()).filter((e) => JSON.stringify(e.event.data.object).includes(sub.id));
    for (const e of relisted)
      expect(e.delivery).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 200, lastError: null });

    // Redelivered on demand, newest first, twice: the same event ids and bodies arrive again.
    const before = received.length;
    for (const e of [...relisted].reverse()) expect((await sim().redeliverEvent(e.event.id))?.status).toBe('delivered');
    for (const e of [...relisted].reverse()) await sim().redeliverEvent(e.event.id);
    const again = received.slice(before).map((r) => r.event.id);
    const ids = relisted.map((e) => e.event.id).reverse();
    expect(again).toEqual([...ids, ...ids]);
    expect(await sim().redeliverEvent('evt_sim_unknown')).toBeNull();
    await sim().setCancelAtPeriodEnd(sub.id, true);
  });
});

describe('npm run payments:clock', () => {
  it('advance runs the steps due and lists their events; show and events read the log; redeliver sends one again', async () => {
    const { sub } = await subscribe(bob, '4000000000000341', 'price_sim_personal_month');
    const lines = await runClockCommand(['advance', '8d'], sim());
    expect(lines[0]).toMatch(/^Clock: \S+ -> \S+ \(\+691200 s\); [1-9]\d* subscription step\(s\) run/u);
    const mine = lines.filter((l) => l.includes(sub.id));
    expect(mine.some((l) => l.includes('customer.subscription.trial_will_end'))).toBe(true);
    expect(mine.some((l) => /customer\.subscription\.updated\s+\S+\s+past_due\s+delivered \(200\)/u.test(l))).toBe(
      true,
    );
    expect((await sim().retrieveSubscription(sub.id))!.status).toBe('past_due');
    const show = await runClockCommand(['show'], sim());
    expect(show[0]).toMatch(/^Simulator clock: \d{4}-\d\d-\d\dT/u);
    expect(show[1]).toMatch(/^Next steps due/u);
    expect(show.some((l) => l.includes(sub.id) && l.includes('past_due'))).toBe(true);
    expect(show.find((l) => l.startsWith('Events:'))).toMatch(/0 not delivered yet/u);
    const events = await runClockCommand(['events', '3'], sim());
    expect(events).toHaveLength(3);
    const id = /(evt_sim_\w+)$/u.exec(events[2]!)![1]!;
    expect(await runClockCommand(['redeliver', id], sim())).toEqual([`${id}: delivered (HTTP 200)`]);
    await expect(runClockCommand(['redeliver', 'evt_sim_nope'], sim())).rejects.toThrow(/no event/u);
    await expect(runClockCommand(['advance', 'soon'], sim())).rejects.toThrow(/duration/u);
    await sim().setCancelAtPeriodEnd(sub.id, true);
  });
});
