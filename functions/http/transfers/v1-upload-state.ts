import { v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { requireOwnedUpload } from '../../services/transfers';
import { uploadState } from '../../services/completion';

/** GET /api/v1/transfers/{id}/upload-state (API key, send): what a resuming client still has to upload. */
export const handler = keyRoute(
  'send',
  { params: v1TransferParams },
  async ({ params, claims }) => ({
    body: await uploadState(await requireOwnedUpload(params.id, String(claims?.sub))),
  }),
  { rateWindow: 'upload' },
);
