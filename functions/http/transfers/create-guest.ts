import { SENDER_TOKEN_HEADER, createTransferRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { sendBodyInvalid } from '../../services/draft-error';
import { idempotent } from '../../services/idempotency';
import { requireSenderToken } from '../../services/sender-verification';
import { createTransfer } from '../../services/transfers';

/**
 * POST /transfers: a guest's send, from an address proven by /checkVerifyEmail; anon limits and
 * bucket. Honours Idempotency-Key per verified address. The sender token is checked before the
 * body, as an API key is: a caller without one learns nothing about the schema.
 */
export const handler = httpRoute(
  { body: createTransferRequestSchema },
  async (req) => {
    const email = String(req.claims?.email);
    return idempotent(req, `guest#${email}`, async () => ({
      status: 201,
      body: await createTransfer(req.body, { kind: 'guest', email, client: req.sourceIp }, 'app'),
    }));
  },
  {
    authorize: async (event) => ({ email: await requireSenderToken(event.headers?.[SENDER_TOKEN_HEADER]) }),
    invalid: sendBodyInvalid,
  },
);
