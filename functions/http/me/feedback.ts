import { feedbackRequestSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { saveFeedback } from '../../services/profile';

/** POST /feedback (JWT): the feedback widget's message, rating, route and role. */
export const handler = httpRoute({ body: feedbackRequestSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  await saveFeedback(await requireProfile(claims.sub), body);
  return { status: 201, body: { saved: true } };
});
