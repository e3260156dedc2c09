import { useTranslation } from 'react-i18next';
import { useCopy } from '@/lib/use-copy';

export function CopyButton({ value }: { value: string }) {
  const { t } = useTranslation('webhooks');
  const { copied, copy } = useCopy();
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm"
      onClick={() => void copy(value)}
      data-testid="webhook-secret-copy"
    >
      {copied ? t('webhooks.secret.copied') : t('webhooks.secret.copy')}
    </button>
  );
}
