import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { removeCustomDomain } from '../../services/domains';

/** DELETE /domains/custom (JWT): releases the caller's custom domain; links return to the product's. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await removeCustomDomain(await requireProfile(claims.sub)) };
});
