import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile, sessionUser } from '../../services/accounts';

/** GET /me (JWT): the signed-in user with usage and limits. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await sessionUser(await requireProfile(claims.sub)) };
});
