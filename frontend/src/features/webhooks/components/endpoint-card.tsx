import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeliveryView, EventType, WebhookEndpointView } from '@domain/webhooks-api';
import { InlineConfirm, useInlineConfirm } from '@/components/inline-confirm';
import { useAction } from '@/lib/use-action';
import { useDeliveries } from '../use-deliveries';
import { deleteWebhook, redeliver, rotateWebhookSecret, sendTestEvent, updateWebhook } from '../webhooks-api';
import { DeliveryLog } from './delivery-log';
import { EndpointActions } from './endpoint-actions';
import { EndpointFacts } from './endpoint-facts';
import { EventChecks } from './event-checks';

export interface EndpointCardProps {
  readonly endpoint: WebhookEndpointView;
  onChanged(e: WebhookEndpointView): void;
  onRemoved(id: string): void;
  onRotated(e: WebhookEndpointView, secret: string): void;
}

/** One endpoint: its settings, actions, last delivery and (on demand) its delivery log. */
export function EndpointCard(props: EndpointCardProps) {
  const { endpoint } = props;
  const { t } = useTranslation('webhooks');
  const ids = useId();
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  const [editing, setEditing] = useState<EventType[] | null>(null);
  const confirm = useInlineConfirm();
  const [logOpen, setLogOpen] = useState(false);
  const { deliveries, reload } = useDeliveries(endpoint.id);

  // every action clears the last note; a test event and a redelivery show in the log at once
  const run = (call: () => Promise<void>) =>
    void action.run(async () => {
      setNote(null);
      await call();
    });
  const changed = async (change: Parameters<typeof updateWebhook>[1]) =>
    props.onChanged((await updateWebhook(endpoint.id, change)).endpoint);
  const saveEvents = (events: EventType[]) => {
    if (events.length === 0) action.setError(t('webhooks.add.noEvents'));
    else
      run(async () => {
        await changed({ events });
        setEditing(null);
      });
  };
  const sent = async (call: Promise<unknown>, text: string) => {
    await call;
    setNote(text);
    reload();
  };
  const again = (d: DeliveryView) => run(() => sent(redeliver(endpoint.id, d.id), t('webhooks.log.redelivered')));

  return (
    <li
      className="card webhooks-endpoint"
      aria-labelledby={`${ids}-url`}
      data-testid="webhook-endpoint"
      data-endpoint-id={endpoint.id}
    >
      <EndpointFacts endpoint={endpoint} deliveries={deliveries} urlId={`${ids}-url`} />
      {editing !== null ? (
        <div className="webhooks-edit">
          <EventChecks
            value={editing}
            onChange={setEditing}
            idPrefix={`${ids}-edit`}
            legend={t('webhooks.list.events')}
          />
          <div className="webhooks-actions">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={action.busy}
              onClick={() => saveEvents(editing)}
              data-testid="webhook-events-save"
            >
              {t('webhooks.actions.save')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(null)}>
              {t('webhooks.actions.cancel')}
            </button>
          </div>
        </div>
      ) : confirm.open ? (
        <InlineConfirm
          className="webhooks-actions webhooks-confirm"
          small
          question={t('webhooks.actions.deleteConfirm', { url: endpoint.url })}
          confirmLabel={t('webhooks.actions.delete')}
          cancelLabel={t('webhooks.actions.keep')}
          busy={action.busy}
          onConfirm={() => {
            confirm.close();
            run(async () => {
              await deleteWebhook(endpoint.id);
              props.onRemoved(endpoint.id);
            });
          }}
          onCancel={confirm.close}
          testId="webhook-delete-confirm"
          confirmTestId="webhook-delete-yes"
          cancelTestId="webhook-delete-keep"
        />
      ) : (
        <EndpointActions
          endpoint={endpoint}
          busy={action.busy}
          onEdit={() => setEditing([...endpoint.events])}
          onToggle={() => run(() => changed({ enabled: !endpoint.enabled }))}
          onTest={() => run(() => sent(sendTestEvent(endpoint.id), t('webhooks.actions.testSent')))}
          onRotate={() =>
            run(async () => {
              const r = await rotateWebhookSecret(endpoint.id);
              props.onRotated(r.endpoint, r.secret);
            })
          }
          onDelete={confirm.ask}
          deleteRef={confirm.triggerRef}
          logOpen={logOpen}
          logId={`${ids}-log`}
          onToggleLog={() => {
            if (!logOpen) reload();
            setLogOpen((open) => !open);
          }}
        />
      )}
      <p className="webhooks-note" role="status" data-testid="webhook-note">
        {note ?? ''}
      </p>
      <p className="dash-error" role="alert" data-testid="webhook-error">
        {action.error ?? ''}
      </p>
      <div id={`${ids}-log`} hidden={!logOpen}>
        {logOpen && deliveries !== null && (
          <DeliveryLog endpoint={endpoint} deliveries={deliveries} onRedeliver={again} busy={action.busy} />
        )}
        {logOpen && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={reload} data-testid="delivery-log-refresh">
            {t('webhooks.log.refresh')}
          </button>
        )}
      </div>
    </li>
  );
}
