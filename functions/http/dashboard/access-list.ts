import { accessListRequestSchema } from '../../domain/recipient-access-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { accessListOf } from '../../services/access-list';

/** POST /transfers/access (JWT, owner): the access list with each address's state and downloads. */
export const handler = httpRoute({ body: accessListRequestSchema }, async ({ body, claims }) => ({
  body: await accessListOf(body.slug, (await userSender(claims)).userId),
}));
