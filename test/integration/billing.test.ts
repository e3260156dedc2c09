/**
 * Billing end to end on the local stack with the simulated provider: checkouts paid
 * through the simulator's card route, its events delivered signed to the real webhook route
 * through the local gateway, its clock advanced to end trials and periods. What a user sees
 * (GET /getStripeData, GET /me, a refused send) is read through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { keys } from '../../functions/data/keys';
import { PLANS } from '../../functions/domain/plans';
import { SUMO_MAX_CODES } from '../../functions/domain/billing-api';
import { TEXTS } from '../../functions/domain/texts';
import { simulator } from '../../functions/adapters/payments/simulated';
import { listEvents, redeliverEvent } from '../../functions/adapters/payments/simulated/events';
import { signatureHeader } from '../../functions/adapters/payments/signature';
import { paymentsConfig } from '../../functions/lib/env';
import { issueSumoCodes } from '../../functions/services/billing';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, json, waitForMail, type TestUser } from '../helpers/transfers';
import type { SubscriptionObject } from '../../functions/adapters/payments/provider';

const DAY = 86_400;
const GOOD = '4242 4242 4242 4242';
const FAILS_LATER = '4000 0000 0000 0341';
const DECLINED = '4000 0000 0000 0002';

let app: LocalApp;
const sim = () => simulator();
const target = () => ({ url: `${app.apiOrigin}/api/stripe/webhook`, secret: paymentsConfig().simulatorWebhookSecret });

async function profileItem(user: TestUser): Promise<Record<string, any>> {
  const out = await dynamo().send(
    new GetCommand({ TableName: app.stack.env.TABLE_NAME, Key: keys.userProfile(user.sub), ConsistentRead: true }),
  );
  return out.Item ?? {};
}

async function setProfile(user: TestUser, fields: Record<string, unknown>): Promise<void> {
  const names = Object.fromEntries(Object.keys(fields).map((k) => [`#${k}`, k]));
  const values = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`:${k}`, v]));
  await dynamo().send(
    new UpdateCommand({
      TableName: app.stack.env.TABLE_NAME,
      Key: keys.userProfile(user.sub),
      UpdateExpression: `SET ${Object.keys(fields)
        .map((k) => `#${k} = :${k}`)
        .join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/** A new free account, as sign-up makes it (role free, status unpaid). */
async function newUser(email: string): Promise<TestUser> {
  const user = await createUser(app, email, 'free');
  await setProfile(user, { status: 'unpaid' });
  return user;
}

/** Checkout as the page does it: the session from our API, then the simulator's card field. */
async function checkout(user: TestUser, priceId: string, card = GOOD) {
  const session = await api(
    app,
    '/stripe/createSubscription',
    json(
      {
        price_id: priceId,
        customer_email: user.email,
        mongo_id: user.sub,
        fullName: 'Test Person',
        client_reference_id: user.sub,
      },
      bearer(user),
    ),
  );
  expect(session.status, session.text).toBe(200);
  expect(session.json).toMatchObject({
    type: 'simulated',
    clientSecret: expect.any(String),
    sessionId: expect.any(String),
  });
  const pay = await api(
    app,
    '/payments/simulated/checkout',
    json(
      {
        clientSecret: session.json.clientSecret,
        number: card,
        expMonth: 12,
        expYear: new Date().getFullYear() + 3,
        cvc: '123',
        name: 'Test Person',
      },
      bearer(user),
    ),
  );
  return pay;
}

