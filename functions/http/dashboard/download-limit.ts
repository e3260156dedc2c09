import * as z from 'zod/mini';
import { setDownloadLimitRequestSchema } from '../../domain/dashboard-api';
import { transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { setDownloadLimit } from '../../services/download-limits';

/**
 * PATCH /transfers/{id}/download-limit (JWT, owner): sets the transfer's download limit (1-100
 * whole downloads), or one recipient's, or removes it (`limit: null`); answers every limit.
 */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema }), body: setDownloadLimitRequestSchema },
  async ({ params, body, claims }) => ({
    body: await setDownloadLimit(params.id, (await userSender(claims)).userId, body),
  }),
);
