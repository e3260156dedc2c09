import { forwardRequestSchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { forwardTransfer } from '../../services/transfer-actions';

/** POST /transfers/forward (JWT, owner): the transfer copied server-side under a new slug, to new recipients. */
export const handler = httpRoute({ body: forwardRequestSchema }, async ({ body, claims }) => ({
  status: 201,
  body: await forwardTransfer(body, await userSender(claims)),
}));
