import { useTranslation } from 'react-i18next';
import type { ApiScope } from '@domain/api-key-scopes';

/** A scope's text key: i18next would read the colon of `transfers:read` as a namespace separator. */
export const scopeKey = (scope: ApiScope) => (scope === 'transfers:read' ? 'transfers_read' : scope);

/** A key's creation or last use, in the user's language. */
export function useWhen() {
  const { i18n } = useTranslation();
  return (ms: number) =>
    new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}
