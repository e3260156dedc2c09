import { rotateWebhookSchema, webhookIdParamsSchema } from '../../domain/webhooks-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { rotateSecret } from '../../services/webhooks';

/** POST /webhooks/{id}/rotate (JWT): a new secret (shown once); the old one signs too during the grace period. */
export const handler = httpRoute({ params: webhookIdParamsSchema, body: rotateWebhookSchema }, async ({ params, body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await rotateSecret(claims.sub, params.id, body.graceHours) };
});
