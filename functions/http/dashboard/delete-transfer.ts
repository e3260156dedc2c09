import { deleteTransferRequestSchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { deleteTransfer } from '../../services/transfers';

/** POST /deleteTransfer { slug } (JWT, owner; spec §7): files deleted, storage released, the link then answers 404. */
export const handler = httpRoute({ body: deleteTransferRequestSchema }, async ({ body, claims }) => {
  await deleteTransfer(body.slug, (await userSender(claims)).userId);
  return { body: { deleted: true } };
});
