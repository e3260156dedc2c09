import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { Fetcher } from 'aws-jwt-verify/https';

/** JWKS over plain http: cognito-local serves it on loopback (aws-jwt-verify insists on https by default). */
const httpFetcher: Fetcher = {
  async fetch(uri) {
    const res = await fetch(uri, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`JWKS fetch ${uri} answered ${res.status}`);
    return res.arrayBuffer();
  },
};

/**
 * Verifies Cognito access tokens the way the HTTP API JWT authorizer does: RS256 signature
 * against the pool's JWKS, issuer, expiry, `token_use` = access and `client_id` = the app client.
 * Returns the claims as strings, as the authorizer hands them to the integration.
 */
export function createJwtCheck(opts: { issuer: string; clientId: string }) {
  const verifier = JwtRsaVerifier.create(
    {
      issuer: opts.issuer,
      audience: null,
      jwksUri: `${opts.issuer}/.well-known/jwks.json`,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'access') throw new Error('not an access token');
        if (payload.client_id !== opts.clientId) throw new Error('token was issued to another client');
      },
    },
    { jwksCache: new SimpleJwksCache({ fetcher: httpFetcher }) },
  );
  return async function check(authorization: string | undefined): Promise<Record<string, string> | undefined> {
    const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1] ?? authorization;
    if (!token) return undefined;
    try {
      const payload = await verifier.verify(token);
      return Object.fromEntries(
        Object.entries(payload).map(([k, v]) => [k, Array.isArray(v) ? `[${v.join(' ')}]` : String(v)]),
      );
    } catch {
      return undefined;
    }
  };
}
