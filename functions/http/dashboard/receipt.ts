import { receiptParamsSchema } from '../../domain/receipts-api';
import { receiptFileName } from '../../domain/receipt-format';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { receiptForOwner } from '../../services/receipts';

/**
 * GET /transfers/{id}/deliveries/{deliveryId}/receipt (JWT): the delivery's signed receipt file
 * (JSON, an attachment); the transfer's sender or team admin only, others 403 / 404.
 */
export const handler = httpRoute({ params: receiptParamsSchema }, async ({ params, claims }) => {
  const doc = await receiptForOwner(params.id, params.deliveryId, (await userSender(claims)).userId);
  return {
    text: `${JSON.stringify(doc, null, 2)}\n`,
    headers: { 'content-disposition': `attachment; filename="${receiptFileName(doc.receipt, 'json')}"` },
  };
});
