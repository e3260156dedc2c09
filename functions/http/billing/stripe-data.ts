import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { payments } from '../../adapters/payments/index';
import { stripeData } from '../../services/billing';

/** GET /getStripeData (JWT, spec §7): the caller's customer and subscription, and the Subscription view. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await stripeData(payments(), claims.sub, Date.now()) };
});
