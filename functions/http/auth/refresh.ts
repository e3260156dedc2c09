import { httpRoute } from '../../lib/http';
import { refreshCookie, refreshSession, refreshTokenFrom } from '../../services/accounts';

/** GET /refreshToken: renews the access token and rotates the refresh cookie's secret. */
export const handler = httpRoute({}, async ({ event }) => {
  const { auth, refreshToken } = await refreshSession(refreshTokenFrom(event.cookies));
  return { body: auth, cookies: [refreshCookie(refreshToken)] };
});
