import { zipRequestSchema } from '../../domain/transfer-api';
import { httpRoute } from '../../lib/http';
import { zipDownload } from '../../services/downloads';
import { viewerOf } from './viewer';

/** POST /zip: 200 with the ZIP's URL once built, else 202 while the zip-build job runs. */
export const handler = httpRoute({ body: zipRequestSchema }, async (req) => {
  const { status, body } = await zipDownload(req.body.id, viewerOf(req, req.body));
  return { status, body };
});