async function stripeData(user: TestUser) {
  const res = await api(app, '/getStripeData', { headers: bearer(user) });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

async function me(user: TestUser) {
  const res = await api(app, '/me', { headers: bearer(user) });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** A subscription user in its trial (events delivered by the simulator through the gateway). */
async function trialing(email: string, priceId = 'price_sim_pro_month', card = GOOD): Promise<TestUser> {
  const user = await newUser(email);
  const pay = await checkout(user, priceId, card);
  expect(pay.status, pay.text).toBe(200);
  return user;
}

async function postWebhook(body: string, signature: string | undefined) {
  return api(app, '/stripe/webhook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body,
  });
}

/** An event in Stripe's shape, signed with the webhook secret as the provider signs. */
function signedEvent(
  type: string,
  object: unknown,
  created: number,
  id = `evt_test_${Math.random().toString(36).slice(2)}`,
) {
  const body = JSON.stringify({ id, object: 'event', type, created, data: { object } });
  return {
    id,
    body,
    signature: signatureHeader(body, paymentsConfig().simulatorWebhookSecret, Math.floor(Date.now() / 1000)),
  };
}

async function subscriptionOf(user: TestUser): Promise<SubscriptionObject> {
  const p = await profileItem(user);
  const customer = await sim().retrieveCustomer(p.stripeId);
  return customer!.subscriptions!.data.find((s) => s.id === p.subscriptionId)!;
}

async function sendAttempt(user: TestUser) {
  return api(
    app,
    '/me/transfers',
    json({ sendAs: 'link', fileObjects: [{ fileName: 'a.txt', size: 10 }] }, bearer(user)),
  );
}

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.stop();
});

describe('checkout and trial', () => {
  it('checkout -> trialing: GET /getStripeData shows 7 days left, GET /me the plan at once', async () => {
    const user = await trialing('trial.pro@example.com', 'price_sim_pro_year');
    const data = await stripeData(user);
    expect(data.view).toMatchObject({
      status: 'trialing',
      role: 'pro',
      period: 'year',
      amount: 228,
      trialDaysLeft: 7,
      cancelAtPeriodEnd: false,
      card: { brand: 'visa', last4: '4242' },
    });
    expect(data.customer.subscriptions.data[0]).toMatchObject({
      status: 'trialing',
      plan: { id: 'price_sim_pro_year', metadata: { role: 'pro' } },
    });
    const session = await me(user);
    expect(session).toMatchObject({
      role: 'pro',
      status: 'trialing',
      stripeId: data.customer.id,
      blocked: null,
      storageLimit: PLANS.pro.storage,
    });
    // The link from customer to user was made, and a second checkout is refused.
    const again = await api(
      app,
      '/stripe/createSubscription',
      json({ price_id: 'price_sim_business_month', customer_email: user.email, mongo_id: user.sub }, bearer(user)),
    );
    expect(again.status, again.text).toBe(409);
    expect(again.json.error.code).toBe('already_subscribed');
  });

  it("a declined card stays on checkout with the provider's words; nothing changes", async () => {
    const user = await newUser('declined@example.com');
    const pay = await checkout(user, 'price_sim_pro_month', DECLINED);
    expect(pay.status, pay.text).toBe(402);
    expect(pay.json.error.message).toBe('Your card was declined.');
    expect((await stripeData(user)).view.status).toBe('none');
    expect((await me(user)).role).toBe('free');
  });

  it('trial_will_end mails the user a link to /?ref=trial_ending, 3 days before', async () => {
    const user = await trialing('mail.trial@example.com');
    await sim().advanceClock(4 * DAY + 3600);
    const mail = await waitForMail(app, user.email, /trial/i);
    expect(mail.body.text).toContain('/?ref=trial_ending');
    expect(mail.subject).toMatch(/Pro trial ends on/u);
  });
});

