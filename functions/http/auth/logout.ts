import { httpRoute } from '../../lib/http';
import { clearedRefreshCookie, logout, refreshTokenFrom } from '../../services/accounts';

/** GET /logout: ends the session family (refresh cookie and the access tokens it issued) and clears the cookie. */
export const handler = httpRoute({}, async ({ event }) => {
  await logout(refreshTokenFrom(event.cookies));
  return { body: { loggedOut: true }, cookies: [clearedRefreshCookie()] };
});
