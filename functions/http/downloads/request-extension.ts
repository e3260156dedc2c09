import { extensionRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requestExtension } from '../../services/downloads';

/** POST /extension/request: a recipient of an expired transfer asks the sender for 48 more hours. */
export const handler = httpRoute({ body: extensionRequestSchema }, async ({ body, sourceIp }) => {
  await requestExtension(body.id, body.email, body.lang, sourceIp);
  return { status: 202, body: { requested: true } };
});
