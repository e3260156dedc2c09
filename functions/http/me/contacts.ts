import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { contactsOf } from '../../services/profile';

/** POST /quicksend2 (JWT): the user's contacts, offered as recipient suggestions. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: { contacts: await contactsOf(claims.sub) } };
});
