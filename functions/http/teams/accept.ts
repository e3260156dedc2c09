import { acceptInviteSchema } from '../../domain/teams-api';
import { httpRoute } from '../../lib/http';
import { refreshCookie } from '../../services/accounts';
import { acceptInvite } from '../../services/teams';

/** PATCH /v1/teams (spec §7): the invitee joins with name and password and is signed in like /combinedAuth (refresh token as cookie). */
export const handler = httpRoute({ body: acceptInviteSchema }, async ({ body }) => {
  const { auth, refreshToken } = await acceptInvite(body);
  return { status: 201, body: auth, cookies: [refreshCookie(refreshToken)] };
});
