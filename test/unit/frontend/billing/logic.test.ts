import { describe, expect, it } from 'vitest';
import type { PriceView, StripeDataResponse, SubscriptionView } from '@domain/billing-api';
import {
  brandName,
  canRefund,
  formatCardExpiry,
  formatMoney,
  hasManagedSubscription,
  invoiceLinks,
  renewalLine,
  statusTone,
  storageExcess,
  trialDaysLeft,
} from '@/features/billing/billing-format';
import {
  cardBrand,
  cardProblems,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  hasProblem,
  parseExpiry,
  simulatedCard,
} from '@/features/billing/card-format';
import {
  cardErrorMessage,
  claimReload,
  createFailure,
  mountedState,
  RELOAD_KEY,
  safeReturnPath,
} from '@/features/billing/checkout-state';
import {
  changeKind,
  contactRolesOf,
  isLiveSubscription,
  parsePeriod,
  periodFromSave,
  priceFor,
  selectedPlan,
  trialHref,
  yearlySavingPercent,
} from '@/features/billing/price-choice';
import { confirmation, CONFIRM_GIVE_UP_MS, pollConfirmation } from '@/features/billing/trial-confirmation';
import { redeemProblem } from '@/features/billing/sumo-errors';
import { billingErrorKey } from '@/features/billing/billing-errors';
import billingEn from '@/i18n/locales/billing/en.json';
import { ApiError } from '@/lib/api';

const DAY = 86_400_000;

const price = (role: PriceView['role'], period: PriceView['period'], amount: number): PriceView => ({
  priceId: `price_sim_${role}_${period}`,
  role,
  period,
  amount,
  currency: 'usd',
  nickname: `${role} ${period}`,
});
const PRICES = [
  price('personal', 'month', 12),
  price('personal', 'year', 108),
  price('pro', 'month', 29),
  price('pro', 'year', 228),
  price('business', 'month', 69),
  price('business', 'year', 588),
];

const VIEW: SubscriptionView = {
  status: 'trialing',
  role: 'pro',
  nickname: 'Pro yearly',
  amount: 228,
  currency: 'usd',
  period: 'year',
  priceId: 'price_sim_pro_year',
  trialDaysLeft: 7,
  trialEnd: Date.UTC(2031, 0, 8),
  renewalDate: Date.UTC(2031, 0, 8),
  cancelAtPeriodEnd: false,
  pendingChange: null,
  card: { brand: 'visa', last4: '4242', expMonth: 4, expYear: 2031 },
  refundableUntil: null,
  sumoCodes: 0,
  discount: null,
};

