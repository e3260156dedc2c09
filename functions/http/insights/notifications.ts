import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { notificationsOf } from '../../services/notifications';

/** POST /notifications (JWT): the caller's newest notifications and the unread count (body unused). */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await notificationsOf(claims.sub) };
});
