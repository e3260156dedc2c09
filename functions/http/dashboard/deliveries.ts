import { deliveriesParamsSchema } from '../../domain/receipts-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { deliveryRows } from '../../services/receipts';

/** GET /transfers/{id}/deliveries (JWT): the TransferModal's deliveries, each with a receipt; the sender or team admin only. */
export const handler = httpRoute({ params: deliveriesParamsSchema }, async ({ params, claims }) => ({
  body: await deliveryRows(params.id, (await userSender(claims)).userId),
}));
