import { httpRoute } from '../../lib/http';
import { payments } from '../../adapters/payments/index';
import { billingConfig } from '../../services/billing';

/** GET /billing/config (public): which provider's checkout to mount, its publishable key, the prices on sale. */
export const handler = httpRoute({}, async () => ({ body: await billingConfig(payments()) }));
