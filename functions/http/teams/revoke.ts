import { inviteIdParamsSchema } from '../../domain/teams-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { revokeInvite } from '../../services/teams';

/** DELETE /teams/invites/{id} (JWT, the inviting admin): the seat comes back, the link stops working. */
export const handler = httpRoute({ params: inviteIdParamsSchema }, async ({ params, claims }) => {
  const user = await userSender(claims);
  return { body: await revokeInvite(user.profile, params.id) };
});
