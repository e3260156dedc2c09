import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { payments } from '../../adapters/payments/index';
import { invoices } from '../../services/billing';

/** GET /billing/invoices (JWT): the caller's invoices, newest first. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await invoices(payments(), claims.sub) };
});
