import { useTranslation } from 'react-i18next';
import { CUSTOM_DATE_MARKER } from '@domain/expiry';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';
import { expiryKey } from '@/shared/send-form/labels';
import type { SendForm } from '@/shared/send-form/send-state';

/** Footer text: 'Expires in 1 Week', or the custom date in the reader's language. */
export function useExpirySummary(form: SendForm, language: string): string {
  const { t } = useTranslation();
  if (form.expirySeconds !== CUSTOM_DATE_MARKER)
    return t('send.summary.expiresIn', { period: t(`send.expiry.${expiryKey(form.expirySeconds)}`) });
  if (form.customExpiryDate === null) return t('send.summary.pickDate');
  const date = new Intl.DateTimeFormat(LANGUAGE_TAGS[toLanguage(language)], {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(form.customExpiryDate);
  return t('send.summary.expiresOn', { date });
}
