import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { checkCustomDomainNow } from '../../services/domains';

/** POST /domains/custom/check (JWT): "Check now", the claim's DNS records looked up at once. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await checkCustomDomainNow(await requireProfile(claims.sub)) };
});
