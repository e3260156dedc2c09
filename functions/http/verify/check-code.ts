import { checkSenderRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { checkSenderCode } from '../../services/sender-verification';

/** POST /checkVerifyEmail: a right code answers a sender token; a wrong one 403 (spec §8). */
export const handler = httpRoute({ body: checkSenderRequestSchema }, async ({ body, sourceIp }) => ({
  body: await checkSenderCode(body.email, body.code, sourceIp),
}));
