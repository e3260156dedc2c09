import * as z from 'zod/mini';
import { commentIdSchema, resolveRequestSchema } from '../../domain/review-api';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { resolveThread } from '../../services/reviews';

/** POST /transfers/{id}/review/threads/{commentId} (JWT, owner): resolve or re-open a thread. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema, commentId: commentIdSchema }), body: resolveRequestSchema },
  async ({ params, body, claims }) => ({
    body: {
      comment: await resolveThread(params.id, (await userSender(claims)).userId, params.commentId, body.resolved),
    },
  }),
);
