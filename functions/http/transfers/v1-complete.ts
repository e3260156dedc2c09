import { v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { completeTransfer, requireOwnedUpload } from '../../services/transfers';

/** POST /api/v1/transfers/{id}/complete (API key, send): all files are in; the first call sends it. */
export const handler = keyRoute('send', { params: v1TransferParams }, async ({ params, claims }) => ({
  body: await completeTransfer(await requireOwnedUpload(params.id, String(claims?.sub))),
}));
