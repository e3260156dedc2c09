import { addCardSchema } from '../../domain/billing-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { payments } from '../../adapters/payments/index';
import { addCard } from '../../services/billing';

/** POST /addCard (JWT, spec §7): the card the SetupIntent confirmed becomes the default. */
export const handler = httpRoute({ body: addCardSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await addCard(payments(), claims.sub, body, Date.now()) };
});
