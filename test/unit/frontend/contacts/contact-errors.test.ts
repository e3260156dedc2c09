import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contactErrorOf } from '@/features/contacts/contact-errors';
import contactsEn from '@/i18n/locales/contacts/en.json';

const at = (tree: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

/** The codes functions/services/contacts.ts throws (read from its source, so a new one is not missed). */
const thrown = [
  ...readFileSync(new URL('../../../../functions/services/contacts.ts', import.meta.url), 'utf8').matchAll(
    /\b(?:badRequest|conflict|notFound|payloadTooLarge)\(\s*'([a-z_]+)'/gu,
  ),
].map((m) => m[1]!);

describe('the contacts screen says every refusal of the contacts API in its own words', () => {
  it('finds the codes it checks', () => {
    expect(thrown).toEqual(
      expect.arrayContaining(['contact_exists', 'contact_not_found', 'contacts_full', 'csv_too_large', 'csv_empty']),
    );
  });

  it.each(thrown)('%s has a text in the contacts catalogue', (code) => {
    const text = contactErrorOf({ code });
    expect(text.ns).toBe('contacts');
    expect(typeof at(contactsEn, text.key), text.key).toBe('string');
  });

  it('leaves other codes to the app table, with their values', () => {
    expect(contactErrorOf({ code: 'rate_limited', details: { retryAfterSeconds: 120 } })).toEqual({
      ns: 'app',
      key: 'errors.rateLimited',
      params: { count: 2 },
    });
    expect(contactErrorOf({ code: 'invalid_request', details: { issues: [{ code: 'invalid_email' }] } })).toEqual({
      ns: 'app',
      key: 'auth.errors.invalidEmail',
    });
    expect(contactErrorOf(new Error('offline'))).toEqual({ ns: 'app', key: 'errors.generic' });
  });
});
