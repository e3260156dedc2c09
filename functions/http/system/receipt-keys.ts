import { httpRoute } from '../../lib/http';
import { publishedKeys } from '../../services/receipts';

/**
 * GET /receipts/keys (public): the JWKS receipts are signed with, every key id ever used, so a
 * receipt signed before a rotation still verifies. Cached briefly: a rotation shows within it.
 */
export const handler = httpRoute({}, async () => ({
  body: await publishedKeys(),
  headers: { 'cache-control': 'public, max-age=300', 'content-type': 'application/jwk-set+json' },
}));
