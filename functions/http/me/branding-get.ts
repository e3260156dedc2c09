import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { ownBranding } from '../../services/branding';

/** GET /branding/me (JWT): the branding the caller's transfers show (the admin's for team members). */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await ownBranding(await requireProfile(claims.sub)) };
});
