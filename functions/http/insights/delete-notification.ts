import { deleteNotificationRequestSchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { deleteNotifications } from '../../services/notifications';

/** POST /deleteNotification (JWT): one of the caller's notifications, 'all', or 'Allread' (the read ones). */
export const handler = httpRoute({ body: deleteNotificationRequestSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await deleteNotifications(claims.sub, body.notifyId) };
});
