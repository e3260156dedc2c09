import { brandingUpdateSchema } from '../../domain/branding-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { changeBranding } from '../../services/branding';

/** PATCH /branding/me (JWT): the caller's own branding only; team members 403 team_member_forbidden. */
export const handler = httpRoute({ body: brandingUpdateSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await changeBranding(await requireProfile(claims.sub), body) };
});
