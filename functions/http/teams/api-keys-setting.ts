import { teamApiKeysSettingSchema } from '../../domain/api-keys';
import { httpRoute } from '../../lib/http';
import { setMembersAllowed } from '../../services/api-keys';
import { userSender } from '../../services/identity';

/** PUT /teams/api-keys (JWT, the team admin): whether the team's members may use API keys (default off). */
export const handler = httpRoute({ body: teamApiKeysSettingSchema }, async ({ body, claims }) => ({
  body: await setMembersAllowed((await userSender(claims)).profile, body.membersAllowed),
}));
