import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EventType, WebhookEndpointView, WebhookListResponse } from '@domain/webhooks-api';
import { useAction } from '@/lib/use-action';
import { createWebhook } from '../webhooks-api';
import { EventChecks } from './event-checks';

export function AddForm({
  list,
  onCreated,
}: {
  list: WebhookListResponse;
  onCreated: (endpoint: WebhookEndpointView, secret: string) => void;
}) {
  const { t } = useTranslation('webhooks');
  const ids = useId();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>(['transfer.created', 'transfer.downloaded']);
  const action = useAction();
  const full = list.endpoints.length >= list.max;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (events.length === 0) {
      action.setError(t('webhooks.add.noEvents'));
      return;
    }
    void action.run(async () => {
      const created = await createWebhook(url.trim(), events, description.trim() || undefined);
      setUrl('');
      setDescription('');
      onCreated(created.endpoint, created.secret);
    });
  };

  return (
    <section className="card" aria-labelledby={`${ids}-h`} data-testid="webhook-add">
      <h2 id={`${ids}-h`}>{t('webhooks.add.title')}</h2>
      {full ? (
        <p data-testid="webhook-full">{t('webhooks.add.full', { max: list.max })}</p>
      ) : (
        <form onSubmit={submit} noValidate>
          <div className="dash-field">
            <label htmlFor={`${ids}-url`} className="dash-label">
              {t('webhooks.add.url')}
            </label>
            <input
              id={`${ids}-url`}
              className="dash-input"
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://example.com/sendbridge"
              aria-describedby={`${ids}-url-hint`}
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              data-testid="webhook-url"
            />
            <p id={`${ids}-url-hint`} className="dash-hint">
              {list.localMode ? t('webhooks.add.urlHintLocal') : t('webhooks.add.urlHint')}
            </p>
          </div>
          <div className="dash-field">
            <label htmlFor={`${ids}-desc`} className="dash-label">
              {t('webhooks.add.description')}
            </label>
            <input
              id={`${ids}-desc`}
              className="dash-input"
              type="text"
              maxLength={200}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              data-testid="webhook-description"
            />
          </div>
          <EventChecks value={events} onChange={setEvents} idPrefix={`${ids}-ev`} legend={t('webhooks.add.events')} />
          <button
            type="submit"
            className="btn btn-primary"
            disabled={action.busy || !url.trim()}
            data-testid="webhook-add-submit"
          >
            {action.busy ? t('webhooks.add.adding') : t('webhooks.add.submit')}
          </button>
        </form>
      )}
      <p className="dash-error" role="alert" data-testid="webhook-add-error">
        {action.error ?? ''}
      </p>
    </section>
  );
}
