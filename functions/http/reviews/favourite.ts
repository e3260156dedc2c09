import { favouriteRequestSchema } from '../../domain/review-api';
import { httpRoute } from '../../lib/http';
import { recipientFavourite } from '../../services/reviews';
import { viewerOf } from '../downloads/viewer';

/** POST /getDownload/review/favourite: the reviewer's own favourite, set or taken back. */
export const handler = httpRoute({ body: favouriteRequestSchema }, async (req) => ({
  body: await recipientFavourite(req.body.id, viewerOf(req, req.body), req.body),
}));
