import * as z from 'zod/mini';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { modalPreviews } from '../../services/previews';

/** GET /transfers/{id}/previews (JWT; issue 16): the TransferModal's previews, for its sender, admin or a team mate it is shared with. */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async ({ params, claims }) => ({
  body: await modalPreviews(params.id, (await userSender(claims)).userId),
}));
