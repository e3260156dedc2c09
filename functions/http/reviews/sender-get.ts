import * as z from 'zod/mini';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { senderReview } from '../../services/reviews';

/** GET /transfers/{id}/review (JWT, owner): threads, decisions, favourites; read only once the transfer expired. */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async ({ params, claims }) => ({
  body: await senderReview(params.id, (await userSender(claims)).userId),
}));
