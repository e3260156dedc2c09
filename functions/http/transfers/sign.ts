import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, signBodySchema, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requireUpload, signUpload, signUploads } from '../../services/transfers';

/** POST /transfers/{id}/sign: fresh presigned URL(s) for a file or some of its parts, or for up to 100 single files. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema }), body: signBodySchema },
  async ({ params, body, header }) => {
    const t = await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER));
    return { body: 'fileIds' in body ? await signUploads(t, body) : await signUpload(t, body) };
  },
);
