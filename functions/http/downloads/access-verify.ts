import { accessVerifyRequestSchema } from '../../domain/recipient-access-api';
import { httpRoute } from '../../lib/http';
import { openLink } from '../../services/downloads';
import { verifyRecipientCode } from '../../services/recipient-access';
import { viewerOf } from './viewer';

/** POST /getDownload/access/verify: a right code opens a session for this transfer and address. */
export const handler = httpRoute({ body: accessVerifyRequestSchema }, async (req) => {
  const t = await openLink(req.body.id, viewerOf(req, req.body));
  return { body: await verifyRecipientCode(t, req.body.email, req.body.code, req.body.recipient, req.sourceIp) };
});
