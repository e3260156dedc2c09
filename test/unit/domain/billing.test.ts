import { describe, expect, it } from 'vitest';
import type { CustomerObject, PriceObject, SubscriptionObject } from '../../../functions/adapters/payments/provider';
import {
  billingNow,
  billingStateOf,
  blockingOf,
  changeDirection,
  currentSubscription,
  effectiveRole,
  isSumoOf,
  refundableUntil,
  stateDecision,
  stripeDataResponse,
  subscriptionView,
  sumoRoleOf,
  trialDaysLeft,
} from '../../../functions/domain/billing';
import { SUMO_TIERS, type SubscriptionStatus } from '../../../functions/domain/billing-api';
import { blockReason } from '../../../functions/domain/blocking';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const sec = (msValue: number) => Math.floor(msValue / 1000);

function price(role: string | undefined, period: 'month' | 'year' = 'month', amount = 2900): PriceObject {
  return {
    id: `price_sim_${role ?? 'none'}_${period}`,
    object: 'price',
    nickname: role ? `${role} ${period}ly` : null,
    unit_amount: amount,
    currency: 'usd',
    recurring: { interval: period },
    metadata: role ? { role } : {},
  };
}

const visa = {
  id: 'pm_1',
  object: 'payment_method' as const,
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
};

function sub(status: Exclude<SubscriptionStatus, 'none'>, over: Partial<SubscriptionObject> = {}): SubscriptionObject {
  return {
    id: 'sub_1',
    object: 'subscription',
    customer: 'cus_1',
    status,
    items: { data: [{ id: 'si_1', price: price('pro') }] },
    trial_end: status === 'trialing' ? sec(NOW + 7 * DAY) : null,
    current_period_start: sec(NOW),
    current_period_end: sec(NOW + 30 * DAY),
    cancel_at_period_end: false,
    canceled_at: null,
    created: sec(NOW),
    metadata: {},
    default_payment_method: visa,
    ...over,
  };
}

function customer(over: Partial<CustomerObject> = {}): CustomerObject {
  return {
    id: 'cus_1',
    object: 'customer',
    email: 'a@example.com',
    metadata: {},
    invoice_settings: { default_payment_method: null },
    ...over,
  };
}

describe('billing state from a subscription', () => {
  it.each([
    'trialing',
    'active',
    'past_due',
    'unpaid',
    'canceled',
    'incomplete',
    'incomplete_expired',
    'paused',
  ] as const)('%s: status, ids, period, times in ms, card', (status) => {
    const s = billingStateOf(sub(status), customer(), NOW);
    expect(s).toMatchObject({
      status,
      stripeId: 'cus_1',
      subscriptionId: 'sub_1',
      priceId: 'price_sim_pro_month',
      period: 'month',
      periodEnd: NOW + 30 * DAY,
      cancelAtPeriodEnd: false,
      at: NOW,
    });
    expect(s.subscriptionRole).toBe('pro');
    expect(s.trialEnd).toBe(status === 'trialing' ? NOW + 7 * DAY : null);
    expect(s.card).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
  });

  it("role from the price's metadata, else the customer's, else free (spec §6)", () => {
    expect(
      billingStateOf(
        sub('active', { items: { data: [{ id: 'si', price: price('business') }] } }),
        customer({ metadata: { role: 'personal' } }),
        NOW,
      ).subscriptionRole,
    ).toBe('business');
    expect(
      billingStateOf(
        sub('active', { items: { data: [{ id: 'si', price: price(undefined) }] } }),
        customer({ metadata: { role: 'personal' } }),
        NOW,
      ).subscriptionRole,
    ).toBe('personal');
    expect(
      billingStateOf(sub('active', { items: { data: [{ id: 'si', price: price(undefined) }] } }), customer(), NOW)
        .subscriptionRole,
    ).toBe('free');
    expect(
      billingStateOf(sub('active', { items: { data: [{ id: 'si', price: price('admin') }] } }), customer(), NOW)
        .subscriptionRole,
    ).toBe('free');
  });

  it("the card: the subscription's default, else the customer's; an unexpanded id gives none", () => {
    const master = { ...visa, id: 'pm_2', card: { ...visa.card, brand: 'mastercard', last4: '4444' } };
    expect(
      billingStateOf(
        sub('active', { default_payment_method: 'pm_9' }),
        customer({ invoice_settings: { default_payment_method: master } }),
        NOW,
      ).card?.last4,
    ).toBe('4444');
    expect(billingStateOf(sub('active', { default_payment_method: 'pm_9' }), customer(), NOW).card).toBeNull();
  });

  it('cancel at period end is kept', () => {
    expect(billingStateOf(sub('active', { cancel_at_period_end: true }), null, NOW).cancelAtPeriodEnd).toBe(true);
  });
});

