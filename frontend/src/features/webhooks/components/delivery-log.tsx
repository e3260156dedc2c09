import { useTranslation } from 'react-i18next';
import type { DeliveryView, WebhookEndpointView } from '@domain/webhooks-api';
import { DataTable } from '@/components/table-head';
import { nextRetryOf } from '@/shared/webhooks/delivery-format';
import { useWhen } from '../use-when';
import { ResponseText } from './response-text';
import { StatusBadge } from './status-badge';

export function DeliveryLog({
  endpoint,
  deliveries,
  onRedeliver,
  busy,
}: {
  endpoint: WebhookEndpointView;
  deliveries: readonly DeliveryView[];
  onRedeliver: (d: DeliveryView) => void;
  busy: boolean;
}) {
  const { t } = useTranslation('webhooks');
  const when = useWhen();
  if (deliveries.length === 0)
    return (
      <p className="muted" data-testid="delivery-log-empty">
        {t('webhooks.log.empty')}
      </p>
    );
  return (
    <DataTable
      wrapClassName="webhooks-log-wrap"
      className="webhooks-log"
      testId="delivery-log"
      caption={<caption>{t('webhooks.log.caption', { url: endpoint.url })}</caption>}
      columns={[
        t('webhooks.log.event'),
        t('webhooks.log.eventId'),
        t('webhooks.log.time'),
        t('webhooks.list.state'),
        t('webhooks.log.attempts'),
        t('webhooks.log.response'),
        t('webhooks.log.nextRetry'),
        t('webhooks.log.action'),
      ]}
    >
      {deliveries.map((d) => {
        const next = nextRetryOf(d);
        return (
          <tr
            key={d.id}
            data-testid="delivery-row"
            data-delivery-id={d.id}
            data-event-id={d.eventId}
            data-status={d.status}
          >
            <td>
              <code>{d.eventType}</code>
              {d.redeliveryOf && <span className="muted"> ({t('webhooks.log.redeliveryOf')})</span>}
            </td>
            <td>
              <code data-testid="delivery-event-id">{d.eventId}</code>
            </td>
            <td>{when(d.createdAt)}</td>
            <td>
              <StatusBadge status={d.status} />
            </td>
            <td data-testid="delivery-attempts">{d.attempts.length}</td>
            <td>
              <ResponseText delivery={d} />
            </td>
            <td>{next !== undefined ? when(next) : '–'}</td>
            <td>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={busy}
                onClick={() => onRedeliver(d)}
                aria-label={t('webhooks.log.redeliverLabel', { id: d.eventId })}
                data-testid="delivery-redeliver"
              >
                {t('webhooks.log.redeliver')}
              </button>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
