import { addFilesRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { addFiles } from '../../services/transfers';

/** PATCH /transfers/addFiles (JWT, owner): upload plan for new files of a sent transfer. */
export const handler = httpRoute({ body: addFilesRequestSchema }, async ({ body, claims }) => ({
  body: await addFiles(body, await userSender(claims)),
}));
