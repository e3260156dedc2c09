import { reviewCodeRequestSchema } from '../../domain/review-api';
import { httpRoute } from '../../lib/http';
import { openReviewLink, sendReviewCode } from '../../services/reviews';
import { viewerOf } from '../downloads/viewer';

/** POST /getDownload/review/code: a 5-digit code mailed to the address, so the reviewer writes as it. */
export const handler = httpRoute({ body: reviewCodeRequestSchema }, async (req) => {
  const t = await openReviewLink(req.body.id, viewerOf(req, req.body));
  return {
    status: 202,
    body: await sendReviewCode(t, req.body.email, req.body.recipient, req.body.lang, req.sourceIp),
  };
});
