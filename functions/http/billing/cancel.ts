import { cancelSchema } from '../../domain/billing-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { payments } from '../../adapters/payments/index';
import { setCancel } from '../../services/billing';

/** POST /billing/cancel (JWT): { cancel: true } ends the subscription at the period end, { cancel: false } resumes it. */
export const handler = httpRoute({ body: cancelSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await setCancel(payments(), claims.sub, body.cancel, Date.now()) };
});
