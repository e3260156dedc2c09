import { httpRoute } from '../../lib/http';
import { loadPayments } from '../../adapters/payments/index';
import { billingConfig } from '../../services/billing';

/**
 * GET /billing/config (public): which provider's checkout to mount, its publishable key, the
 * prices on sale. `loadPayments` reads Stripe's keys first, so the first answer after a cold
 * start already carries the publishable key.
 */
export const handler = httpRoute({}, async () => ({ body: await billingConfig(await loadPayments()) }));
