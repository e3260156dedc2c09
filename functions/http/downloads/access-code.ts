import { accessCodeRequestSchema } from '../../domain/recipient-access-api';
import { httpRoute } from '../../lib/http';
import { openLink } from '../../services/downloads';
import { sendRecipientCode } from '../../services/recipient-access';
import { viewerOf } from './viewer';

/** POST /getDownload/access/code: a verified transfer's code, mailed to an address allowed to download. */
export const handler = httpRoute({ body: accessCodeRequestSchema }, async (req) => {
  const t = await openLink(req.body.id, viewerOf(req, req.body));
  const sent = await sendRecipientCode(t, req.body.email, req.body.recipient, req.body.lang, req.sourceIp);
  return { status: 202, body: sent };
});
