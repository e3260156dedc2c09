import { brandingImageSchema } from '../../domain/branding-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { brandImageUpload } from '../../services/branding';

/** POST /branding/images (JWT): a presigned PUT for a logo (2 MB) or background (5 MB); checked by its bytes when saved. */
export const handler = httpRoute({ body: brandingImageSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await brandImageUpload(await requireProfile(claims.sub), body.kind, body.contentType, body.size) };
});
