import { requestIdParamsSchema, updateRequestSchema } from '../../domain/requests-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { updateRequest } from '../../services/requests';

/** PATCH /requests/{id} (JWT, owner): close, reopen or edit. */
export const handler = httpRoute(
  { params: requestIdParamsSchema, body: updateRequestSchema },
  async ({ params, body, claims }) => {
    const user = await userSender(claims);
    return { body: await updateRequest(user.profile, params.id, body) };
  },
);
