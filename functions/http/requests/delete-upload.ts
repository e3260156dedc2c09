import { requestUploadParamsSchema } from '../../domain/requests-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { deleteUpload } from '../../services/requests';

/** DELETE /requests/{id}/uploads/{slug} (JWT, owner): one upload's files go and its storage comes back. */
export const handler = httpRoute({ params: requestUploadParamsSchema }, async ({ params, claims }) => {
  const user = await userSender(claims);
  await deleteUpload(user.userId, params.id, params.slug);
  return { body: { deleted: true } };
});
