import { webhookSettingsSchema } from '../../domain/webhooks-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { setMembersAllowed } from '../../services/webhooks';

/** PATCH /webhooks/settings (JWT, not a team member): may the caller's team members use webhooks? */
export const handler = httpRoute({ body: webhookSettingsSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await setMembersAllowed(claims.sub, body.membersAllowed) };
});
