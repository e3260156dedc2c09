import * as z from 'zod/mini';
import { UPLOAD_TOKEN_HEADER, recordPartRequestSchema, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { recordPart, requireUpload } from '../../services/transfers';

/** POST /transfers/{id}/parts: records a finished part (number, ETag, size) for resume and completion. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema }), body: recordPartRequestSchema },
  async ({ params, body, header }) => {
    await recordPart(await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER)), body);
    return { body: { recorded: true } };
  },
);
