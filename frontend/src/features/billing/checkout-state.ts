/**
 * The checkout's states (register step 3 and the account's plan tab share them, spec §2/§4):
 * config and session are fetched, then the provider's checkout is mounted: Stripe's embedded
 * Checkout, or the simulator's card form. A refusal of POST /stripe/createSubscription is
 * either shown or, when it is an invalid request (spec §8: 'Checkout invalid-request response:
 * page reloads'), answered by reloading the page, once: a second invalid answer within a
 * minute is shown instead, so a request that stays invalid never reloads in a loop.
 */
import type { BillingPeriod, PaymentsProviderName, PriceView, SimulatedSessionView } from '@domain/billing-api';

export type CheckoutProblem =
  /** the plan and period have no price on sale */
  | 'not_on_sale'
  /** a live subscription exists: change the plan instead */
  | 'already_subscribed'
  /** team members' billing is their admin's */
  | 'team_member'
  /** the token belongs to someone else or is gone */
  | 'sign_in_again'
  /** the simulator's session is older than 24 h */
  | 'expired'
  /** Stripe.js could not load (blocked or offline) */
  | 'provider_unavailable'
  /** a second invalid request in a row, or anything else */
  | 'generic';

export type CheckoutState =
  | { readonly phase: 'loading' }
  | {
      readonly phase: 'stripe';
      readonly publishableKey: string;
      readonly clientSecret: string;
      readonly price: PriceView;
    }
  | {
      readonly phase: 'simulated';
      readonly clientSecret: string;
      readonly session: SimulatedSessionView;
      readonly price: PriceView;
    }
  | { readonly phase: 'failed'; readonly problem: CheckoutProblem };

export interface CodedFailure {
  readonly status: number;
  readonly code: string;
}

function isCoded(err: unknown): err is CodedFailure {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { status?: unknown }).status === 'number' &&
    typeof (err as { code?: unknown }).code === 'string'
  );
}

export type FailureAction =
  | { readonly action: 'reload' }
  | { readonly action: 'show'; readonly problem: CheckoutProblem };

/** What the page does with a refused POST /stripe/createSubscription. */
export function createFailure(err: unknown): FailureAction {
  if (!isCoded(err)) return { action: 'show', problem: 'generic' };
  if (err.code === 'already_subscribed') return { action: 'show', problem: 'already_subscribed' };
  if (err.code === 'team_member_billing') return { action: 'show', problem: 'team_member' };
  if (err.code === 'not_your_account' || err.status === 401) return { action: 'show', problem: 'sign_in_again' };
  // invalid_request, unknown_price and the provider's own invalid-request refusals
  if (err.status === 400) return { action: 'reload' };
  return { action: 'show', problem: 'generic' };
}

/** sessionStorage key of the last reload the checkout asked for (epoch ms). */
export const RELOAD_KEY = 'sb_checkout_reload';
export const RELOAD_WINDOW_MS = 60_000;

type KeyValue = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * True when the page may reload now (and records it); false when it already reloaded for this
 * within the last minute, or storage is unavailable (then a reload could not be told from a loop).
 */
export function claimReload(storage: KeyValue | null, now: number): boolean {
  if (!storage) return false;
  try {
    const last = Number(storage.getItem(RELOAD_KEY));
    if (Number.isFinite(last) && last > 0 && now - last < RELOAD_WINDOW_MS) return false;
    storage.setItem(RELOAD_KEY, String(now));
    return true;
  } catch {
    return false;
  }
}

/** The checkout's first state once the config and the session are known. */
export function mountedState(
  provider: PaymentsProviderName,
  publishableKey: string | null,
  price: PriceView,
  clientSecret: string,
  session: SimulatedSessionView | null,
): CheckoutState {
  if (provider === 'stripe') {
    return publishableKey
      ? { phase: 'stripe', publishableKey, clientSecret, price }
      : { phase: 'failed', problem: 'provider_unavailable' };
  }
  if (!session) return { phase: 'failed', problem: 'generic' };
  if (session.status === 'expired') return { phase: 'failed', problem: 'expired' };
  return { phase: 'simulated', clientSecret, session, price };
}

/** The price the checkout sells, or the 'not on sale' failure. */
export function checkoutPrice(prices: readonly PriceView[], role: string, period: BillingPeriod): PriceView | null {
  return prices.find((p) => p.role === role && p.period === period) ?? null;
}

/** A same-origin path to go to after paying; anything else (another origin, a scheme) is the thank-you page. */
export function safeReturnPath(returnUrl: string, origin: string): string {
  try {
    const url = new URL(returnUrl, origin);
    if (url.origin !== origin) return '/thankyou2';
    return `${url.pathname}${url.search}`;
  } catch {
    return '/thankyou2';
  }
}

/** The simulator's card errors arrive as 402 with the provider's words (e.g. 'Your card was declined.'). */
export function cardErrorMessage(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const { status, message } = err as { status?: unknown; message?: unknown };
  return status === 402 && typeof message === 'string' && message.trim() !== '' ? message : null;
}
