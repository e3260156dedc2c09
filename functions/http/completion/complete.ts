import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { idempotent } from '../../services/idempotency';
import { requireUpload } from '../../services/transfers';
import { completeTransferWhenReady } from '../../services/completion';

/**
 * POST /transfers/{id}/complete: all files are in; the first completion sends the transfer
 * (mail). 202 `completing` (Retry-After) while large files are still put together: the transfer
 * is sent as soon as they are, and asking again answers the state.
 * Honours Idempotency-Key per transfer, once its upload token is checked.
 */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async (req) => {
  const transfer = await requireUpload(req.params.id, req.header(UPLOAD_TOKEN_HEADER));
  return idempotent(req, `transfer#${req.params.id}`, () => completeTransferWhenReady(transfer));
});
