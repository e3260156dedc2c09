import { recipientReviewRequestSchema } from '../../domain/review-api';
import { httpRoute } from '../../lib/http';
import { recipientReview } from '../../services/reviews';
import { viewerOf } from '../downloads/viewer';

/** POST /getDownload/review: the review as a recipient sees it, behind the download page's gate. */
export const handler = httpRoute({ body: recipientReviewRequestSchema }, async (req) => ({
  body: await recipientReview(req.body.id, viewerOf(req, req.body), req.body.visitorId),
}));
