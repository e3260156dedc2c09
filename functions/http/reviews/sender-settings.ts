import * as z from 'zod/mini';
import { reviewSettingsRequestSchema } from '../../domain/review-api';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { changeReviewSettings } from '../../services/reviews';

/** PATCH /transfers/{id}/review (JWT, owner): turn the review on or off, close or re-open it. */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema }), body: reviewSettingsRequestSchema },
  async ({ params, body, claims }) => ({
    body: await changeReviewSettings(params.id, (await userSender(claims)).userId, body),
  }),
);
