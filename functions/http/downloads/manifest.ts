import { manifestRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { downloadManifest } from '../../services/downloads';
import { viewerOf } from './viewer';

/** POST /getDownload/manifest: each file's path, size and SHA-256 (null while still computed). */
export const handler = httpRoute({ body: manifestRequestSchema }, async (req) => ({
  body: await downloadManifest(req.body.id, viewerOf(req, req.body)),
}));
