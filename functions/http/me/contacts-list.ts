import { listContactsQuerySchema } from '../../domain/contacts-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { listContacts } from '../../services/contacts';

/** GET /contacts?q= (JWT): the caller's contacts by name, or those matching `q`. */
export const handler = httpRoute({ query: listContactsQuerySchema }, async ({ query, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await listContacts(claims.sub, query.q || undefined) };
});