describe('price choice (pricing, register, plan tab)', () => {
  it('reads the period from ?period= and ?save=', () => {
    expect(parsePeriod('year')).toBe('year');
    expect(parsePeriod('Yearly')).toBe('year');
    expect(parsePeriod('month')).toBe('month');
    expect(parsePeriod(null)).toBe('month');
    expect(parsePeriod('weekly')).toBe('month');
    expect(periodFromSave('1')).toBe('year');
    expect(periodFromSave('')).toBe('year');
    expect(periodFromSave('0')).toBe('month');
    expect(periodFromSave(null)).toBe('month');
  });

  it('preselects pro for the premium package (PRM) and ignores unknown plans', () => {
    expect(selectedPlan('premium')).toBe('pro');
    expect(selectedPlan('PRM')).toBe('pro');
    expect(selectedPlan('Business')).toBe('business');
    expect(selectedPlan('free')).toBe('free');
    expect(selectedPlan('gold')).toBeNull();
    expect(selectedPlan(null)).toBeNull();
  });

  it("sends 'Free trial' to registration signed out and to the plan tab signed in", () => {
    expect(trialHref('pro', 'year', false)).toBe('/register?plan=pro&period=year');
    expect(trialHref('personal', 'month', false, 'SPRING')).toBe('/register?plan=personal&period=month&coupon=SPRING');
    expect(trialHref('free', 'year', false)).toBe('/register?plan=free');
    expect(trialHref('pro', 'year', true)).toBe('/dash/account?tab=1&plan=pro&period=year');
    expect(trialHref('free', 'month', true)).toBe('/dash');
  });

  it("offers the plans without a price as 'Contact us': the config's list, else businessplus and above", () => {
    expect(contactRolesOf(null)).toEqual(['businessplus', 'businesselite', 'team', 'teamplus', 'teamelite']);
    expect(contactRolesOf({ contactRoles: ['team'] })).toEqual(['team']);
  });

  it('finds the price on sale for a role and period, and the yearly saving', () => {
    expect(priceFor(PRICES, 'pro', 'year')?.priceId).toBe('price_sim_pro_year');
    expect(priceFor(PRICES, 'team', 'year')).toBeNull();
    // 228 a year against 12 x 29 = 348
    expect(yearlySavingPercent(priceFor(PRICES, 'pro', 'month'), priceFor(PRICES, 'pro', 'year'))).toBe(34);
    expect(yearlySavingPercent(null, priceFor(PRICES, 'pro', 'year'))).toBeNull();
  });

  it('tells an upgrade (now, prorated) from a downgrade (at the period end)', () => {
    expect(changeKind({ role: 'pro', period: 'month' }, { role: 'business', period: 'month' })).toBe('upgrade');
    expect(changeKind({ role: 'pro', period: 'month' }, { role: 'personal', period: 'year' })).toBe('downgrade');
    expect(changeKind({ role: 'pro', period: 'month' }, { role: 'pro', period: 'year' })).toBe('upgrade');
    expect(changeKind({ role: 'pro', period: 'year' }, { role: 'pro', period: 'month' })).toBe('downgrade');
    expect(changeKind({ role: 'pro', period: 'year' }, { role: 'pro', period: 'year' })).toBe('same');
  });

  it('changes a live subscription in place and starts a checkout otherwise', () => {
    for (const status of ['trialing', 'active', 'past_due', 'unpaid', 'paused'] as const)
      expect(isLiveSubscription(status), status).toBe(true);
    for (const status of ['none', 'canceled', 'incomplete_expired', 'incomplete'] as const)
      expect(isLiveSubscription(status), status).toBe(false);
  });
});

