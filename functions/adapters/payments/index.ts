/**
 * The payments provider of this deployment (issue 14): `PAYMENTS=stripe` with a Stripe secret
 * configured (STRIPE_SECRET_ID) runs Stripe; anything else runs the local simulator. Chosen
 * once per cold start. Stripe's keys are read from Secrets Manager on first use, and its SDK is
 * loaded only in Stripe mode (docs/decisions.md, "Payments providers").
 */
import { paymentsConfig } from '../../lib/env';
import { log } from '../../lib/log';
import type { PaymentsProvider } from './provider';
import { simulator } from './simulated';
import { StripeProvider } from './stripe';
import { createStripeKeysLoader } from './stripe-keys';

let chosen: PaymentsProvider | undefined;

export function payments(): PaymentsProvider {
  if (!chosen) {
    const cfg = paymentsConfig();
    if (cfg.stripeRequestedWithoutKey) log.warn('PAYMENTS=stripe without STRIPE_SECRET_ID: the payments simulator runs instead');
    chosen = cfg.provider === 'stripe' && cfg.stripeSecretId ? new StripeProvider({ keys: createStripeKeysLoader(cfg.stripeSecretId), prices: cfg.stripePrices }) : simulator();
  }
  return chosen;
}

/**
 * The provider with its keys loaded, so `publishableKey` is set (Stripe's comes from the
 * secret): use it where the publishable key is read (GET /billing/config).
 */
export async function loadPayments(): Promise<PaymentsProvider> {
  const provider = payments();
  if (provider instanceof StripeProvider) await provider.ready();
  return provider;
}

/** The simulator when it is the provider (its card routes and clock), else null. */
export function simulatedPayments() {
  return paymentsConfig().provider === 'simulated' ? simulator() : null;
}

export type { PaymentsProvider } from './provider';