describe('webhook: idempotent, ordered, verified', () => {
  it('the same event twice changes the user once', async () => {
    const user = await trialing('twice@example.com');
    const p = await profileItem(user);
    const event = (await listEvents()).find(
      (e) =>
        e.event.type === 'customer.subscription.created' &&
        (e.event.data.object as SubscriptionObject).customer === p.stripeId,
    )!;
    expect(event, 'the simulator logged the subscription event').toBeDefined();
    // Someone changed the stored state since (here by hand): a second delivery of the processed event must not undo it.
    await setProfile(user, { status: 'active', billingUpdatedAt: 1 });
    const again = await redeliverEvent(event.event.id, target());
    expect(again?.lastStatus).toBe(200);
    expect((await profileItem(user)).status, 'a processed event is not applied again').toBe('active');
    // The check can fail: without the processed-event item the same delivery changes the user.
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.paymentEvent(event.event.id),
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':past': 1 },
      }),
    );
    await redeliverEvent(event.event.id, target());
    expect((await profileItem(user)).status).toBe('trialing');
  });

  it('events out of order: an older state never replaces a newer one; in one second the provider decides', async () => {
    const user = await trialing('order@example.com');
    const sub = await subscriptionOf(user);
    const t = Math.floor(Date.now() / 1000) + 10 * DAY;
    const newer = signedEvent('customer.subscription.updated', { ...sub, status: 'past_due' }, t + 20);
    const older = signedEvent('customer.subscription.updated', { ...sub, status: 'active' }, t + 10);
    expect((await postWebhook(newer.body, newer.signature)).status).toBe(200);
    expect((await postWebhook(older.body, older.signature)).status).toBe(200);
    expect((await profileItem(user)).status, 'the newest state wins').toBe('past_due');
    // Same second as the stored state: the provider's current subscription (trialing) is read again.
    const same = signedEvent('customer.subscription.updated', { ...sub, status: 'unpaid' }, t + 20);
    expect((await postWebhook(same.body, same.signature)).status).toBe(200);
    expect((await profileItem(user)).status).toBe('trialing');
  });

  it('a tampered, unsigned, replayed or too-old webhook is 400 and changes nothing', async () => {
    const user = await trialing('tamper@example.com');
    const before = await profileItem(user);
    const sub = await subscriptionOf(user);
    const ev = signedEvent(
      'customer.subscription.deleted',
      { ...sub, status: 'canceled' },
      Math.floor(Date.now() / 1000) + 30 * DAY,
    );
    const tampered = ev.body.replace('"canceled"', '"active"');
    expect((await postWebhook(tampered, ev.signature)).json.error.code).toBe('invalid_signature');
    expect((await postWebhook(ev.body, undefined)).json.error.code).toBe('invalid_signature');
    expect((await postWebhook(ev.body, ev.signature.replace(/v1=[0-9a-f]{8}/u, 'v1=00000000'))).status).toBe(400);
    const old = signatureHeader(ev.body, paymentsConfig().simulatorWebhookSecret, Math.floor(Date.now() / 1000) - 301);
    const tooOld = await postWebhook(ev.body, old);
    expect(tooOld.status).toBe(400);
    expect(tooOld.json.error.code).toBe('signature_too_old');
    const wrongSecret = signatureHeader(ev.body, 'whsec_not_ours', Math.floor(Date.now() / 1000));
    expect((await postWebhook(ev.body, wrongSecret)).status).toBe(400);
    const after = await profileItem(user);
    expect({ role: after.role, status: after.status, billingUpdatedAt: after.billingUpdatedAt }).toEqual({
      role: before.role,
      status: before.status,
      billingUpdatedAt: before.billingUpdatedAt,
    });
    // An event type we do not handle is acknowledged and ignored.
    const other = signedEvent('customer.created', { id: 'cus_x', object: 'customer' }, Math.floor(Date.now() / 1000));
    expect((await postWebhook(other.body, other.signature)).status).toBe(200);
  });
});

describe('webhook: odd but validly signed events are 2xx or 4xx, never 5xx', () => {
  it('a subscription item whose price has no `recurring` (a one-time price) is applied, without a period', async () => {
    const user = await trialing('one.time.price@example.com');
    const sub = await subscriptionOf(user);
    const item = sub.items.data[0]!;
    const { recurring: _r, ...oneTime } = item.price;
    for (const price of [oneTime, { ...item.price, recurring: null }]) {
      const ev = signedEvent(
        'customer.subscription.updated',
        { ...sub, status: 'active', items: { data: [{ ...item, price }] } },
        Math.floor(Date.now() / 1000) + 60 * DAY + Math.floor(Math.random() * 1000),
      );
      const res = await postWebhook(ev.body, ev.signature);
      expect(res.status, res.text).toBe(200);
      const p = await profileItem(user);
      expect(p.status).toBe('active');
      expect(p.period).toBeUndefined();
    }
  });

  it('times no date can hold (created 1e15, a trial ending in 1e300) are refused as invalid_event and change nothing', async () => {
    const user = await trialing('far.future@example.com');
    const before = await profileItem(user);
    const sub = await subscriptionOf(user);
    for (const [created, object] of [
      [1e15, { ...sub, status: 'active' }],
      [Math.floor(Date.now() / 1000), { ...sub, status: 'active', trial_end: 1e300 }],
      [-1, { ...sub, status: 'active' }],
      [1.5, { ...sub, status: 'active' }],
    ] as const) {
      const ev = signedEvent('customer.subscription.updated', object, created);
      const res = await postWebhook(ev.body, ev.signature);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('invalid_event');
    }
    const after = await profileItem(user);
    expect({ status: after.status, billingUpdatedAt: after.billingUpdatedAt }).toEqual({
      status: before.status,
      billingUpdatedAt: before.billingUpdatedAt,
    });
  });
});

