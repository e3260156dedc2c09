import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** A moment as a date and time in the user's language. */
export function useWhen() {
  const { i18n } = useTranslation();
  return useCallback(
    (ms: number) =>
      new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'medium' }).format(ms),
    [i18n.resolvedLanguage],
  );
}
