import { changePasswordRequestSchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { changeTransferPassword } from '../../services/transfer-actions';

/** POST /transfers/password (JWT, owner): sets or (null) removes the download password. */
export const handler = httpRoute({ body: changePasswordRequestSchema }, async ({ body, claims }) => ({
  body: await changeTransferPassword(body, (await userSender(claims)).userId),
}));
