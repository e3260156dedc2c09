import { v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { requireOwnedUpload } from '../../services/transfers';
import { completeTransferWhenReady } from '../../services/completion';

/**
 * POST /api/v1/transfers/{id}/complete (API key, send): all files are in; the first call sends
 * it. 202 `completing` (Retry-After) while large files are still put together.
 */
export const handler = keyRoute('send', { params: v1TransferParams }, async ({ params, claims }) =>
  completeTransferWhenReady(await requireOwnedUpload(params.id, String(claims?.sub))),
);
