import { SENDER_TOKEN_HEADER, createTransferRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requireSenderToken } from '../../services/sender-verification';
import { createTransfer } from '../../services/transfers';

/** POST /transfers: a guest's send, from an address proven by /checkVerifyEmail; anon limits and bucket. */
export const handler = httpRoute({ body: createTransferRequestSchema }, async ({ body, header, sourceIp }) => {
  const email = await requireSenderToken(header(SENDER_TOKEN_HEADER));
  return { status: 201, body: await createTransfer(body, { kind: 'guest', email, client: sourceIp }) };
});
