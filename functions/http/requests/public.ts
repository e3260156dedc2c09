import { requestIdParamsSchema } from '../../domain/requests-api';
import { httpRoute } from '../../lib/http';
import { publicRequest } from '../../services/requests';

/** GET /r/{id} (public): the request page's title, message, requester name and logo, due date and rules. */
export const handler = httpRoute({ params: requestIdParamsSchema }, async ({ params }) => ({
  body: await publicRequest(params.id),
}));
