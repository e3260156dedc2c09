/**
 * The billing calls of functions/domain/billing-api.ts as the app makes them. Types only from
 * the contract (no zod here: this module is imported by lazily loaded billing screens, and by
 * nothing in a first load). GET /billing/config is public and asked once per page load.
 */
import type {
  AddCardRequest,
  BillingConfigResponse,
  CardView,
  ChangePlanRequest,
  CheckoutRequest,
  CheckoutResponse,
  InvoicesResponse,
  RedeemResponse,
  SetupIntentResponse,
  SimulatedCardInput,
  SimulatedSessionView,
  StripeDataResponse,
} from '@domain/billing-api';
import { apiFetch } from '@/lib/api';
import { authedFetch } from '@/lib/session/session';

let config: Promise<BillingConfigResponse> | null = null;

/** GET /billing/config, once per page load (a failure is asked again next time). */
export function fetchBillingConfig(): Promise<BillingConfigResponse> {
  config ??= apiFetch<BillingConfigResponse>('/billing/config').catch((err: unknown) => {
    config = null;
    throw err;
  });
  return config;
}

/** POST /stripe/createSubscription: the Checkout Session the page mounts. No retry: a retried create would open a second session. */
export function createCheckout(body: CheckoutRequest): Promise<CheckoutResponse> {
  return authedFetch<CheckoutResponse>('/stripe/createSubscription', { method: 'POST', body, retries: 0 });
}

export function fetchStripeData(signal?: AbortSignal): Promise<StripeDataResponse> {
  return authedFetch<StripeDataResponse>('/getStripeData', signal ? { signal } : {});
}

export function createSetupIntent(): Promise<SetupIntentResponse> {
  return authedFetch<SetupIntentResponse>('/billing/setup-intent', { method: 'POST', body: {}, retries: 0 });
}

export function addCard(body: AddCardRequest): Promise<{ card: CardView }> {
  return authedFetch<{ card: CardView }>('/addCard', { method: 'POST', body, retries: 0 });
}

export function changePlan(body: ChangePlanRequest): Promise<StripeDataResponse> {
  return authedFetch<StripeDataResponse>('/create-subscription', { method: 'POST', body, retries: 0 });
}

/** cancel true: at the period end; false: resume. */
export function setCancel(cancel: boolean): Promise<StripeDataResponse> {
  return authedFetch<StripeDataResponse>('/billing/cancel', { method: 'POST', body: { cancel }, retries: 0 });
}

export function requestRefund(): Promise<StripeDataResponse> {
  return authedFetch<StripeDataResponse>('/billing/refund', { method: 'POST', body: {}, retries: 0 });
}

export function fetchInvoices(): Promise<InvoicesResponse> {
  return authedFetch<InvoicesResponse>('/billing/invoices');
}

export function redeemCode(code: string): Promise<RedeemResponse> {
  return authedFetch<RedeemResponse>('/appsumo/redeem', { method: 'POST', body: { code }, retries: 0 });
}

// ---- the simulated provider's own screens ----

export function fetchSimulatedSession(clientSecret: string): Promise<SimulatedSessionView> {
  return authedFetch<SimulatedSessionView>(
    `/payments/simulated/checkout?clientSecret=${encodeURIComponent(clientSecret)}`,
  );
}

export function paySimulatedCheckout(body: SimulatedCardInput): Promise<{ status: 'complete'; returnUrl: string }> {
  return authedFetch<{ status: 'complete'; returnUrl: string }>('/payments/simulated/checkout', {
    method: 'POST',
    body,
    retries: 0,
  });
}

export function confirmSimulatedSetup(body: SimulatedCardInput): Promise<{ paymentMethodId: string }> {
  return authedFetch<{ paymentMethodId: string }>('/payments/simulated/setup', { method: 'POST', body, retries: 0 });
}
