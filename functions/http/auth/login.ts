import { loginRequestSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { login, refreshCookie } from '../../services/accounts';

/** POST /combinedAuth: access token and user in the body, refresh token only as an httpOnly cookie. */
export const handler = httpRoute({ body: loginRequestSchema }, async ({ body, sourceIp }) => {
  const { auth, refreshToken } = await login(body.email, body.password, sourceIp);
  return { body: auth, cookies: [refreshCookie(refreshToken)] };
});
