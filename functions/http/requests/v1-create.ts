import { v1CreateRequestSchema } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { userSender } from '../../services/identity';
import { createRequest } from '../../services/requests';

/** POST /api/v1/requests (API key, requests): a new file request; its rules must fit the plan. */
export const handler = keyRoute('requests', { body: v1CreateRequestSchema }, async ({ body, claims }) => {
  const user = await userSender(claims);
  return { status: 201, body: await createRequest(user.profile, body) };
});