describe('effective role', () => {
  it.each([
    ['trialing', 'pro'],
    ['active', 'pro'],
    ['past_due', 'pro'],
    ['unpaid', 'pro'],
    ['paused', 'pro'],
    ['canceled', 'free'],
    ['incomplete_expired', 'free'],
    ['incomplete', 'free'],
    ['none', 'free'],
  ])('a %s pro subscription gives %s', (status, role) => {
    expect(effectiveRole({ subscriptionRole: 'pro', status })).toBe(role);
  });

  it('lifetime codes stack one tier each; the higher of codes and subscription wins', () => {
    expect(sumoRoleOf(0)).toBe('free');
    SUMO_TIERS.forEach((tier, i) => expect(sumoRoleOf(i + 1)).toBe(tier));
    expect(sumoRoleOf(12)).toBe('teamelite');
    expect(effectiveRole({ subscriptionRole: 'pro', status: 'active', sumoCodes: 1 })).toBe('pro');
    expect(effectiveRole({ subscriptionRole: 'pro', status: 'active', sumoCodes: 3 })).toBe('business');
    expect(effectiveRole({ subscriptionRole: 'business', status: 'canceled', sumoCodes: 2 })).toBe('pro');
    expect(effectiveRole({ sumoCodes: 8 })).toBe('teamelite');
  });

  it('isSumo: code1..code8 flags for the redeemed count', () => {
    expect(isSumoOf(3)).toEqual({
      code1: true,
      code2: true,
      code3: true,
      code4: false,
      code5: false,
      code6: false,
      code7: false,
      code8: false,
    });
    expect(Object.values(isSumoOf(0)).some(Boolean)).toBe(false);
  });

  it('blocking: past_due blocks a paid plan; codes that give the plan alone never block', () => {
    const usage = { thisMonthsTransfers: 0, storageUsed: 0, now: NOW };
    expect(blockReason(blockingOf({ role: 'pro', status: 'past_due' }), usage)).toBe('past_due');
    expect(blockReason(blockingOf({ role: 'pro', status: 'unpaid' }), usage)).toBe('unpaid');
    expect(blockReason(blockingOf({ role: 'pro', status: 'trialing', trialEnd: NOW - 1 }), usage)).toBe(
      'trial_expired',
    );
    expect(blockReason(blockingOf({ role: 'pro', status: 'trialing', trialEnd: NOW + DAY }), usage)).toBeNull();
    expect(blockReason(blockingOf({ role: 'pro', status: 'past_due', sumoCodes: 2 }), usage)).toBeNull();
    expect(blockReason(blockingOf({ role: 'business', status: 'past_due', sumoCodes: 2 }), usage)).toBe('past_due');
  });
});

describe('time', () => {
  it('trial days left are whole days rounded up, only while trialing', () => {
    expect(trialDaysLeft('trialing', NOW + 7 * DAY, NOW)).toBe(7);
    expect(trialDaysLeft('trialing', NOW + 6 * DAY + 3_600_000, NOW)).toBe(7);
    expect(trialDaysLeft('trialing', NOW + 1, NOW)).toBe(1);
    expect(trialDaysLeft('trialing', NOW - DAY, NOW)).toBe(0);
    expect(trialDaysLeft('active', NOW + 7 * DAY, NOW)).toBeNull();
    expect(trialDaysLeft('trialing', null, NOW)).toBeNull();
  });

  it('the refund is offered for 30 days after the first charge', () => {
    expect(refundableUntil(null, NOW)).toBeNull();
    expect(refundableUntil(NOW - 29 * DAY, NOW)).toBe(NOW + DAY);
    expect(refundableUntil(NOW - 30 * DAY, NOW)).toBeNull();
  });

  it("billing's now is the later of the wall clock and the newest event", () => {
    expect(billingNow(NOW, null)).toBe(NOW);
    expect(billingNow(NOW, NOW + 8 * DAY)).toBe(NOW + 8 * DAY);
    expect(billingNow(NOW, NOW - DAY)).toBe(NOW);
  });
});

