import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorTextOf } from '@/i18n/error-keys';

/** A failed teams call in the visitor's language, from its stable code (teams codes read `account`'s teamErrors). */
export function useTeamErrorText(): (err: unknown) => string {
  const { t } = useTranslation();
  return useCallback(
    (err: unknown) => {
      const text = errorTextOf(err);
      return String(t(text.key, text.params ?? {}));
    },
    [t],
  );
}
