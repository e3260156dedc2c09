import { createApiKeySchema } from '../../domain/api-keys';
import { httpRoute } from '../../lib/http';
import { createKey } from '../../services/api-keys';
import { userSender } from '../../services/identity';

/** POST /me/api-keys (JWT): a new named, scoped key; the whole key is in this answer only. */
export const handler = httpRoute({ body: createApiKeySchema }, async ({ body, claims }) => ({
  status: 201,
  body: await createKey((await userSender(claims)).profile, body),
}));
