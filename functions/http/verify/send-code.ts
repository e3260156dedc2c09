import { verifySenderRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { sendSenderCode } from '../../services/sender-verification';

/** POST /verifyEmail: mails a guest sender a 5-digit code (spec §4 Verification). */
export const handler = httpRoute({ body: verifySenderRequestSchema }, async ({ body, sourceIp }) => ({
  status: 202,
  body: await sendSenderCode(body.email, body.lang, sourceIp),
}));
