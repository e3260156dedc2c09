import { v1CreateTransferSchema } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { userSender } from '../../services/identity';
import { createTransfer } from '../../services/transfers';

/**
 * POST /api/v1/transfers (API key, scope send): the app's send (the same body schema and
 * services/transfers.ts createTransfer, the key's user and plan; `sendAs` left out is a link).
 * The answer is the upload plan without the browser's upload token: with the API, the key
 * itself authorises the upload routes.
 */
export const handler = keyRoute('send', { body: v1CreateTransferSchema }, async ({ body, claims }) => {
  const { uploadToken: _token, ...plan } = await createTransfer(body, await userSender(claims), 'api');
  return { status: 201, body: plan };
});
