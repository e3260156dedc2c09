import { webhookIdParamsSchema } from '../../domain/webhooks-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { sendTestEvent } from '../../services/webhooks';

/** POST /webhooks/{id}/test (JWT): a `ping` event to this endpoint. */
export const handler = httpRoute({ params: webhookIdParamsSchema }, async ({ params, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { status: 202, body: await sendTestEvent(claims.sub, params.id) };
});
