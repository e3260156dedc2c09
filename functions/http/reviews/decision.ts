import { decisionRequestSchema } from '../../domain/review-api';
import { httpRoute } from '../../lib/http';
import { recipientDecision } from '../../services/reviews';
import { viewerOf } from '../downloads/viewer';

/** POST /getDownload/review/decision: approve a file or the whole transfer, or ask for changes. */
export const handler = httpRoute({ body: decisionRequestSchema }, async (req) => ({
  body: { decision: await recipientDecision(req.body.id, viewerOf(req, req.body), req.body) },
}));
