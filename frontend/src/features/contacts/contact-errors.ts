/**
 * The contacts API's refusals in the screen's own words (the lazy `contacts` catalogue);
 * other codes read through the app's table (i18n/error-keys.ts).
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { errorTextOf, type ErrorKey, type ErrorText } from '@/i18n/error-keys';

type ContactsKey = ParseKeys<'contacts'>;

const CONTACT_KEYS: Readonly<Record<string, ContactsKey>> = {
  contact_exists: 'problems.exists',
  contact_not_found: 'problems.notFound',
  contacts_full: 'problems.full',
  csv_too_large: 'problems.csvTooLarge',
  csv_too_many_rows: 'problems.csvTooManyRows',
  csv_empty: 'problems.csvEmpty',
  csv_no_email_column: 'problems.csvNoEmailColumn',
  csv_unterminated: 'problems.csvUnterminated',
  // the JSON body around a file is capped at 1 MB
  body_too_large: 'problems.csvTooLarge',
};

export type ContactErrorText =
  | { readonly ns: 'contacts'; readonly key: ContactsKey }
  | { readonly ns: 'app'; readonly key: ErrorKey; readonly params?: ErrorText['params'] };

/** A refusal as a key of the `contacts` namespace, or of the app's catalogue. */
export function contactErrorOf(err: unknown): ContactErrorText {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && Object.hasOwn(CONTACT_KEYS, code))
    return { ns: 'contacts', key: CONTACT_KEYS[code]! };
  const text = errorTextOf(err);
  return { ns: 'app', key: text.key, ...(text.params ? { params: text.params } : {}) };
}

/** The translated text of a failed contacts call. */
export function useContactErrorText(): (err: unknown) => string {
  const { t } = useTranslation('contacts');
  const { t: tApp } = useTranslation();
  return useCallback(
    (err: unknown) => {
      const e = contactErrorOf(err);
      return e.ns === 'contacts' ? t(e.key) : String(tApp(e.key, e.params ?? {}));
    },
    [t, tApp],
  );
}
