import * as z from 'zod/mini';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { markRead } from '../../services/reviews';

/** POST /transfers/{id}/review/read (JWT, owner): every comment so far counts as seen (the unread count is 0). */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async ({ params, claims }) => {
  await markRead(params.id, (await userSender(claims)).userId);
  return { status: 204 };
});
