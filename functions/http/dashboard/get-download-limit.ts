import * as z from 'zod/mini';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { downloadLimitsOf } from '../../services/download-limits';

/** GET /transfers/{id}/download-limit (JWT, owner): the transfer's download limits and their use. */
export const handler = httpRoute({ params: z.object({ id: transferIdSchema }) }, async ({ params, claims }) => ({
  body: await downloadLimitsOf(params.id, (await userSender(claims)).userId),
}));
