import { simulatedCardSchema } from '../../domain/billing-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { payWithSimulatedCard } from '../../services/simulated-checkout';

/** POST /payments/simulated/checkout (JWT, owner): pays the caller's checkout session with a test card; 402 card errors in Stripe's words. */
export const handler = httpRoute({ body: simulatedCardSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await payWithSimulatedCard(claims.sub, body) };
});
