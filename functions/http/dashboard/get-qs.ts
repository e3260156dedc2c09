import { listQuerySchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { listTransfers, transferDetail } from '../../services/transfer-list';

/**
 * GET /getQs (JWT, spec §7): a page of the caller's transfers with the counts, or with `slug`
 * one transfer of theirs in full (the TransferModal); another user's slug answers 403 / 404.
 */
export const handler = httpRoute({ query: listQuerySchema }, async ({ query, claims }) => {
  const sender = await userSender(claims);
  if (query.slug) return { body: await transferDetail(query.slug, sender.userId) };
  return { body: await listTransfers(sender.profile, query) };
});