describe('checkout state', () => {
  it('reloads on an invalid request (spec §8) and shows the other refusals', () => {
    expect(createFailure(new ApiError(400, 'invalid_request', 'bad'))).toEqual({ action: 'reload' });
    expect(createFailure(new ApiError(400, 'unknown_price', 'gone'))).toEqual({ action: 'reload' });
    expect(createFailure(new ApiError(409, 'already_subscribed', 'x'))).toEqual({
      action: 'show',
      problem: 'already_subscribed',
    });
    expect(createFailure(new ApiError(403, 'team_member_billing', 'x'))).toEqual({
      action: 'show',
      problem: 'team_member',
    });
    expect(createFailure(new ApiError(403, 'not_your_account', 'x'))).toEqual({
      action: 'show',
      problem: 'sign_in_again',
    });
    expect(createFailure(new ApiError(401, 'not_signed_in', 'x'))).toEqual({
      action: 'show',
      problem: 'sign_in_again',
    });
    expect(createFailure(new ApiError(0, 'network_error', 'offline'))).toEqual({ action: 'show', problem: 'generic' });
    expect(createFailure(new ApiError(503, 'internal_error', 'x'))).toEqual({ action: 'show', problem: 'generic' });
    expect(createFailure(new Error('boom'))).toEqual({ action: 'show', problem: 'generic' });
  });

  it('reloads once a minute at most, and never without storage to remember it', () => {
    const values = new Map<string, string>();
    const storage = {
      getItem: (k: string) => values.get(k) ?? null,
      setItem: (k: string, v: string) => void values.set(k, v),
    };
    expect(claimReload(storage, 1_000_000)).toBe(true);
    expect(values.get(RELOAD_KEY)).toBe('1000000');
    expect(claimReload(storage, 1_030_000)).toBe(false);
    expect(claimReload(storage, 1_061_000)).toBe(true);
    expect(claimReload(null, 1_000_000)).toBe(false);
    const broken = {
      getItem: () => null,
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(claimReload(broken, 1)).toBe(false);
  });

  it("mounts the provider's checkout: Stripe with its key, the simulator with its open session", () => {
    const pro = PRICES[3]!;
    const session = {
      sessionId: 'cs_1',
      mode: 'subscription',
      customerEmail: 'a@b.co',
      price: pro,
      trialDays: 7,
      status: 'open',
      returnUrl: '/thankyou2?session_id=cs_1',
    } as const;
    expect(mountedState('stripe', 'pk_test_1', pro, 'cs_secret', null)).toEqual({
      phase: 'stripe',
      publishableKey: 'pk_test_1',
      clientSecret: 'cs_secret',
      price: pro,
    });
    expect(mountedState('stripe', null, pro, 'cs_secret', null)).toEqual({
      phase: 'failed',
      problem: 'provider_unavailable',
    });
    expect(mountedState('simulated', null, pro, 'cs_secret', session)).toMatchObject({ phase: 'simulated', session });
    expect(mountedState('simulated', null, pro, 'cs_secret', { ...session, status: 'expired' })).toEqual({
      phase: 'failed',
      problem: 'expired',
    });
    expect(mountedState('simulated', null, pro, 'cs_secret', null)).toEqual({ phase: 'failed', problem: 'generic' });
  });

  it('goes only to a same-origin return URL', () => {
    expect(safeReturnPath('/thankyou2?session_id=cs_1', 'http://app.test')).toBe('/thankyou2?session_id=cs_1');
    expect(safeReturnPath('http://app.test/thankyou2?session_id=cs_2', 'http://app.test')).toBe(
      '/thankyou2?session_id=cs_2',
    );
    expect(safeReturnPath('https://evil.example/x', 'http://app.test')).toBe('/thankyou2');
    expect(safeReturnPath('//evil.example/x', 'http://app.test')).toBe('/thankyou2');
  });

  it("shows a card error in the provider's words, and nothing else as one", () => {
    expect(cardErrorMessage(new ApiError(402, 'card_declined', 'Your card was declined.'))).toBe(
      'Your card was declined.',
    );
    expect(cardErrorMessage(new ApiError(400, 'invalid_request', 'Bad'))).toBeNull();
    expect(cardErrorMessage(new ApiError(402, 'card_declined', ' '))).toBeNull();
    expect(cardErrorMessage('nope')).toBeNull();
  });
});

describe('card fields', () => {
  it('groups the number as printed on the card', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000-0000-0000-0002')).toBe('4000 0000 0000 0002');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('37828224631000599')).toBe('3782 822463 10005');
    expect(formatCardNumber('42424242424242424242424')).toBe('4242 4242 4242 4242 424');
    expect(formatCardNumber('abc')).toBe('');
  });

  it('knows the brands', () => {
    expect(cardBrand('4242')).toBe('visa');
    expect(cardBrand('5555')).toBe('mastercard');
    expect(cardBrand('2223')).toBe('mastercard');
    expect(cardBrand('3782')).toBe('amex');
    expect(cardBrand('6011')).toBe('discover');
    expect(cardBrand('3566')).toBe('jcb');
    expect(cardBrand('6200')).toBe('unionpay');
    expect(cardBrand('9999')).toBe('unknown');
  });

  it('writes the expiry as MM / YY while typing and deleting', () => {
    expect(formatExpiry('4')).toBe('04 / ');
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12', '1')).toBe('12 / ');
    expect(formatExpiry('12 / 3', '12 / ')).toBe('12 / 3');
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(formatExpiry('12 /', '12 / ')).toBe('12');
    expect(formatExpiry('12/345')).toBe('12 / 34');
    expect(formatCvc('12a34 5')).toBe('1234');
  });

  it('parses the expiry', () => {
    expect(parseExpiry('04 / 31')).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry('4/2031')).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry('13 / 31')).toBeNull();
    expect(parseExpiry('00 / 31')).toBeNull();
    expect(parseExpiry('04 / 3')).toBeNull();
  });

  it('names incomplete and expired fields, and leaves the judging of the card to the provider', () => {
    const now = new Date(2030, 5, 15);
    const good = { number: '4000 0000 0000 0002', expiry: '06 / 30', cvc: '123' };
    expect(hasProblem(cardProblems(good, now))).toBe(false);
    expect(cardProblems({ ...good, number: '4242 4242' }, now).number).toBe('incomplete');
    expect(cardProblems({ ...good, expiry: '05 / 30' }, now).expiry).toBe('expired');
    expect(cardProblems({ ...good, expiry: '1' }, now).expiry).toBe('incomplete');
    expect(cardProblems({ ...good, cvc: '12' }, now).cvc).toBe('incomplete');
    expect(cardProblems({ number: '3782 822463 10005', expiry: '01 / 31', cvc: '123' }, now).cvc).toBe('incomplete');
    // a number that fails the checksum still goes to the provider, which words the refusal
    expect(hasProblem(cardProblems({ ...good, number: '4242 4242 4242 4241' }, now))).toBe(false);
  });

  it("builds the simulator's card body", () => {
    expect(
      simulatedCard({ number: '4242 4242 4242 4242', expiry: '04 / 31', cvc: '123', name: '  Ada  ' }, 'cs_secret'),
    ).toEqual({
      clientSecret: 'cs_secret',
      number: '4242424242424242',
      expMonth: 4,
      expYear: 2031,
      cvc: '123',
      name: 'Ada',
    });
    expect(simulatedCard({ number: '4242', expiry: '', cvc: '', name: '' }, 's')).not.toHaveProperty('name');
  });
});

