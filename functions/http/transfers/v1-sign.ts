import { v1SignSchema, v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { requireOwnedUpload, signUpload } from '../../services/transfers';

/** POST /api/v1/transfers/{id}/sign (API key, send): fresh presigned URLs for a file or its parts. */
export const handler = keyRoute('send', { params: v1TransferParams, body: v1SignSchema }, async ({ params, body, claims }) => ({
  body: await signUpload(await requireOwnedUpload(params.id, String(claims?.sub)), body),
}), { rateWindow: 'upload' });
