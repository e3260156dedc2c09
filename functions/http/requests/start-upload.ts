import { requestIdParamsSchema, startRequestUploadSchema } from '../../domain/requests-api';
import { SENDER_TOKEN_HEADER } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { requireSenderToken } from '../../services/sender-verification';
import { startUpload } from '../../services/requests';

/** POST /r/{id}/uploads (public, x-sender-token of the visitor's verified address): starts an upload to the request. */
export const handler = httpRoute({ params: requestIdParamsSchema, body: startRequestUploadSchema }, async ({ params, body, header, sourceIp }) => {
  const email = await requireSenderToken(header(SENDER_TOKEN_HEADER));
  return { status: 201, body: await startUpload(params.id, email, sourceIp, body) };
});
