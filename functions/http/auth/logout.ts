import { httpRoute } from '../../lib/http';
import { clearedRefreshCookie, logout, refreshTokenFrom } from '../../services/accounts';

/** GET /logout: revokes the refresh token and clears its cookie. */
export const handler = httpRoute({}, async ({ event }) => {
  await logout(refreshTokenFrom(event.cookies));
  return { body: { loggedOut: true }, cookies: [clearedRefreshCookie()] };
});