describe('the trial ends', () => {
  it('with 4242: active, the first charge paid, the refund window open', async () => {
    const user = await trialing('good.card@example.com');
    await sim().advanceClock(8 * DAY);
    const data = await stripeData(user);
    expect(data.view).toMatchObject({ status: 'active', role: 'pro', trialDaysLeft: null });
    expect(data.view.refundableUntil).toEqual(expect.any(Number));
    expect((await me(user)).blocked).toBeNull();
    const invoices = await api(app, '/billing/invoices', { headers: bearer(user) });
    expect(invoices.status).toBe(200);
    expect(invoices.json.invoices[0]).toMatchObject({ status: 'paid', amountPaid: 29, refunded: false });
  });

  it("with 0341: past_due, and sending is refused with the limit screen's text", async () => {
    const user = await trialing('fails.later@example.com', 'price_sim_pro_month', FAILS_LATER);
    expect((await sendAttempt(user)).status, 'a trialing account sends').toBe(201);
    await sim().advanceClock(8 * DAY);
    expect((await stripeData(user)).view.status).toBe('past_due');
    const refused = await sendAttempt(user);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.error).toMatchObject({ code: 'past_due', message: TEXTS.suspended });
    expect((await me(user)).blocked).toBe('past_due');
  });
});

describe('the billing page', () => {
  it('cancel -> canceled at period end -> free limits; resume in between', async () => {
    const user = await trialing('cancel@example.com');
    const cancel = await api(app, '/billing/cancel', json({ cancel: true }, bearer(user)));
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.json.view).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: true });
    const resume = await api(app, '/billing/cancel', json({ cancel: false }, bearer(user)));
    expect(resume.json.view.cancelAtPeriodEnd).toBe(false);
    await api(app, '/billing/cancel', json({ cancel: true }, bearer(user)));
    expect((await me(user)).role, 'still the plan until the end').toBe('pro');
    await sim().advanceClock(40 * DAY);
    expect((await stripeData(user)).view).toMatchObject({ status: 'canceled', role: 'free' });
    const session = await me(user);
    expect(session).toMatchObject({
      role: 'free',
      storageLimit: PLANS.free.storage,
      monthlyTransferLimit: PLANS.free.monthlyTransfers,
    });
    expect((await api(app, '/billing/cancel', json({ cancel: true }, bearer(user)))).json.error.code).toBe(
      'no_subscription',
    );
  });

  it("replace the card: a SetupIntent, the simulator's card field, POST /addCard", async () => {
    const user = await trialing('card.swap@example.com');
    const intent = await api(app, '/billing/setup-intent', { method: 'POST', headers: bearer(user) });
    expect(intent.status, intent.text).toBe(200);
    expect(intent.json.type).toBe('simulated');
    const setup = await api(
      app,
      '/payments/simulated/setup',
      json(
        {
          clientSecret: intent.json.clientSecret,
          number: '5555 5555 5555 4444',
          expMonth: 6,
          expYear: new Date().getFullYear() + 2,
          cvc: '321',
        },
        bearer(user),
      ),
    );
    expect(setup.status, setup.text).toBe(200);
    const added = await api(app, '/addCard', json({ paymentMethodId: setup.json.paymentMethodId }, bearer(user)));
    expect(added.status, added.text).toBe(200);
    expect(added.json.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    expect((await stripeData(user)).view.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    expect((await profileItem(user)).card).toMatchObject({ last4: '4444' });
  });

  it('refund inside 30 days of the first charge ends the subscription; none before a charge', async () => {
    const user = await trialing('refund@example.com');
    const early = await api(app, '/billing/refund', { method: 'POST', headers: bearer(user) });
    expect(early.status).toBe(409);
    expect(early.json.error.code).toBe('nothing_to_refund');
    await sim().advanceClock(8 * DAY);
    const refund = await api(app, '/billing/refund', { method: 'POST', headers: bearer(user) });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.json.view).toMatchObject({ status: 'canceled', role: 'free' });
    expect((await me(user)).role).toBe('free');
    const invoices = await api(app, '/billing/invoices', { headers: bearer(user) });
    expect(invoices.json.invoices.some((i: { refunded: boolean }) => i.refunded)).toBe(true);
  });

  it('upgrade now; a downgrade is refused while storage exceeds the lower plan, with the reason', async () => {
    const user = await trialing('change@example.com');
    const up = await api(
      app,
      '/create-subscription',
      json({ priceId: 'price_sim_business_month', role: 'teamelite', trial: true }, bearer(user)),
    );
    expect(up.status, up.text).toBe(200);
    expect(up.json.view).toMatchObject({ role: 'business', priceId: 'price_sim_business_month' });
    expect((await me(user)).role).toBe('business');
    await setProfile(user, { storageUsed: 60e9 });
    const down = await api(app, '/create-subscription', json({ priceId: 'price_sim_personal_month' }, bearer(user)));
    expect(down.status, down.text).toBe(409);
    expect(down.json.error).toMatchObject({
      code: 'storage_exceeds_plan',
      details: { used: 60e9, limit: PLANS.personal.storage, role: 'personal' },
    });
    const same = await api(app, '/create-subscription', json({ priceId: 'price_sim_business_month' }, bearer(user)));
    expect(same.json.error.code).toBe('plan_unchanged');
    await setProfile(user, { storageUsed: 0 });
    const later = await api(app, '/create-subscription', json({ priceId: 'price_sim_personal_month' }, bearer(user)));
    expect(later.status, later.text).toBe(200);
    expect(later.json.view.pendingChange).toMatchObject({ priceId: 'price_sim_personal_month', role: 'personal' });
    expect((await me(user)).role, 'a downgrade waits for the period end').toBe('business');
  });
});

