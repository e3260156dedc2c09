import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { payments } from '../../adapters/payments/index';
import { setupIntent } from '../../services/billing';

/** POST /billing/setup-intent (JWT): a SetupIntent to collect the card that replaces the current one. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await setupIntent(payments(), claims.sub) };
});
