import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { removeEmailDomain } from '../../services/domains';

/** DELETE /domains/email (JWT): deletes the identity; transfer mail goes from the product's address again. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await removeEmailDomain(await requireProfile(claims.sub)) };
});
