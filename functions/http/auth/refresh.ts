import { httpRoute } from '../../lib/http';
import { refreshSession, refreshTokenFrom } from '../../services/accounts';

/** GET /refreshToken: renews the access token from the refresh cookie. */
export const handler = httpRoute({}, async ({ event }) => ({ body: await refreshSession(refreshTokenFrom(event.cookies)) }));
