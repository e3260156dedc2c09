import { SENDER_TOKEN_HEADER, createTransferRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { idempotent } from '../../services/idempotency';
import { requireSenderToken } from '../../services/sender-verification';
import { createTransfer } from '../../services/transfers';

/**
 * POST /transfers: a guest's send, from an address proven by /checkVerifyEmail; anon limits and
 * bucket. Honours Idempotency-Key per verified address.
 */
export const handler = httpRoute({ body: createTransferRequestSchema }, async (req) => {
  const email = await requireSenderToken(req.header(SENDER_TOKEN_HEADER));
  return idempotent(req, `guest#${email}`, async () => ({ status: 201, body: await createTransfer(req.body, { kind: 'guest', email, client: req.sourceIp }) }));
});
