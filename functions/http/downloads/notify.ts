import { notifyCompleteRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { watchTransfer } from '../../services/downloads';
import { viewerOf } from './viewer';

/** POST /getDownload/notify: "Mail me when it's complete" on a transfer still uploading. */
export const handler = httpRoute({ body: notifyCompleteRequestSchema }, async (req) => {
  await watchTransfer(req.body.id, viewerOf(req, req.body), req.body.email, req.body.lang);
  return { status: 202, body: { watching: true } };
});
