import { reviewVerifyRequestSchema } from '../../domain/review-api';
import { httpRoute } from '../../lib/http';
import { openReviewLink, verifyReviewCode } from '../../services/reviews';
import { viewerOf } from '../downloads/viewer';

/** POST /getDownload/review/verify: a right code opens a recipient session (the download page's too). */
export const handler = httpRoute({ body: reviewVerifyRequestSchema }, async (req) => {
  const t = await openReviewLink(req.body.id, viewerOf(req, req.body));
  return { body: await verifyReviewCode(t, req.body.email, req.body.code, req.body.recipient, req.sourceIp) };
});
