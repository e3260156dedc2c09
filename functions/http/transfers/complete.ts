import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { completeTransfer, requireUpload } from '../../services/transfers';

/** POST /transfers/{id}/complete: all files are in; the first call sends the transfer (mail). */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async ({ params, header }) => ({
  body: await completeTransfer(await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER))),
}));
