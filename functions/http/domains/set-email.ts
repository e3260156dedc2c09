import { domainBodySchema } from '../../domain/domains-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { setEmailDomain } from '../../services/domains';

/** PUT /domains/email (JWT) { domain }: the caller's sender domain, an SES identity with Easy DKIM. */
export const handler = httpRoute({ body: domainBodySchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await setEmailDomain(await requireProfile(claims.sub), body.domain) };
});
