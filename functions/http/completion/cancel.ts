import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { cancelUpload, requireUpload } from '../../services/transfers';

/** POST /transfers/{id}/cancel: 'Cancel this transfer?' Yes: aborts the upload and deletes what arrived. */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async ({ params, header }) => {
  await cancelUpload(await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER)));
  return { body: { cancelled: true } };
});
