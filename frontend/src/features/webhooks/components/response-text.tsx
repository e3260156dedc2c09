import { useTranslation } from 'react-i18next';
import type { DeliveryView } from '@domain/webhooks-api';
import { lastResponseOf } from '@/shared/webhooks/delivery-format';

/** The latest attempt's answer: the HTTP status, or why none came. */
export function ResponseText({ delivery }: { delivery: DeliveryView }) {
  const { t } = useTranslation('webhooks');
  const r = lastResponseOf(delivery);
  if (r.kind === 'status') return <span data-testid="delivery-response">{r.status}</span>;
  if (r.kind === 'error') return <span data-testid="delivery-response">{r.error || t('webhooks.log.noAnswer')}</span>;
  return <span data-testid="delivery-response">–</span>;
}
