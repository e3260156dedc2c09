import * as z from 'zod/mini';
import { fileIdSchema, newVersionRequestSchema, transferIdSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { startNewVersion } from '../../services/file-versions';

/**
 * POST /transfers/{id}/files/{fileId}/versions (JWT, owner): plans a new version of the file
 * and answers like a create (one planned file, a new upload token) for the upload engine.
 */
export const handler = httpRoute(
  { params: z.object({ id: transferIdSchema, fileId: fileIdSchema }), body: newVersionRequestSchema },
  async ({ params, body, claims }) => ({
    status: 201,
    body: await startNewVersion(params.id, params.fileId, body, await userSender(claims)),
  }),
);