describe('out-of-order states', () => {
  const next = { subscriptionId: 'sub_1', status: 'active' as const, at: NOW };
  it('the newest state wins; one as old as the stored one asks the provider', () => {
    expect(stateDecision({}, next)).toBe('apply');
    expect(stateDecision({ subscriptionId: 'sub_1', status: 'trialing', billingUpdatedAt: NOW - 1000 }, next)).toBe(
      'apply',
    );
    expect(stateDecision({ subscriptionId: 'sub_1', status: 'trialing', billingUpdatedAt: NOW + 1000 }, next)).toBe(
      'stale',
    );
    expect(stateDecision({ subscriptionId: 'sub_1', status: 'trialing', billingUpdatedAt: NOW }, next)).toBe(
      'same-time',
    );
  });

  it("an old subscription's end never ends a newer live one; a new live one takes over", () => {
    expect(
      stateDecision(
        { subscriptionId: 'sub_2', status: 'active', billingUpdatedAt: NOW - 1000 },
        { subscriptionId: 'sub_1', status: 'canceled', at: NOW },
      ),
    ).toBe('other');
    expect(
      stateDecision(
        { subscriptionId: 'sub_2', status: 'canceled', billingUpdatedAt: NOW - 1000 },
        { subscriptionId: 'sub_1', status: 'trialing', at: NOW },
      ),
    ).toBe('apply');
  });
});

