import { addContactSchema } from '../../domain/contacts-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { addContact } from '../../services/contacts';

/** POST /contacts (JWT): a new contact; 409 when the address (in any case) is one already. */
export const handler = httpRoute({ body: addContactSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { status: 201, body: { contact: await addContact(claims.sub, body) } };
});
