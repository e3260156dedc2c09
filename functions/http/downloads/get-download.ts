import { getDownloadRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { downloadView } from '../../services/downloads';
import { viewerOf } from './viewer';

/** POST /getDownload: the download page's data, or 401 / 404 / 410 with the spec's texts. */
export const handler = httpRoute({ body: getDownloadRequestSchema }, async (req) => ({
  body: await downloadView(req.body.id, viewerOf(req, req.body)),
}));
