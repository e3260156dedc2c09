import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { domainSettings } from '../../services/domains';

/** GET /domains (JWT): the caller's custom link domain and sender email domain. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await domainSettings(await requireProfile(claims.sub)) };
});
