import { readNotificationRequestSchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { readNotification } from '../../services/notifications';

/** POST /notifications/read (JWT): marks one of the caller's notifications read; 404 for any other id. */
export const handler = httpRoute({ body: readNotificationRequestSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await readNotification(claims.sub, body.notifyId) };
});
