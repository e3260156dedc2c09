import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';

/**
 * GET /me/claims (auth: jwt): the verified identity the authorizer attached to this request.
 * The app uses it to confirm a session; tests use it to prove the JWT path end to end.
 */
export const handler = httpRoute({}, async ({ claims }) => {
  if (!claims?.sub) throw unauthorized();
  return {
    body: {
      sub: claims.sub,
      username: claims.username ?? claims['cognito:username'],
      clientId: claims.client_id,
      tokenUse: claims.token_use,
      expiresAt: Number(claims.exp) * 1000,
    },
  };
});
