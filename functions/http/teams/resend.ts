import { inviteIdParamsSchema, resendInviteSchema } from '../../domain/teams-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { resendInvite } from '../../services/teams';

/** POST /teams/invites/{id}/resend (JWT, the inviting admin): a new link; the old one stops working. */
export const handler = httpRoute(
  { params: inviteIdParamsSchema, body: resendInviteSchema },
  async ({ params, body, claims }) => {
    const user = await userSender(claims);
    return { body: await resendInvite(user.profile, params.id, body.lang) };
  },
);
