import * as z from 'zod/mini';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { simulatedCheckoutView } from '../../services/simulated-checkout';

const querySchema = z.object({ clientSecret: z.string().check(z.minLength(1), z.maxLength(255)) });

/** GET /payments/simulated/checkout?clientSecret= (JWT, owner): the session the simulator's checkout screen shows. */
export const handler = httpRoute({ query: querySchema }, async ({ query, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await simulatedCheckoutView(claims.sub, query.clientSecret) };
});
