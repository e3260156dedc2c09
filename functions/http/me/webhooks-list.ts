import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { listWebhooks } from '../../services/webhooks';

/** GET /webhooks (JWT): the caller's endpoints (secrets never), the limit, and an admin's member setting. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await listWebhooks(claims.sub) };
});
