import { createRequestSchema } from '../../domain/requests-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { createRequest } from '../../services/requests';

/** POST /requests (JWT): a new file request; its rules must fit the plan. */
export const handler = httpRoute({ body: createRequestSchema }, async ({ body, claims }) => {
  const user = await userSender(claims);
  return { status: 201, body: await createRequest(user.profile, body) };
});
