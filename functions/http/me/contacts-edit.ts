import { editContactSchema } from '../../domain/contacts-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { editContact } from '../../services/contacts';

/** PATCH /contacts (JWT): name, company or the address of one of the caller's contacts. */
export const handler = httpRoute({ body: editContactSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: { contact: await editContact(claims.sub, body) } };
});
