import { requestIdParamsSchema, startRequestUploadSchema } from '../../domain/requests-api';
import { SENDER_TOKEN_HEADER } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { idempotent } from '../../services/idempotency';
import { requireSenderToken } from '../../services/sender-verification';
import { startUpload } from '../../services/requests';

/**
 * POST /r/{id}/uploads (public, x-sender-token of the visitor's verified address): starts an
 * upload to the request. Honours Idempotency-Key per verified address.
 */
export const handler = httpRoute({ params: requestIdParamsSchema, body: startRequestUploadSchema }, async (req) => {
  const email = await requireSenderToken(req.header(SENDER_TOKEN_HEADER));
  return idempotent(req, `guest#${email}`, async () => ({
    status: 201,
    body: await startUpload(req.params.id, email, req.sourceIp, req.body),
  }));
});
