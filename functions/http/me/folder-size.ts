import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { requireProfile } from '../../services/accounts';
import { folderSize } from '../../services/profile';

/** POST /folderSize (JWT): storage used and allowed (the team admin's for members). */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await folderSize(await requireProfile(claims.sub)) };
});
