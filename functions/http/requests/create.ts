import { createRequestSchema } from '../../domain/requests-api';
import { httpRoute } from '../../lib/http';
import { idempotent } from '../../services/idempotency';
import { userSender } from '../../services/identity';
import { createRequest } from '../../services/requests';

/** POST /requests (JWT): a new file request; its rules must fit the plan. Honours Idempotency-Key per user. */
export const handler = httpRoute({ body: createRequestSchema }, async (req) => {
  const user = await userSender(req.claims);
  return idempotent(req, `user#${user.userId}`, async () => ({
    status: 201,
    body: await createRequest(user.profile, req.body),
  }));
});
