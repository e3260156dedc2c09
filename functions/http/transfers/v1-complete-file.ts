import { v1FileParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { completeFile, requireOwnedUpload } from '../../services/transfers';

/** POST /api/v1/transfers/{id}/files/{fileId}/complete (API key, send): completes the file's upload and checks its size. */
export const handler = keyRoute(
  'send',
  { params: v1FileParams },
  async ({ params, claims }) => ({
    body: await completeFile(await requireOwnedUpload(params.id, String(claims?.sub)), params.fileId),
  }),
  { rateWindow: 'upload' },
);
