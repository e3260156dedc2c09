import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, fileIdSchema, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requireFile, requireUpload } from '../../services/transfers';
import { signSealedThumbnail } from '../../services/sealed-thumbnails';

/** POST /transfers/{id}/files/{fileId}/thumbnail: a presigned PUT for an encrypted file's sealed thumbnail. */
export const handler = httpRoute(
  {
    params: z.object({ id: transferIdSchema, fileId: fileIdSchema }),
    body: z.object({ size: z.number().check(z.int(), z.positive()) }),
  },
  async ({ params, body, header }) => {
    const t = await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER));
    return { body: await signSealedThumbnail(t, await requireFile(t, params.fileId), body.size) };
  },
);
