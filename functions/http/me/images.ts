import { imageUploadSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { imageUpload } from '../../services/profile';

/** POST /me/images (JWT): presigned PUT for a profile picture or logo (images only, 5 MB). */
export const handler = httpRoute({ body: imageUploadSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await imageUpload(claims.sub, body.kind, body.contentType, body.size) };
});
