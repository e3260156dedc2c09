import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

/** '21 November 2026 at 06:25' in the visitor's language and time zone. */
export function formatDateTime(epochMs: number, language: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[toLanguage(language)], { dateStyle: 'long', timeStyle: 'short' }).format(
    new Date(epochMs),
  );
}
