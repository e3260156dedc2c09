import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '@domain/auth-api';
import type { PriceView, SimulatedSessionView, SubscriptionView } from '@domain/billing-api';
import { GB } from '@domain/units';
import { AccountPage } from '@/app/screens/account-page';
import { BillingPage } from '@/features/billing/components/billing-page';
import { CardFields, EMPTY_CARD } from '@/features/billing/components/card-fields';
import { SimulatedCheckout } from '@/features/billing/components/simulated-checkout';
import { SubscriptionBadge } from '@/features/billing/components/subscription-badge';
import { SumoRedeem } from '@/features/billing/components/sumo-redeem';
import { PricingPage } from '@/app/screens/pricing-page';
import { routes } from '@/app/routes';
import { ServedRoutesProvider } from '@/lib/served-routes';
import { SessionProvider } from '@/lib/session/session-provider';
import { SessionStore } from '@/lib/session/session-store';
import { attribute, createTestI18n, renderHtml, type Markup } from '../../../helpers/render-html';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});

const USER: SessionUser = {
  _id: 'u1',
  email: 'ada@analytical.org',
  fullName: 'Ada Lovelace',
  showLogoNav: false,
  role: 'free',
  status: 'unpaid',
  isTeamMember: false,
  loginCount: 2,
  storageUsed: 1 * GB,
  storageLimit: 10 * GB,
  storageState: 'ok',
  thisMonthsTransfers: 1,
  monthlyTransferLimit: 10,
  blocked: null,
};

function store(user: SessionUser | null): SessionStore {
  const s = new SessionStore({
    api: () => Promise.reject(new Error('no network in this test')),
    flagStorage: null,
    now: () => 0,
    setTimer: () => null,
    clearTimer: () => undefined,
    reload: () => undefined,
  });
  if (user) s.completeSignup({ accessToken: 'token', expiresAt: 3_600_000, user });
  return s;
}

function doc(element: ReactElement, user: SessionUser | null = USER, path = '/'): Markup {
  return renderHtml(
    i18n,
    <ServedRoutesProvider routes={routes}>
      <SessionProvider store={store(user)}>
        <MemoryRouter initialEntries={[path]}>{element}</MemoryRouter>
      </SessionProvider>
    </ServedRoutesProvider>,
  );
}

/** An href as the browser reads it (the markup escapes '&'). */
const href = (view: Markup, testId: string) => view.attr(testId, 'href')?.replaceAll('&amp;', '&') ?? null;

const PRO_YEAR: PriceView = {
  priceId: 'price_sim_pro_year',
  role: 'pro',
  period: 'year',
  amount: 228,
  currency: 'usd',
  nickname: 'Pro yearly',
};
const SESSION: SimulatedSessionView = {
  sessionId: 'cs_sim_1',
  mode: 'subscription',
  customerEmail: 'ada@analytical.org',
  price: PRO_YEAR,
  trialDays: 7,
  status: 'open',
  returnUrl: '/thankyou2?session_id=cs_sim_1',
};

describe("the simulator's checkout screen", () => {
  const view = () =>
    doc(
      <SimulatedCheckout
        session={SESSION}
        price={PRO_YEAR}
        clientSecret="cs_sim_1_secret"
        onComplete={() => undefined}
      />,
    );

  it('shows the plan, the price and the 7-day trial with no charge for 7 days', () => {
    const text = view().text();
    expect(text).toContain('Pro plan');
    expect(view().firstText('checkout-price')).toBe('$228 per year');
    expect(view().firstText('checkout-trial-note')).toBe('7-day free trial, no charge for 7 days');
    expect(text).toContain('Receipts go to ada@analytical.org.');
    expect(view().firstText('checkout-submit')).toBe('Start trial');
  });

  it('labels every card field and lets the browser fill them (autocomplete cc-*)', () => {
    const v = view();
    for (const [testId, autocomplete] of [
      ['card-number', 'cc-number'],
      ['card-expiry', 'cc-exp'],
      ['card-cvc', 'cc-csc'],
      ['card-name', 'cc-name'],
    ] as const) {
      expect(v.attr(testId, 'autocomplete'), testId).toBe(autocomplete);
      const id = v.attr(testId, 'id');
      expect(v.html, testId).toContain(`for="${id}"`);
    }
    expect(v.attr('card-number', 'inputmode')).toBe('numeric');
  });

  it('shows the test cards, since it is a simulator', () => {
    const text = view().text();
    expect(text).toContain('4242 4242 4242 4242');
    expect(text).toContain('4000 0000 0000 0002');
    expect(text).toContain('no real card is charged');
  });

  it('names problems under their field', () => {
    const v = doc(
      <CardFields
        values={{ ...EMPTY_CARD, number: '4242 4242' }}
        onChange={() => undefined}
        problems={{ number: 'incomplete', expiry: 'expired', cvc: null }}
      />,
    );
    expect(v.attr('card-number', 'aria-invalid')).toBe('true');
    expect(v.text()).toContain('Your card number is incomplete.');
    expect(v.text()).toContain("Your card's expiry date is in the past.");
    expect(v.attr('card-cvc', 'aria-invalid')).toBeNull();
    expect(v.firstText('card-brand')).toBe('Visa');
  });
});

