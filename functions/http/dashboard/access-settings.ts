import { accessSettingsRequestSchema } from '../../domain/recipient-access-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { changeAccessSettings } from '../../services/access-list';

/** POST /transfers/access/settings (JWT, owner): verified recipients on or off, and the allowed domain. */
export const handler = httpRoute({ body: accessSettingsRequestSchema }, async ({ body, claims }) => ({
  body: await changeAccessSettings(body, (await userSender(claims)).userId),
}));
