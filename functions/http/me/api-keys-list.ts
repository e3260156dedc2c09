import { httpRoute } from '../../lib/http';
import { listKeys } from '../../services/api-keys';
import { userSender } from '../../services/identity';

/** GET /me/api-keys (JWT): the caller's API keys (never their secrets) and whether keys are allowed. */
export const handler = httpRoute({}, async ({ claims }) => ({
  body: await listKeys((await userSender(claims)).profile),
}));
