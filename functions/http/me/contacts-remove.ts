import { removeContactSchema } from '../../domain/contacts-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { removeContact } from '../../services/contacts';

/** POST /contacts/remove (JWT): removes one of the caller's contacts by its address (any case). */
export const handler = httpRoute({ body: removeContactSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  await removeContact(claims.sub, body.email);
  return { body: { removed: true } };
});
