import { downloadFileRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { fileDownload } from '../../services/downloads';
import { viewerOf } from './viewer';

/** POST /getDownload/file: a short-lived attachment URL for one file; the download is recorded. */
export const handler = httpRoute({ body: downloadFileRequestSchema }, async (req) => ({
  body: await fileDownload(req.body.id, req.body.fileId, viewerOf(req, req.body)),
}));
