import { resetLinkSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { sendResetLink } from '../../services/accounts';

/** POST /resetPasswordLink: always the spec's neutral answer. */
export const handler = httpRoute({ body: resetLinkSchema }, async ({ body, sourceIp }) => ({
  status: 202,
  body: await sendResetLink(body.email, body.lang, sourceIp),
}));
