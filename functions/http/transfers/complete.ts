import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { idempotent } from '../../services/idempotency';
import { completeTransfer, requireUpload } from '../../services/transfers';

/**
 * POST /transfers/{id}/complete: all files are in; the first call sends the transfer (mail).
 * Honours Idempotency-Key per transfer, once its upload token is checked.
 */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async (req) => {
  const transfer = await requireUpload(req.params.id, req.header(UPLOAD_TOKEN_HEADER));
  return idempotent(req, `transfer#${req.params.id}`, async () => ({ body: await completeTransfer(transfer) }));
});
