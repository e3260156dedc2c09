import * as z from 'zod/mini';
import {
  UPLOAD_TOKEN_HEADER,
  completeFileRequestSchema,
  fileIdSchema,
  transferIdSchema,
} from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requireUpload } from '../../services/transfers';
import { completeFile } from '../../services/completion';

/**
 * POST /transfers/{id}/files/{fileId}/complete: completes the file's multipart upload and checks
 * its size: 200 `complete`, or 202 `completing` (Retry-After) while a large file is put together
 * in the background. Asking again is always safe. The body may carry a single PUT's `crc32`.
 */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema, fileId: fileIdSchema }), body: completeFileRequestSchema },
  async ({ params, body, header }) =>
    completeFile(await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER)), params.fileId, body ?? {}),
);
