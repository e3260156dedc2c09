import { updateWebhookSchema, webhookIdParamsSchema } from '../../domain/webhooks-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { updateWebhook } from '../../services/webhooks';

/** PATCH /webhooks/{id} (JWT): url, event types, description, enabled; the id names only the caller's own. */
export const handler = httpRoute({ params: webhookIdParamsSchema, body: updateWebhookSchema }, async ({ params, body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await updateWebhook(claims.sub, params.id, body) };
});
