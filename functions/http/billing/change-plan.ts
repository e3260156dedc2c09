import { changePlanSchema } from '../../domain/billing-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { payments } from '../../adapters/payments/index';
import { changePlan } from '../../services/billing';

/** POST /create-subscription (JWT, spec §7): change plan or period; the price id decides, never `role` or `trial`. */
export const handler = httpRoute({ body: changePlanSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await changePlan(payments(), claims.sub, body, Date.now()) };
});
