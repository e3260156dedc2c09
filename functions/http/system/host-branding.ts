import { hostQuerySchema } from '../../domain/branding-api';
import { httpRoute } from '../../lib/http';
import { hostBranding } from '../../services/branding';

/** GET /branding?host= (public): a verified custom domain's logo and colours for its login page; 404 otherwise. */
export const handler = httpRoute({ query: hostQuerySchema }, async ({ query }) => ({
  body: await hostBranding(query.host),
  // Briefly cached: the logo URLs inside live 10 minutes.
  headers: { 'cache-control': 'public, max-age=60' },
}));
