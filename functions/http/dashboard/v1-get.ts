import { v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { transferDetail } from '../../services/transfer-list';

/** GET /api/v1/transfers/{id} (API key, transfers:read): one transfer with its files, recipients and downloads. */
export const handler = keyRoute('transfers:read', { params: v1TransferParams }, async ({ params, claims }) => ({
  body: await transferDetail(params.id, String(claims?.sub)),
}));
