import { v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { deleteTransfer } from '../../services/transfers';

/** DELETE /api/v1/transfers/{id} (API key, send): the app's delete; the link then answers 404. */
export const handler = keyRoute('send', { params: v1TransferParams }, async ({ params, claims }) => {
  await deleteTransfer(params.id, String(claims?.sub));
  return { body: { deleted: true } };
});
