import { listRequestsQuerySchema } from '../../domain/requests-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { listRequests, requestDetail } from '../../services/requests';

/**
 * GET /requests (JWT, spec §7): `?userid=` the caller's requests (another user's id: 403), or
 * `?slug=` one of the caller's requests with its uploads (someone else's: 404).
 */
export const handler = httpRoute({ query: listRequestsQuerySchema }, async ({ query, claims }) => {
  const user = await userSender(claims);
  if (query.slug !== undefined) return { body: await requestDetail(user.userId, query.slug) };
  return { body: await listRequests(user.userId, query.userid) };
});
