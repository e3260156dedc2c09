import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requireUpload } from '../../services/transfers';
import { uploadState } from '../../services/completion';

/** GET /transfers/{id}/upload-state: which files and parts are done, for resuming within 7 days. */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async ({ params, header }) => ({
  body: await uploadState(await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER))),
}));
