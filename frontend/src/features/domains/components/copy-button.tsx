import { useTranslation } from 'react-i18next';
import { useCopy } from '@/lib/use-copy';

export function CopyButton({ value, what }: { value: string; what: string }) {
  const { t } = useTranslation('domains');
  const { copied, copy } = useCopy();
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm"
      onClick={() => void copy(value)}
      aria-label={t('domains.records.copy', { what })}
    >
      {copied ? t('domains.records.copied') : t('domains.records.copy', { what: '' }).trim()}
    </button>
  );
}
