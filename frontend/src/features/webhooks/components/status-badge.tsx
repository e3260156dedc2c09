import { useTranslation } from 'react-i18next';
import type { DeliveryView } from '@domain/webhooks-api';

export function StatusBadge({ status }: { status: DeliveryView['status'] }) {
  const { t } = useTranslation('webhooks');
  return (
    <span className={`webhooks-badge webhooks-badge-${status}`} data-status={status}>
      {t(`webhooks.status.${status}`)}
    </span>
  );
}
