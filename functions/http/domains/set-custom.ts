import { domainBodySchema } from '../../domain/domains-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { setCustomDomain } from '../../services/domains';

/** PUT /domains/custom (JWT) { domain }: claims the caller's custom link domain. */
export const handler = httpRoute({ body: domainBodySchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await setCustomDomain(await requireProfile(claims.sub), body.domain) };
});
