import { importContactsSchema } from '../../domain/contacts-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { importContacts } from '../../services/contacts';

/** POST /contacts/import (JWT): a CSV file's text; answers what each row did (ContactImportResult). */
export const handler = httpRoute({ body: importContactsSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await importContacts(claims.sub, body.csv) };
});
