import * as z from 'zod/mini';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { deleteTransfer } from '../../services/transfers';

/** DELETE /transfers/{id} (JWT, owner): deletes the files; the link then answers 404. */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async ({ params, claims }) => {
  await deleteTransfer(params.id, (await userSender(claims)).userId);
  return { body: { deleted: true } };
});
