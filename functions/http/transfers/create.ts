import { createTransferRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { sendBodyInvalid } from '../../services/draft-error';
import { idempotent } from '../../services/idempotency';
import { userSender } from '../../services/identity';
import { createTransfer } from '../../services/transfers';

/**
 * POST /me/transfers (JWT): a signed-in user's send, link or email, with their plan's limits.
 * Honours Idempotency-Key per user: a retried create answers the first transfer.
 */
export const handler = httpRoute(
  { body: createTransferRequestSchema },
  async (req) => {
    const sender = await userSender(req.claims);
    return idempotent(req, `user#${sender.userId}`, async () => ({
      status: 201,
      body: await createTransfer(req.body, sender, 'app'),
    }));
  },
  { invalid: sendBodyInvalid },
);
