import { emailSendRequestSchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { resendTransfer } from '../../services/transfer-actions';

/** POST /transfers/emailSend (JWT, owner): the transfer's mail again, to all or some of its recipients. */
export const handler = httpRoute({ body: emailSendRequestSchema }, async ({ body, claims }) => ({
  body: await resendTransfer(body, (await userSender(claims)).userId),
}));
