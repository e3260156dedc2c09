/**
 * The payments provider of this deployment: `PAYMENTS=stripe` runs Stripe with the keys of the
 * secret STRIPE_SECRET_ID names (without it the configuration does not load: lib/env.ts);
 * otherwise the local simulator runs. Chosen once per cold start. Stripe's keys are read from Secrets Manager on first use, and its SDK is
 * loaded only in Stripe mode (docs/decisions/, "Payments providers").
 */
import { paymentsConfig } from '../../lib/env';
import type { PaymentsProvider } from './provider';
import { simulator } from './simulated';
import { StripeProvider } from './stripe';
import { createStripeKeysLoader } from './stripe-keys';

let chosen: PaymentsProvider | undefined;

export function payments(): PaymentsProvider {
  if (!chosen) {
    const cfg = paymentsConfig();
    chosen =
      cfg.provider === 'stripe' && cfg.stripeSecretId
        ? new StripeProvider({ keys: createStripeKeysLoader(cfg.stripeSecretId), prices: cfg.stripePrices })
        : simulator();
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
