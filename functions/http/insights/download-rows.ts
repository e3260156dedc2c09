import { downloadRowsQuerySchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { downloadRowsOf } from '../../services/analytics';

/** GET /analytics/downloads?from&to&cursor (JWT): one page of the caller's download rows, for the CSV export. */
export const handler = httpRoute({ query: downloadRowsQuerySchema }, async ({ query, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await downloadRowsOf(claims.sub, query) };
});