describe('subscription status', () => {
  const trialing: SubscriptionView = {
    status: 'trialing',
    role: 'pro',
    nickname: 'Pro yearly',
    amount: 228,
    currency: 'usd',
    period: 'year',
    priceId: 'price_sim_pro_year',
    trialDaysLeft: 7,
    trialEnd: Date.UTC(2031, 0, 8, 12),
    renewalDate: Date.UTC(2031, 0, 8, 12),
    cancelAtPeriodEnd: false,
    pendingChange: null,
    card: null,
    refundableUntil: null,
    sumoCodes: 0,
    discount: null,
  };

  it("shows 'Trialing' and the days left in the trial", () => {
    const v = doc(<SubscriptionBadge view={trialing} now={Date.UTC(2031, 0, 1)} />);
    expect(v.firstText('subscription-status')).toBe('Trialing');
    expect(v.attr('subscription-status', 'data-status')).toBe('trialing');
    expect(v.firstText('trial-days-left')).toBe('7 days left in trial (ends January 8, 2031)');
    const one = doc(<SubscriptionBadge view={{ ...trialing, trialDaysLeft: 1, trialEnd: null }} now={0} />);
    expect(one.firstText('trial-days-left')).toBe('1 day left in trial');
  });

  it('shows no trial line once active, and nothing without a subscription', () => {
    const active = doc(<SubscriptionBadge view={{ ...trialing, status: 'active' }} now={0} />);
    expect(active.firstText('subscription-status')).toBe('Active');
    expect(active.has('trial-days-left')).toBe(false);
    expect(doc(<SubscriptionBadge view={{ ...trialing, status: 'none' }} now={0} />).html).toBe('');
  });
});

describe('pricing', () => {
  it("signed out, 'Free trial' registers with the plan and period; premium preselects pro", () => {
    const v = doc(<PricingPage />, null, '/pricing?plan=premium&save=1');
    expect(href(v, 'pricing-card-pro')).toBe('/register?plan=pro&period=year');
    expect(href(v, 'pricing-card-free')).toBe('/register?plan=free');
    const selected = v.html.match(/<article[^>]*aria-current="true"[^>]*>/g) ?? [];
    expect(selected).toHaveLength(1);
    expect(attribute(selected[0]!, 'class')).toContain('plan-card-selected');
    expect(href(v, 'plan-table-trial-business')).toBe('/register?plan=business&period=year');
    expect(v.firstText('plan-table-trial-business')).toBe('Free trial');
  });

  it('signed in, a paid plan opens the plan tab and free the dashboard', () => {
    const v = doc(<PricingPage />, USER, '/pricing?coupon=SPRING');
    expect(href(v, 'pricing-card-personal')).toBe('/dash/account?tab=1&plan=personal&period=month&coupon=SPRING');
    expect(href(v, 'pricing-card-free')).toBe('/dash');
  });

  it("offers businessplus and above as 'Contact us' by mail to support", () => {
    const v = doc(<PricingPage />, null, '/pricing');
    expect(href(v, 'plan-table-contact-teamelite')).toMatch(/^mailto:/);
    expect(v.has('plan-table-trial-teamelite')).toBe(false);
    expect(href(v, 'pricing-contact-us')).toMatch(/^mailto:[^?]+@/);
    expect(v.text()).toContain('Business Plus');
  });

  it('after a verified email (verifyComplete) the plans continue at step 3', () => {
    const v = doc(<PricingPage />, null, '/pricing?verifyComplete=1');
    expect(v.has('pricing-verified')).toBe(true);
    expect(href(v, 'pricing-card-pro')).toBe('/register?step=3&plan=pro&period=month');
  });
});

describe('account tabs', () => {
  it('tab 1 is the plan upgrade; team members have no plan tab', () => {
    const tab1 = doc(<AccountPage />, USER, '/dash/account?tab=1&plan=pro&period=year');
    expect(tab1.attr('account-tab-1', 'aria-selected')).toBe('true');
    expect(tab1.firstText('account-tab-1')).toBe('Plan');
    expect(tab1.has('account-plan')).toBe(false);
    const tab0 = doc(<AccountPage />, USER, '/dash/account');
    expect(tab0.attr('account-tab-0', 'aria-selected')).toBe('true');
    expect(tab0.has('account-plan')).toBe(true);
    const member = doc(<AccountPage />, { ...USER, isTeamMember: true }, '/dash/account?tab=1');
    expect(member.has('account-tab-1')).toBe(false);
    expect(member.has('account-plan')).toBe(true);
  });
});

describe('billing page', () => {
  it('shows team members that their admin manages billing', () => {
    const v = doc(<BillingPage />, { ...USER, isTeamMember: true }, '/dash/account/billing');
    expect(v.has('billing-team-managed')).toBe(true);
    expect(v.text()).toContain('billing is managed by your team admin');
    expect(v.has('billing-page')).toBe(false);
  });
});

describe('lifetime codes', () => {
  it("signed out, 'Log in to redeem' comes back to /appsumoforever", () => {
    const v = doc(<SumoRedeem />, null, '/appsumoforever');
    expect(href(v, 'sumo-login')).toBe('/login?redirect=%2Fappsumoforever');
    expect(v.has('sumo-code')).toBe(false);
  });

  it('signed in, a labelled code field and the redeem button', () => {
    const v = doc(<SumoRedeem />, USER, '/appsumoforever');
    const id = v.attr('sumo-code', 'id');
    expect(v.html).toContain(`for="${id}"`);
    expect(v.firstText('sumo-submit')).toBe('Redeem');
  });
});
