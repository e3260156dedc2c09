import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { payments } from '../../adapters/payments/index';
import { refund } from '../../services/billing';

/** POST /billing/refund (JWT): the 30-day no-risk refund; the subscription ends now. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await refund(payments(), claims.sub, Date.now()) };
});
