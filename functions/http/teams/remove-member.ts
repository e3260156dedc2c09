import { memberIdParamsSchema } from '../../domain/teams-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { removeMember } from '../../services/teams';

/** DELETE /teams/members/{id} (JWT, the member's admin): detached to a free account; transfers stay with the admin. */
export const handler = httpRoute({ params: memberIdParamsSchema }, async ({ params, claims }) => {
  const user = await userSender(claims);
  return { body: await removeMember(user.profile, params.id) };
});
