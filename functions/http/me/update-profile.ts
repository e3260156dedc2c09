import { updateProfileSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { updateOwnProfile } from '../../services/profile';

/** POST /v1/updateProfile (JWT): only the caller's own profile; pictures must be their uploads. */
export const handler = httpRoute({ body: updateProfileSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await updateOwnProfile(claims.sub, body) };
});
