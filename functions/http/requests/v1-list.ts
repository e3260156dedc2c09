import { keyRoute } from '../../services/api-keys';
import { userSender } from '../../services/identity';
import { listRequests } from '../../services/requests';

/** GET /api/v1/requests (API key, requests): the key's user's file requests. */
export const handler = keyRoute('requests', {}, async ({ claims }) => {
  const user = await userSender(claims);
  return { body: await listRequests(user.userId, user.userId) };
});
