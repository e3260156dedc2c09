import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { teamView } from '../../services/teams';

/** GET /teams (JWT): the admin's members, pending invites and seats; a member's team mates (read only). */
export const handler = httpRoute({}, async ({ claims }) => {
  const user = await userSender(claims);
  return { body: await teamView(user.profile) };
});
