import { openApiDocument } from '../../domain/openapi';
import { httpRoute } from '../../lib/http';
import { config } from '../../lib/env';

/** GET /api/v1/openapi.json (public): the OpenAPI 3.1 document of the public API, generated from the route table. */
export const handler = httpRoute({}, async () => ({
  body: openApiDocument(`${config().appOrigin}/api`),
  headers: { 'cache-control': 'public, max-age=300' },
}));
