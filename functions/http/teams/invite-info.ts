import { inviteTokenParamsSchema } from '../../domain/teams-api';
import { httpRoute } from '../../lib/http';
import { inviteInfo } from '../../services/teams';

/** GET /invite/{id} (public, the mailed link's token): the invited address, the admin's name and company, the state. */
export const handler = httpRoute({ params: inviteTokenParamsSchema }, async ({ params }) => ({
  body: await inviteInfo(params.id),
}));
