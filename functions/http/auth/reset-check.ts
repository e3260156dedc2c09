import { resetTokenSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { checkResetToken } from '../../services/accounts';

/** POST /passTokenCheck: 202 when the reset link can still be used (spec §7). */
export const handler = httpRoute({ body: resetTokenSchema }, async ({ body }) => {
  await checkResetToken(body.token);
  return { status: 202, body: { valid: true } };
});
