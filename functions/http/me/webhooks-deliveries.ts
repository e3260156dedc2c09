import { webhookIdParamsSchema } from '../../domain/webhooks-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { listEndpointDeliveries } from '../../services/webhooks';

/** GET /webhooks/{id}/deliveries (JWT): the endpoint's delivery log, newest first. */
export const handler = httpRoute({ params: webhookIdParamsSchema }, async ({ params, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await listEndpointDeliveries(claims.sub, params.id) };
});
