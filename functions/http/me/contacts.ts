import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { contactSuggestions } from '../../services/contacts';

/** POST /quicksend2 (JWT): the user's contacts, offered as recipient suggestions (most recently sent to first). */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: { contacts: await contactSuggestions(claims.sub) } };
});
