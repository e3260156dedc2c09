import { receiptCheckBodySchema } from '../../domain/receipts-api';
import { httpRoute } from '../../lib/http';
import { checkReceiptOnline } from '../../services/receipts';

/**
 * POST /receipts/check (public) `{ jws }`: `{ valid, kid, recorded }`, or `{ valid: false, code }`
 * for a receipt this deployment did not sign as it is. Anyone holding a receipt may ask.
 */
export const handler = httpRoute({ body: receiptCheckBodySchema }, async ({ body }) => ({
  body: await checkReceiptOnline(body.jws),
}));
