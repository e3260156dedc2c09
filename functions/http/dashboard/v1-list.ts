import { v1ListTransfersQuery } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { userSender } from '../../services/identity';
import { listTransfers } from '../../services/transfer-list';

/** GET /api/v1/transfers (API key, transfers:read): a page of the key's user's transfers (the dashboard's list). */
export const handler = keyRoute('transfers:read', { query: v1ListTransfersQuery }, async ({ query, claims }) => {
  const sender = await userSender(claims);
  return { body: await listTransfers(sender.profile, query) };
});