describe('lifetime codes', () => {
  it('stack one tier each, a used code is refused, the ninth is refused', async () => {
    const user = await newUser('sumo@example.com');
    const other = await newUser('sumo.other@example.com');
    const codes = await issueSumoCodes(SUMO_MAX_CODES + 1, 'test', Date.now());
    const first = await api(app, '/appsumo/redeem', json({ code: codes[0] }, bearer(user)));
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ codesRedeemed: 1, sumoRole: 'personal', role: 'personal' });
    const second = await api(
      app,
      '/appsumo/redeem',
      json({ code: codes[1]!.toLowerCase().replace(/-/gu, ' ') }, bearer(user)),
    );
    expect(second.json).toMatchObject({ codesRedeemed: 2, sumoRole: 'pro', role: 'pro' });
    expect((await me(user)).isSumo).toMatchObject({ code1: true, code2: true, code3: false });
    const reused = await api(app, '/appsumo/redeem', json({ code: codes[0] }, bearer(other)));
    expect(reused.status).toBe(409);
    expect(reused.json.error.code).toBe('code_already_used');
    expect(
      (await api(app, '/appsumo/redeem', json({ code: 'SB-NOPE-NOPE-NOPE-NOPE' }, bearer(user)))).json.error.code,
    ).toBe('invalid_code');
    for (const code of codes.slice(2, SUMO_MAX_CODES))
      expect((await api(app, '/appsumo/redeem', json({ code }, bearer(user)))).status).toBe(200);
    expect((await me(user)).role).toBe('teamelite');
    const ninth = await api(app, '/appsumo/redeem', json({ code: codes[SUMO_MAX_CODES] }, bearer(user)));
    expect(ninth.status).toBe(409);
    expect(ninth.json.error.code).toBe('sumo_codes_full');
    // The ninth code was not used up: someone else can still redeem it.
    expect((await api(app, '/appsumo/redeem', json({ code: codes[SUMO_MAX_CODES] }, bearer(other)))).status).toBe(200);
  });
});

