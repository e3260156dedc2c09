import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { checkEmailDomainNow } from '../../services/domains';

/** POST /domains/email/check (JWT): the sender domain's DKIM status now (the page polls it). */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await checkEmailDomainNow(await requireProfile(claims.sub)) };
});
