import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, signRequestSchema, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requireUpload, signUpload } from '../../services/transfers';

/** POST /transfers/{id}/sign: fresh presigned URL(s) for a file or some of its parts. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema }), body: signRequestSchema },
  async ({ params, body, header }) => ({ body: await signUpload(await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER)), body) }),
);