describe('views', () => {
  it('a trialing subscription: 7 days left, trial end, renewal, card, no refund before a charge', () => {
    const view = subscriptionView({
      subscription: sub('trialing'),
      customer: customer(),
      sumoCodes: 0,
      firstChargeAt: null,
      now: NOW,
    });
    expect(view).toEqual({
      status: 'trialing',
      role: 'pro',
      nickname: 'pro monthly',
      amount: 29,
      currency: 'usd',
      period: 'month',
      priceId: 'price_sim_pro_month',
      trialDaysLeft: 7,
      trialEnd: NOW + 7 * DAY,
      renewalDate: NOW + 30 * DAY,
      cancelAtPeriodEnd: false,
      pendingChange: null,
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
      refundableUntil: null,
      sumoCodes: 0,
      discount: null,
    });
  });

  it.each(['active', 'past_due', 'unpaid', 'paused'] as const)('%s: renewal date and the refund window', (status) => {
    const view = subscriptionView({
      subscription: sub(status),
      customer: customer(),
      sumoCodes: 0,
      firstChargeAt: NOW - DAY,
      now: NOW,
    });
    expect(view).toMatchObject({
      status,
      role: 'pro',
      trialDaysLeft: null,
      trialEnd: null,
      renewalDate: NOW + 30 * DAY,
      refundableUntil: NOW + 29 * DAY,
    });
  });

  it.each(['canceled', 'incomplete_expired', 'incomplete'] as const)('%s: free, no renewal, no refund', (status) => {
    const view = subscriptionView({
      subscription: sub(status, { cancel_at_period_end: true }),
      customer: customer(),
      sumoCodes: 0,
      firstChargeAt: NOW - DAY,
      now: NOW,
    });
    expect(view).toMatchObject({
      status,
      role: 'free',
      renewalDate: null,
      refundableUntil: null,
      cancelAtPeriodEnd: false,
    });
  });

  it("no subscription: status none, free (or the codes' tier)", () => {
    expect(
      subscriptionView({ subscription: null, customer: null, sumoCodes: 0, firstChargeAt: null, now: NOW }),
    ).toMatchObject({ status: 'none', role: 'free', card: null, amount: null });
    expect(
      subscriptionView({ subscription: null, customer: null, sumoCodes: 2, firstChargeAt: null, now: NOW }),
    ).toMatchObject({ status: 'none', role: 'pro', sumoCodes: 2 });
    // A plan held without a subscription (seeded, granted) is the view's plan; a live subscription's own role wins.
    expect(
      subscriptionView({
        subscription: null,
        customer: null,
        sumoCodes: 0,
        firstChargeAt: null,
        now: NOW,
        heldRole: 'pro',
      }),
    ).toMatchObject({ status: 'none', role: 'pro' });
    expect(
      subscriptionView({
        subscription: null,
        customer: null,
        sumoCodes: 4,
        firstChargeAt: null,
        now: NOW,
        heldRole: 'pro',
      }),
    ).toMatchObject({ role: 'businessplus' });
    expect(
      subscriptionView({
        subscription: sub('active'),
        customer: customer(),
        sumoCodes: 0,
        firstChargeAt: null,
        now: NOW,
        heldRole: 'teamelite',
      }).role,
    ).not.toBe('teamelite');
  });

  it('a pending downgrade and a discount', () => {
    const view = subscriptionView({
      subscription: sub('active', {
        pending_price: price('personal', 'month', 1200),
        discount: { coupon: { id: 'LAUNCH', percent_off: 20, amount_off: null } },
      }),
      customer: customer(),
      sumoCodes: 0,
      firstChargeAt: null,
      now: NOW,
    });
    expect(view.pendingChange).toEqual({
      priceId: 'price_sim_personal_month',
      role: 'personal',
      period: 'month',
      at: NOW + 30 * DAY,
    });
    expect(view.discount).toEqual({ code: 'LAUNCH', percentOff: 20, amountOff: null });
  });

  it("GET /getStripeData: spec §7's shape in Stripe's units", () => {
    const s = sub('trialing');
    const c = customer({
      metadata: { role: 'pro', userId: 'u1' },
      invoice_settings: { default_payment_method: visa },
      subscriptions: { data: [s] },
    });
    const data = stripeDataResponse({ subscription: s, customer: c, sumoCodes: 0, firstChargeAt: null, now: NOW });
    expect(data.customer).toEqual({
      id: 'cus_1',
      metadata: { role: 'pro' },
      subscriptions: {
        data: [
          {
            id: 'sub_1',
            status: 'trialing',
            plan: {
              id: 'price_sim_pro_month',
              nickname: 'pro monthly',
              amount: 2900,
              interval: 'month',
              metadata: { role: 'pro' },
            },
            trial_end: s.trial_end,
            current_period_end: s.current_period_end,
            cancel_at_period_end: false,
          },
        ],
      },
      invoice_settings: {
        default_payment_method: { id: 'pm_1', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } },
      },
      discount: null,
    });
    expect(data.view.trialDaysLeft).toBe(7);
    expect(
      stripeDataResponse({ subscription: null, customer: null, sumoCodes: 0, firstChargeAt: null, now: NOW }),
    ).toMatchObject({ customer: null, view: { status: 'none' } });
  });

  it('the current subscription: the stored one, else the newest live one, else the newest', () => {
    const old = sub('canceled', { id: 'sub_old' });
    const live = sub('active', { id: 'sub_new' });
    expect(currentSubscription(customer({ subscriptions: { data: [live, old] } }), 'sub_old')?.id).toBe('sub_old');
    expect(currentSubscription(customer({ subscriptions: { data: [old, live] } }), undefined)?.id).toBe('sub_new');
    expect(currentSubscription(customer({ subscriptions: { data: [old] } }), 'gone')?.id).toBe('sub_old');
    expect(currentSubscription(null, 'x')).toBeNull();
  });

  it('plan changes: a higher tier or month to year is an upgrade', () => {
    expect(
      changeDirection(
        { role: 'pro', period: 'month', priceId: 'a' },
        { role: 'business', period: 'month', priceId: 'b' },
      ),
    ).toBe('upgrade');
    expect(
      changeDirection(
        { role: 'pro', period: 'month', priceId: 'a' },
        { role: 'personal', period: 'year', priceId: 'b' },
      ),
    ).toBe('downgrade');
    expect(
      changeDirection({ role: 'pro', period: 'month', priceId: 'a' }, { role: 'pro', period: 'year', priceId: 'b' }),
    ).toBe('upgrade');
    expect(
      changeDirection({ role: 'pro', period: 'year', priceId: 'a' }, { role: 'pro', period: 'month', priceId: 'b' }),
    ).toBe('downgrade');
    expect(
      changeDirection({ role: 'pro', period: 'year', priceId: 'a' }, { role: 'pro', period: 'year', priceId: 'a' }),
    ).toBe('same');
  });
});
