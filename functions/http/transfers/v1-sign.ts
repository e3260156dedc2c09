import { v1SignSchema, v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { requireOwnedUpload, signUpload, signUploads } from '../../services/transfers';

/** POST /api/v1/transfers/{id}/sign (API key, send): fresh presigned URLs for a file or its parts, or for up to 100 single files. */
export const handler = keyRoute(
  'send',
  { params: v1TransferParams, body: v1SignSchema },
  async ({ params, body, claims }) => {
    const t = await requireOwnedUpload(params.id, String(claims?.sub));
    return { body: 'fileIds' in body ? await signUploads(t, body) : await signUpload(t, body) };
  },
  { rateWindow: 'upload' },
);
