import { downloadPreviewsRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { downloadPreviews } from '../../services/previews';
import { viewerOf } from './viewer';

/**
 * POST /getDownload/previews: inline URLs (600 s) and thumbnails of the files, for whoever may
 * download them now: 401 before unlocking, 404 / 410 as the download page. Previews are not
 * downloads: nothing is recorded or mailed. One page of files; `cursor` asks for the next.
 */
export const handler = httpRoute({ body: downloadPreviewsRequestSchema }, async (req) => ({
  body: await downloadPreviews(req.body.id, viewerOf(req, req.body), Date.now(), req.body.cursor),
}));
