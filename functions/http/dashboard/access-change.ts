import { accessChangeRequestSchema } from '../../domain/recipient-access-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { changeRecipient } from '../../services/access-list';

/** POST /transfers/access/recipient (JWT, owner): remove, revoke, restore, or set one address's expiry. */
export const handler = httpRoute({ body: accessChangeRequestSchema }, async ({ body, claims }) => ({
  body: await changeRecipient(body, (await userSender(claims)).userId),
}));
