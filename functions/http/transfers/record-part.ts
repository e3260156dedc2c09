import * as z from 'zod/mini';
import {
  UPLOAD_TOKEN_HEADER,
  partsOfRecordBody,
  recordPartBodySchema,
  transferIdSchema,
} from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { recordParts, requireUpload } from '../../services/transfers';

/** POST /transfers/{id}/parts: records finished parts (number, ETag, size, CRC-32) for resume and completion. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema }), body: recordPartBodySchema },
  async ({ params, body, header }) => {
    await recordParts(await requireUpload(params.id, header(UPLOAD_TOKEN_HEADER)), partsOfRecordBody(body));
    return { body: { recorded: true } };
  },
);
