import { v1CompleteFileSchema, v1FileParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { requireOwnedUpload } from '../../services/transfers';
import { completeFile } from '../../services/completion';

/**
 * POST /api/v1/transfers/{id}/files/{fileId}/complete (API key, send): completes the file's
 * upload and checks its size; 202 `completing` (Retry-After) while a large file is put together.
 * The body may carry a single PUT's `crc32`.
 */
export const handler = keyRoute(
  'send',
  { params: v1FileParams, body: v1CompleteFileSchema },
  async ({ params, body, claims }) =>
    completeFile(await requireOwnedUpload(params.id, String(claims?.sub)), params.fileId, body ?? {}),
  { rateWindow: 'upload' },
);
