import * as z from 'zod/mini';
import { previewsCursorSchema, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { modalPreviews } from '../../services/previews';

/**
 * GET /transfers/{id}/previews[?cursor=] (JWT): the TransferModal's previews, for its sender, admin
 * or a team mate it is shared with; one page of files, `nextCursor` asks for the next.
 */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema }), query: z.object({ cursor: previewsCursorSchema }) },
  async ({ params, query, claims }) => ({
    body: await modalPreviews(params.id, (await userSender(claims)).userId, Date.now(), query.cursor),
  }),
);