describe('billing view formatting', () => {
  it('writes amounts in the currency, cents only when there are some', () => {
    expect(formatMoney(29, 'usd', 'en')).toBe('$29');
    expect(formatMoney(28.5, 'usd', 'en')).toBe('$28.50');
    expect(formatMoney(588, 'eur', 'de')).toMatch(/^588\s€$/u);
    expect(formatMoney(10, 'zzz1', 'en')).toBe('10 ZZZ1');
  });

  it('counts trial days from the view, else from the trial end (rounded up)', () => {
    const now = Date.UTC(2031, 0, 1);
    expect(trialDaysLeft(VIEW, now)).toBe(7);
    expect(trialDaysLeft({ ...VIEW, trialDaysLeft: null, trialEnd: now + 2.2 * DAY }, now)).toBe(3);
    expect(trialDaysLeft({ ...VIEW, trialDaysLeft: null, trialEnd: now - DAY }, now)).toBe(0);
    expect(trialDaysLeft({ ...VIEW, status: 'active' }, now)).toBeNull();
  });

  it('names the date that matters: the first charge, the renewal, or the end of a cancelled plan', () => {
    expect(renewalLine(VIEW)).toEqual({ kind: 'trialEnds', at: VIEW.trialEnd });
    expect(renewalLine({ ...VIEW, status: 'active', renewalDate: 5 })).toEqual({ kind: 'renews', at: 5 });
    expect(renewalLine({ ...VIEW, status: 'active', cancelAtPeriodEnd: true, renewalDate: 9 })).toEqual({
      kind: 'ends',
      at: 9,
    });
    expect(renewalLine({ ...VIEW, status: 'canceled' })).toBeNull();
    expect(renewalLine({ ...VIEW, status: 'none' })).toBeNull();
  });

  it('offers the refund inside its window only, and manages live subscriptions only', () => {
    expect(canRefund({ refundableUntil: 2_000 }, 1_000)).toBe(true);
    expect(canRefund({ refundableUntil: 1_000 }, 1_000)).toBe(false);
    expect(canRefund({ refundableUntil: null }, 1_000)).toBe(false);
    expect(hasManagedSubscription({ status: 'past_due' })).toBe(true);
    expect(hasManagedSubscription({ status: 'canceled' })).toBe(false);
    expect(hasManagedSubscription({ status: 'none' })).toBe(false);
  });

  it('writes the card and the status badge', () => {
    expect(formatCardExpiry({ expMonth: 4, expYear: 2031 })).toBe('04/31');
    expect(brandName('visa')).toBe('Visa');
    expect(brandName('amex')).toBe('American Express');
    expect(brandName('elo')).toBe('Elo');
    expect(statusTone('trialing')).toBe('info');
    expect(statusTone('active')).toBe('success');
    expect(statusTone('past_due')).toBe('warning');
    expect(statusTone('canceled')).toBe('muted');
  });

  it("opens the simulator's hosted invoice in the app and Stripe's on its site; nothing else", () => {
    const app = 'http://127.0.0.1:5173';
    expect(invoiceLinks({ pdfUrl: null, hostedUrl: '/dash/account/billing/invoices/in_1' }, app)).toEqual({
      pdf: null,
      hosted: { href: '/dash/account/billing/invoices/in_1', inApp: true },
    });
    // the simulator names it on the app's origin, as Stripe names its own page absolutely
    expect(invoiceLinks({ pdfUrl: null, hostedUrl: `${app}/dash/account/billing/invoices/in_2` }, app)).toEqual({
      pdf: null,
      hosted: { href: '/dash/account/billing/invoices/in_2', inApp: true },
    });
    // another plain-http origin is not ours and not https: no link
    expect(
      invoiceLinks({ pdfUrl: null, hostedUrl: 'http://127.0.0.1:5174/dash/account/billing/invoices/in_3' }, app),
    ).toEqual({ pdf: null, hosted: null });
    expect(
      invoiceLinks(
        { pdfUrl: 'https://pay.stripe.com/invoice/x/pdf', hostedUrl: 'https://invoice.stripe.com/i/x' },
        app,
      ),
    ).toEqual({
      pdf: 'https://pay.stripe.com/invoice/x/pdf',
      hosted: { href: 'https://invoice.stripe.com/i/x', inApp: false },
    });
    expect(invoiceLinks({ pdfUrl: 'javascript:alert(1)', hostedUrl: '//evil.example/x' }, app)).toEqual({
      pdf: null,
      hosted: null,
    });
  });

  it("reads storage_exceeds_plan's details", () => {
    expect(storageExcess({ used: 60e9, limit: 50e9, role: 'personal' })).toEqual({
      used: 60e9,
      limit: 50e9,
      role: 'personal',
    });
    expect(storageExcess({ used: 'x' })).toBeNull();
    expect(storageExcess(undefined)).toBeNull();
  });

  it("says the billing routes' refusals in the billing catalogue's words", () => {
    const at = (key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], billingEn);
    for (const code of [
      'refund_window_over',
      'nothing_to_refund',
      'no_subscription',
      'plan_unchanged',
      'storage_exceeds_plan',
      'already_subscribed',
      'team_member_billing',
      'unknown_price',
    ]) {
      const key = billingErrorKey(new ApiError(409, code, 'x'));
      expect(key, code).not.toBeNull();
      expect(typeof at(key!), `${code} -> ${key}`).toBe('string');
    }
    expect(billingErrorKey(new ApiError(409, 'something_else', 'x'))).toBeNull();
    expect(billingErrorKey(null)).toBeNull();
  });

  it('says the redeem refusals in its own words', () => {
    expect(redeemProblem(new ApiError(409, 'code_already_used', 'x'))).toBe('code_already_used');
    expect(redeemProblem(new ApiError(400, 'invalid_code', 'x'))).toBe('invalid_code');
    expect(redeemProblem(new ApiError(409, 'sumo_codes_full', 'x'))).toBe('sumo_codes_full');
    expect(redeemProblem(new ApiError(429, 'rate_limited', 'x'))).toBeNull();
  });
});

