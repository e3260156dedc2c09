import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, fileIdSchema, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requireFile, requireUpload } from '../../services/transfers';
import { completeSealedThumbnail } from '../../services/sealed-thumbnails';

/** POST /transfers/{id}/files/{fileId}/thumbnail/complete: the sealed thumbnail arrived; the previews serve it. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema, fileId: fileIdSchema }) },
  async ({ params, header }) => {
    const t = await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER));
    return { body: await completeSealedThumbnail(t, await requireFile(t, params.fileId)) };
  },
);
