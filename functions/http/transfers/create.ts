import { createTransferRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { createTransfer } from '../../services/transfers';

/** POST /me/transfers (JWT): a signed-in user's send, link or email, with their plan's limits. */
export const handler = httpRoute({ body: createTransferRequestSchema }, async ({ body, claims }) => ({
  status: 201,
  body: await createTransfer(body, await userSender(claims)),
}));
