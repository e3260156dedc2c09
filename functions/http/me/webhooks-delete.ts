import { webhookIdParamsSchema } from '../../domain/webhooks-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { deleteWebhook } from '../../services/webhooks';

/** DELETE /webhooks/{id} (JWT): removes one of the caller's endpoints. */
export const handler = httpRoute({ params: webhookIdParamsSchema }, async ({ params, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await deleteWebhook(claims.sub, params.id) };
});
