import { analyticsQuerySchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { analyticsOf } from '../../services/analytics';

/** GET /analytics?from&to&interval (JWT): the caller's downloads over time, by country, top transfers, unique recipients. */
export const handler = httpRoute({ query: analyticsQuerySchema }, async ({ query, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await analyticsOf(claims.sub, query) };
});
