import { useTranslation } from 'react-i18next';
import { errorTextOf } from '@/i18n/error-keys';

export function LoadFailed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const text = errorTextOf(error);
  return (
    <div className="tr-notice tr-notice-error" role="alert">
      <span>
        {t('modal.loadFailed')} {tApp(text.key, text.params)}
      </span>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onRetry}>
        {t('list.retry')}
      </button>
    </div>
  );
}
