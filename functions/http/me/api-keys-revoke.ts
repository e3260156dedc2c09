import { apiKeyIdSchema } from '../../domain/api-keys';
import * as z from 'zod/mini';
import { httpRoute } from '../../lib/http';
import { revokeKey } from '../../services/api-keys';
import { userSender } from '../../services/identity';

/** DELETE /me/api-keys/{id} (JWT, owner): the key is refused from the next request on. */
export const handler = httpRoute({ params: z.object({ id: apiKeyIdSchema }) }, async ({ params, claims }) => {
  await revokeKey((await userSender(claims)).userId, params.id);
  return { body: { revoked: true } };
});
