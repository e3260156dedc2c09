import { createWebhookSchema } from '../../domain/webhooks-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { createWebhook } from '../../services/webhooks';

/** POST /webhooks (JWT): a new endpoint; its signing secret is in this answer only. */
export const handler = httpRoute({ body: createWebhookSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { status: 201, body: await createWebhook(claims.sub, body) };
});
