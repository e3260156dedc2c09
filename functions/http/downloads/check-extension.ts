import { checkExtensionRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { approveExtension } from '../../services/downloads';

/** POST /checkExtension: the sender's approve link; 200 with the new expiry, else 410 'Link expired'. */
export const handler = httpRoute({ body: checkExtensionRequestSchema }, async ({ body }) => ({
  body: await approveExtension(body.token),
}));
