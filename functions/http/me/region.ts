import { setRegionSchema } from '../../domain/settings-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { chooseRegion } from '../../services/settings';

/** PATCH /settings/region (JWT, spec §7 { userid, region }): the caller's own default storage region. */
export const handler = httpRoute({ body: setRegionSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await chooseRegion(await requireProfile(claims.sub), body.userid, body.region) };
});
