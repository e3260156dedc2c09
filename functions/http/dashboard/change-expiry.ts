import { changeExpiryRequestSchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { changeTransferExpiry } from '../../services/transfer-actions';

/** POST /transfers/expiry (JWT, owner): a new expiry within the plan's presets, or a custom date. */
export const handler = httpRoute({ body: changeExpiryRequestSchema }, async ({ body, claims }) => ({
  body: await changeTransferExpiry(body, await userSender(claims)),
}));
