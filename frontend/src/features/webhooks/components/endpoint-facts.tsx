import { useTranslation } from 'react-i18next';
import type { DeliveryView, WebhookEndpointView } from '@domain/webhooks-api';
import { useWhen } from '../use-when';
import { ResponseText } from './response-text';
import { StatusBadge } from './status-badge';

/** An endpoint's heading and facts: URL, state, events, last delivery, secret hint. */
export function EndpointFacts({
  endpoint,
  deliveries,
  urlId,
}: {
  endpoint: WebhookEndpointView;
  deliveries: readonly DeliveryView[] | null;
  urlId: string;
}) {
  const { t } = useTranslation('webhooks');
  const when = useWhen();
  const last = deliveries?.[0];
  return (
    <>
      <h3 className="webhooks-endpoint-head">
        <code id={urlId} data-testid="webhook-endpoint-url">
          {endpoint.url}
        </code>
        <span
          className={`webhooks-badge ${endpoint.enabled ? 'webhooks-badge-delivered' : 'webhooks-badge-off'}`}
          data-testid="webhook-endpoint-state"
          data-enabled={String(endpoint.enabled)}
        >
          {endpoint.enabled ? t('webhooks.list.enabled') : t('webhooks.list.disabled')}
        </span>
      </h3>
      {endpoint.description && <p className="muted">{endpoint.description}</p>}
      <dl className="webhooks-facts">
        <dt>{t('webhooks.list.events')}</dt>
        <dd data-testid="webhook-endpoint-events">
          {endpoint.events.map((e) => (
            <code key={e} className="webhooks-event-tag">
              {e}
            </code>
          ))}
        </dd>
        <dt>{t('webhooks.list.lastDelivery')}</dt>
        <dd data-testid="webhook-last-delivery">
          {last ? (
            <>
              <StatusBadge status={last.status} /> <ResponseText delivery={last} />{' '}
              <span className="muted">{when(last.createdAt)}</span>
            </>
          ) : deliveries ? (
            t('webhooks.list.noDeliveries')
          ) : (
            '…'
          )}
        </dd>
        <dt>{t('webhooks.list.secret')}</dt>
        <dd className="muted">
          <code>{endpoint.secretHint}</code>
          {endpoint.previousSecretExpiresAt !== undefined && (
            <> ({t('webhooks.list.graceUntil', { time: when(endpoint.previousSecretExpiresAt) })})</>
          )}
        </dd>
      </dl>
    </>
  );
}
