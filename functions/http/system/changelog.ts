import { httpRoute } from '../../lib/http';
import { CHANGELOG_MAX_AGE_SECONDS, changelog } from '../../services/changelog';

/** GET /canny/changelog (public): changelog entries, newest first, cacheable for five minutes. */
export const handler = httpRoute({}, async () => ({
  body: changelog(),
  headers: { 'cache-control': `public, max-age=${CHANGELOG_MAX_AGE_SECONDS}` },
}));
