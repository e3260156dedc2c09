import { accessAddRequestSchema } from '../../domain/recipient-access-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { addRecipients } from '../../services/access-list';

/** POST /transfers/access/add (JWT, owner): new addresses on the access list, each mailed its link. */
export const handler = httpRoute({ body: accessAddRequestSchema }, async ({ body, claims }) => ({
  body: await addRecipients(body, (await userSender(claims)).userId),
}));