describe("only the caller's own subscription, only real prices", () => {
  it("another user's subscription cannot be read or changed", async () => {
    const alice = await trialing('alice.billing@example.com');
    const bob = await newUser('bob.billing@example.com');
    const aliceCustomer = (await profileItem(alice)).stripeId as string;
    const bobData = await stripeData(bob);
    expect(bobData).toMatchObject({ customer: null, view: { status: 'none' } });
    expect(JSON.stringify(bobData)).not.toContain(aliceCustomer);
    const change = await api(
      app,
      '/create-subscription',
      json({ priceId: 'price_sim_business_month', SSuserId: alice.sub, stripeCustomerId: aliceCustomer }, bearer(bob)),
    );
    expect(change.status).toBe(403);
    expect(change.json.error.code).toBe('not_your_account');
    const card = await api(
      app,
      '/addCard',
      json({ paymentMethodId: 'pm_x', stripeCustomerId: aliceCustomer }, bearer(bob)),
    );
    expect(card.status).toBe(403);
    const theirs = await api(
      app,
      '/stripe/createSubscription',
      json({ price_id: 'price_sim_pro_month', customer_email: alice.email, mongo_id: alice.sub }, bearer(bob)),
    );
    expect(theirs.status).toBe(403);
    for (const path of ['/billing/cancel', '/billing/refund'])
      expect((await api(app, path, json({ cancel: true }, bearer(bob)))).json.error.code).toBe('no_subscription');
    expect((await stripeData(alice)).view).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: false, role: 'pro' });
  });

  it('a forged price or role changes nothing', async () => {
    const user = await newUser('forger@example.com');
    const forged = await api(
      app,
      '/stripe/createSubscription',
      json(
        { price_id: 'price_forged_teamelite', customer_email: user.email, mongo_id: user.sub, role: 'teamelite' },
        bearer(user),
      ),
    );
    expect(forged.status).toBe(400);
    expect(forged.json.error.code).toBe('unknown_price');
    // The role of a real checkout comes from the provider's price (its metadata.role), never from the request.
    const session = await api(
      app,
      '/stripe/createSubscription',
      json(
        {
          price_id: 'price_sim_personal_month',
          customer_email: user.email,
          mongo_id: user.sub,
          role: 'teamelite',
          client_reference_id: 'teamelite',
        },
        bearer(user),
      ),
    );
    expect(session.status, session.text).toBe(200);
    const pay = await api(
      app,
      '/payments/simulated/checkout',
      json(
        {
          clientSecret: session.json.clientSecret,
          number: GOOD,
          expMonth: 12,
          expYear: new Date().getFullYear() + 3,
          cvc: '123',
        },
        bearer(user),
      ),
    );
    expect(pay.status, pay.text).toBe(200);
    expect((await me(user)).role).toBe('personal');
    const change = await api(
      app,
      '/create-subscription',
      json({ priceId: 'price_sim_personal_month_forged', role: 'teamelite' }, bearer(user)),
    );
    expect(change.json.error.code).toBe('unknown_price');
    expect((await me(user)).role).toBe('personal');
  });

  it('team members get 403 team_member_billing', async () => {
    const member = await newUser('member.billing@example.com');
    await setProfile(member, { isTeamMember: true });
    for (const [path, init] of [
      ['/getStripeData', { headers: bearer(member) }],
      [
        '/stripe/createSubscription',
        json({ price_id: 'price_sim_pro_month', customer_email: member.email, mongo_id: member.sub }, bearer(member)),
      ],
      ['/billing/invoices', { headers: bearer(member) }],
    ] as const) {
      const res = await api(app, path, init);
      expect(res.status, path).toBe(403);
      expect(res.json.error.code).toBe('team_member_billing');
    }
  });
});
