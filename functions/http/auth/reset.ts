import { resetPasswordSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { resetPassword } from '../../services/accounts';

/** POST /resetPassword: sets the new password and consumes the link. */
export const handler = httpRoute({ body: resetPasswordSchema }, async ({ body }) => {
  await resetPassword(body.token, body.password);
  return { body: { reset: true } };
});
