import { checkoutRequestSchema } from '../../domain/billing-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { config } from '../../lib/env';
import { payments } from '../../adapters/payments/index';
import { createCheckout } from '../../services/billing';

/** POST /stripe/createSubscription (JWT, spec §3 Checkout request): an embedded checkout session with the 7-day trial. */
export const handler = httpRoute({ body: checkoutRequestSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await createCheckout(payments(), claims.sub, body, config().appOrigin) };
});
