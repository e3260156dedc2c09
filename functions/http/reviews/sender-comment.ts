import * as z from 'zod/mini';
import { senderCommentRequestSchema } from '../../domain/review-api';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { senderComment } from '../../services/reviews';

/** POST /transfers/{id}/review/comments (JWT, owner): the sender's reply in a thread, or a thread of their own. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema }), body: senderCommentRequestSchema },
  async ({ params, body, claims }) => ({
    status: 201,
    body: { comment: await senderComment(params.id, (await userSender(claims)).userId, body) },
  }),
);
