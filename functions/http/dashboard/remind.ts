import { remindRequestSchema } from '../../domain/dashboard-api';
import { httpRoute } from '../../lib/http';
import { userSender } from '../../services/identity';
import { remindRecipients } from '../../services/transfer-actions';

/** POST /transfers/remind (JWT, owner): a reminder to the recipients who have not downloaded yet. */
export const handler = httpRoute({ body: remindRequestSchema }, async ({ body, claims }) => ({
  body: await remindRecipients(body.slug, (await userSender(claims)).userId),
}));
