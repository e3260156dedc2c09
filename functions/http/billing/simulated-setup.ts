import { simulatedCardSchema } from '../../domain/billing-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { confirmSimulatedSetup } from '../../services/simulated-checkout';

/** POST /payments/simulated/setup (JWT, owner): confirms the caller's SetupIntent with a test card; answers the new card's paymentMethodId. */
export const handler = httpRoute({ body: simulatedCardSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await confirmSimulatedSetup(claims.sub, body) };
});
