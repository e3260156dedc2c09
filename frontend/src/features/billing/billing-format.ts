/**
 * The billing screens' figures (spec §3 Subscription view: status, amount, nickname, trial
 * days, trial end, renewal date, role, period, card) as the reader's language writes them.
 */
import type { BillingPeriod, CardView, InvoiceView, SubscriptionStatus, SubscriptionView } from '@domain/billing-api';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

const DAY_MS = 86_400_000;

function locale(language: string): string {
  return LANGUAGE_TAGS[toLanguage(language)];
}

/** 29 usd -> '$29', 28.5 eur -> '€28.50': cents only when there are some. */
export function formatMoney(amount: number, currency: string, language: string): string {
  const whole = Number.isInteger(amount);
  try {
    return new Intl.NumberFormat(locale(language), {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: whole ? 0 : 2,
    }).format(amount);
  } catch {
    // an unknown currency code: the number and the code
    return `${amount.toFixed(whole ? 0 : 2)} ${currency.toUpperCase()}`;
  }
}

export function formatDay(epochMs: number, language: string): string {
  return new Intl.DateTimeFormat(locale(language), { year: 'numeric', month: 'long', day: 'numeric' }).format(
    new Date(epochMs),
  );
}

/** 4 / 2031 -> '04/31' */
export function formatCardExpiry(card: Pick<CardView, 'expMonth' | 'expYear'>): string {
  return `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`;
}

const BRAND_NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  diners: 'Diners Club',
};

export function brandName(brand: string): string {
  return BRAND_NAMES[brand.toLowerCase()] ?? (brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : '');
}

/** Whole days left in the trial: the server's figure, else counted from the trial end (rounded up). */
export function trialDaysLeft(
  view: Pick<SubscriptionView, 'status' | 'trialDaysLeft' | 'trialEnd'>,
  now: number,
): number | null {
  if (view.status !== 'trialing') return null;
  if (view.trialDaysLeft !== null) return Math.max(0, view.trialDaysLeft);
  if (view.trialEnd === null) return null;
  return Math.max(0, Math.ceil((view.trialEnd - now) / DAY_MS));
}

export type StatusTone = 'success' | 'info' | 'warning' | 'danger' | 'muted';

/** The badge a status wears: trial and active good, payment trouble a warning, over or suspended dim. */
export function statusTone(status: SubscriptionStatus): StatusTone {
  switch (status) {
    case 'active':
      return 'success';
    case 'trialing':
      return 'info';
    case 'past_due':
    case 'unpaid':
    case 'incomplete':
      return 'warning';
    case 'paused':
    case 'incomplete_expired':
      return 'danger';
    case 'canceled':
    case 'none':
      return 'muted';
  }
}

/** Which date the billing page names: the trial's end, the next charge, or the day a cancelled plan stops. */
export type RenewalLine =
  | { readonly kind: 'trialEnds'; readonly at: number }
  | { readonly kind: 'renews'; readonly at: number }
  | { readonly kind: 'ends'; readonly at: number }
  | null;

export function renewalLine(
  view: Pick<SubscriptionView, 'status' | 'renewalDate' | 'trialEnd' | 'cancelAtPeriodEnd'>,
): RenewalLine {
  if (view.status === 'none' || view.status === 'canceled' || view.status === 'incomplete_expired') return null;
  if (view.cancelAtPeriodEnd) {
    const at = view.renewalDate ?? view.trialEnd;
    return at === null ? null : { kind: 'ends', at };
  }
  if (view.status === 'trialing' && view.trialEnd !== null) return { kind: 'trialEnds', at: view.trialEnd };
  return view.renewalDate === null ? null : { kind: 'renews', at: view.renewalDate };
}

/** True while the 30-day no-risk refund is offered. */
export function canRefund(view: Pick<SubscriptionView, 'refundableUntil'>, now: number): boolean {
  return view.refundableUntil !== null && view.refundableUntil > now;
}

/** A subscription to show and manage: anything but 'none' and an ended one. */
export function hasManagedSubscription(view: Pick<SubscriptionView, 'status'>): boolean {
  return view.status !== 'none' && view.status !== 'canceled' && view.status !== 'incomplete_expired';
}

/**
 * An invoice's links: the PDF, and the hosted page, which for the simulator is an app page
 * (a same-origin path, opened in the app) and for Stripe its own site (a new tab).
 */
export function invoiceLinks(
  invoice: Pick<InvoiceView, 'pdfUrl' | 'hostedUrl'>,
  appOrigin: string,
): { readonly pdf: string | null; readonly hosted: { readonly href: string; readonly inApp: boolean } | null } {
  // The simulator's hosted invoice is an app page, named absolutely on the app's origin as Stripe
  // names its own: it opens in the app by its path.
  const raw = invoice.hostedUrl;
  const hosted = raw?.startsWith(`${appOrigin}/`) ? raw.slice(appOrigin.length) : raw;
  const inApp = hosted?.startsWith('/') && !hosted.startsWith('//');
  const external = (url: string | null) => (url !== null && /^https:\/\//u.test(url) ? url : null);
  return {
    pdf: external(invoice.pdfUrl),
    hosted:
      hosted === null
        ? null
        : inApp
          ? { href: hosted, inApp: true }
          : external(hosted)
            ? { href: hosted, inApp: false }
            : null,
  };
}

export type PeriodKey = 'perMonth' | 'perYear';

export function periodKey(period: BillingPeriod): PeriodKey {
  return period === 'year' ? 'perYear' : 'perMonth';
}

/** '12 GB of 10 GB': storage_exceeds_plan's details, when they are there. */
export function storageExcess(
  details: unknown,
): { readonly used: number; readonly limit: number; readonly role: string | null } | null {
  if (typeof details !== 'object' || details === null) return null;
  const { used, limit, role } = details as { used?: unknown; limit?: unknown; role?: unknown };
  if (typeof used !== 'number' || typeof limit !== 'number') return null;
  return { used, limit, role: typeof role === 'string' ? role : null };
}
