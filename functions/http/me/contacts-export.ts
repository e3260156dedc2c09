import { CONTACTS_CSV_FILENAME } from '../../domain/contacts-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { exportContacts } from '../../services/contacts';

/** GET /contacts/export (JWT): the caller's contacts as a CSV download. */
export const handler = httpRoute({}, async ({ claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return {
    text: await exportContacts(claims.sub),
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${CONTACTS_CSV_FILENAME}"`,
    },
  };
});
