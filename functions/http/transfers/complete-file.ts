import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, fileIdSchema, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { completeFile, requireUpload } from '../../services/transfers';

/** POST /transfers/{id}/files/{fileId}/complete: completes the file's multipart upload and checks its size. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema, fileId: fileIdSchema }) },
  async ({ params, header }) => ({
    body: await completeFile(await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER)), params.fileId),
  }),
);
