import { deliveryParamsSchema } from '../../domain/webhooks-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { redeliver } from '../../services/webhooks';

/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver (JWT): the same event (same id) sent again now. */
export const handler = httpRoute({ params: deliveryParamsSchema }, async ({ params, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { status: 202, body: await redeliver(claims.sub, params.id, params.deliveryId) };
});
