import { signupSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { refreshCookie, signup } from '../../services/accounts';

/** POST /signup2: registration step 3 creates the account and signs in (refresh token as cookie). */
export const handler = httpRoute({ body: signupSchema }, async ({ body }) => {
  const { auth, refreshToken } = await signup(body);
  return { status: 201, body: auth, cookies: [refreshCookie(refreshToken)] };
});
