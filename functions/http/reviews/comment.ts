import { recipientCommentRequestSchema } from '../../domain/review-api';
import { httpRoute } from '../../lib/http';
import { recipientComment } from '../../services/reviews';
import { viewerOf } from '../downloads/viewer';

/** POST /getDownload/review/comment: a thread on a file, or a reply in one, by a verified address or a visitor. */
export const handler = httpRoute({ body: recipientCommentRequestSchema }, async (req) => ({
  status: 201,
  body: { comment: await recipientComment(req.body.id, viewerOf(req, req.body), req.body) },
}));
