import { createInviteSchema } from '../../domain/teams-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { invite } from '../../services/teams';

/** POST /teams/invites (JWT, admin): takes a seat of the plan and mails the invite link. */
export const handler = httpRoute({ body: createInviteSchema }, async ({ body, claims }) => {
  const user = await userSender(claims);
  return { status: 201, body: await invite(user.profile, body.email, body.lang) };
});