describe('/thankyou2 confirmation', () => {
  const data = (status: SubscriptionView['status']) =>
    ({ customer: null, view: { ...VIEW, status } }) as StripeDataResponse;

  it('is confirmed once trialing or active, and gives up after about 20 s', () => {
    expect(confirmation(data('trialing'), 0)).toBe('confirmed');
    expect(confirmation(data('active'), 25_000)).toBe('confirmed');
    expect(confirmation(data('none'), 1_000)).toBe('waiting');
    expect(confirmation(null, CONFIRM_GIVE_UP_MS)).toBe('still_confirming');
  });

  it('asks until the webhook has landed, counting failed requests as not yet', async () => {
    let clock = 0;
    const answers: (StripeDataResponse | Error)[] = [data('none'), new Error('503'), data('trialing')];
    const seen: string[] = [];
    await pollConfirmation(
      {
        fetch: async () => {
          const next = answers.shift()!;
          if (next instanceof Error) throw next;
          return next;
        },
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
        },
      },
      new AbortController().signal,
      (state) => seen.push(state),
    );
    expect(seen).toEqual(['waiting', 'waiting', 'confirmed']);
  });

  it("stops with 'still confirming' when the time is up", async () => {
    let clock = 0;
    const seen: string[] = [];
    await pollConfirmation(
      { fetch: async () => data('none'), now: () => clock, sleep: async (ms) => void (clock += ms) },
      new AbortController().signal,
      (state) => seen.push(state),
    );
    expect(seen.at(-1)).toBe('still_confirming');
    expect(seen.length).toBe(21);
  });
});
