import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeliveryView, EventType, WebhookEndpointView, WebhookListResponse } from '@domain/webhooks-api';
import { InlineConfirm, useInlineConfirm } from '@/components/inline-confirm';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { TableHead } from '@/components/table-head';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';
import { useSession } from '@/lib/session/session-provider';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { SUBSCRIBABLE_EVENTS, anyPending, eventTextKey, lastResponseOf, nextRetryOf } from '@/shared/webhooks/delivery-format';
import { VERIFY_SNIPPET } from '../verify-snippet';
import {
  DELIVERY_POLL_MS,
  createWebhook,
  deleteWebhook,
  fetchDeliveries,
  fetchWebhooks,
  redeliver,
  rotateWebhookSecret,
  saveWebhookSettings,
  sendTestEvent,
  updateWebhook,
} from '../webhooks-api';
import '../webhooks.css';

/** A secret to show once: after creating an endpoint, or after rotating its secret. */
type Revealed = { kind: 'created' | 'rotated'; url: string; secret: string; graceUntil?: number };

const VERIFY_ID = 'webhooks-verify';

/** A team member whose admin has not allowed webhooks: said once, no Retry. */
const isMemberRefusal = (err: unknown) => err instanceof ApiError && err.code === 'team_member_forbidden';

/** An error in the user's language (codes through i18n/error-keys.ts). */
function useErrorText() {
  const { t } = useTranslation();
  return useCallback(
    (err: unknown) => {
      const text = errorTextOf(err);
      return t(text.key, text.params);
    },
    [t],
  );
}

function useWhen() {
  const { i18n } = useTranslation();
  return useCallback((ms: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'medium' }).format(ms), [i18n.resolvedLanguage]);
}

function CopyButton({ value }: { value: string }) {
  const { t } = useTranslation('webhooks');
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard refused (permissions): the secret stays selectable.
    }
  };
  return (
    <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()} data-testid="webhook-secret-copy">
      {copied ? t('webhooks.secret.copied') : t('webhooks.secret.copy')}
    </button>
  );
}

/** The secret, shown once, with the rotation's grace and the way to verify deliveries. */
function SecretPanel({ revealed, onDone }: { revealed: Revealed; onDone: () => void }) {
  const { t } = useTranslation('webhooks');
  const when = useWhen();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = useId();
  useEffect(() => headingRef.current?.focus(), [revealed]);
  return (
    <section className="card webhooks-secret" aria-labelledby={`${ids}-h`} data-testid="webhook-secret-panel">
      <h2 id={`${ids}-h`} ref={headingRef} tabIndex={-1}>
        {revealed.kind === 'created' ? t('webhooks.secret.createdTitle') : t('webhooks.secret.rotatedTitle')}
      </h2>
      <p className="muted">
        <code>{revealed.url}</code>
      </p>
      <p className="webhooks-secret-row">
        <code className="webhooks-secret-value" data-testid="webhook-secret">
          {revealed.secret}
        </code>
        <CopyButton value={revealed.secret} />
      </p>
      <p>
        <strong>{t('webhooks.secret.once')}</strong>
      </p>
      {revealed.graceUntil !== undefined && <p data-testid="webhook-secret-grace">{t('webhooks.secret.grace', { time: when(revealed.graceUntil) })}</p>}
      <p>
        {t('webhooks.secret.verifyHint')} <a href={`#${VERIFY_ID}`}>{t('webhooks.secret.verifyLink')}</a>
      </p>
      <button type="button" className="btn btn-primary btn-sm" onClick={onDone} data-testid="webhook-secret-done">
        {t('webhooks.secret.done')}
      </button>
    </section>
  );
}

/** One checkbox per event type. */
function EventChecks({ value, onChange, idPrefix, legend }: { value: readonly EventType[]; onChange: (events: EventType[]) => void; idPrefix: string; legend: string }) {
  const { t } = useTranslation('webhooks');
  return (
    <fieldset className="webhooks-events">
      <legend className="dash-label">{legend}</legend>
      {SUBSCRIBABLE_EVENTS.map((type) => (
        <div className="webhooks-check" key={type}>
          <input
            id={`${idPrefix}-${type}`}
            type="checkbox"
            checked={value.includes(type)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...value, type] : value.filter((v) => v !== type))}
            data-testid={`webhook-event-${type}`}
          />
          <label htmlFor={`${idPrefix}-${type}`}>
            <code>{type}</code> <span className="muted">{t(`webhooks.events.${eventTextKey(type)}`)}</span>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

function AddForm({ list, onCreated }: { list: WebhookListResponse; onCreated: (endpoint: WebhookEndpointView, secret: string) => void }) {
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  const ids = useId();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>(['transfer.created', 'transfer.downloaded']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const full = list.endpoints.length >= list.max;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (events.length === 0) {
      setError(t('webhooks.add.noEvents'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await createWebhook(url.trim(), events, description.trim() || undefined);
      setUrl('');
      setDescription('');
      onCreated(created.endpoint, created.secret);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby={`${ids}-h`} data-testid="webhook-add">
      <h2 id={`${ids}-h`}>{t('webhooks.add.title')}</h2>
      {full ? (
        <p data-testid="webhook-full">{t('webhooks.add.full', { max: list.max })}</p>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
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
            <input id={`${ids}-desc`} className="dash-input" type="text" maxLength={200} value={description} onChange={(e) => setDescription(e.currentTarget.value)} data-testid="webhook-description" />
          </div>
          <EventChecks value={events} onChange={setEvents} idPrefix={`${ids}-ev`} legend={t('webhooks.add.events')} />
          <button type="submit" className="btn btn-primary" disabled={busy || !url.trim()} data-testid="webhook-add-submit">
            {busy ? t('webhooks.add.adding') : t('webhooks.add.submit')}
          </button>
        </form>
      )}
      <p className="dash-error" role="alert" data-testid="webhook-add-error">
        {error ?? ''}
      </p>
    </section>
  );
}

function StatusBadge({ status }: { status: DeliveryView['status'] }) {
  const { t } = useTranslation('webhooks');
  return (
    <span className={`webhooks-badge webhooks-badge-${status}`} data-status={status}>
      {t(`webhooks.status.${status}`)}
    </span>
  );
}

/** The latest attempt's answer: the HTTP status, or why none came. */
function ResponseText({ delivery }: { delivery: DeliveryView }) {
  const { t } = useTranslation('webhooks');
  const r = lastResponseOf(delivery);
  if (r.kind === 'status') return <span data-testid="delivery-response">{r.status}</span>;
  if (r.kind === 'error') return <span data-testid="delivery-response">{r.error || t('webhooks.log.noAnswer')}</span>;
  return <span data-testid="delivery-response">–</span>;
}

function DeliveryLog({ endpoint, deliveries, onRedeliver, busyId }: { endpoint: WebhookEndpointView; deliveries: readonly DeliveryView[]; onRedeliver: (d: DeliveryView) => void; busyId: string | null }) {
  const { t } = useTranslation('webhooks');
  const when = useWhen();
  if (deliveries.length === 0) return <p className="muted" data-testid="delivery-log-empty">{t('webhooks.log.empty')}</p>;
  return (
    <div className="webhooks-log-wrap">
      <table className="webhooks-log" data-testid="delivery-log">
        <caption>{t('webhooks.log.caption', { url: endpoint.url })}</caption>
        <TableHead columns={[t('webhooks.log.event'), t('webhooks.log.eventId'), t('webhooks.log.time'), t('webhooks.list.state'), t('webhooks.log.attempts'), t('webhooks.log.response'), t('webhooks.log.nextRetry'), t('webhooks.log.action')]} />
        <tbody>
          {deliveries.map((d) => {
            const next = nextRetryOf(d);
            return (
              <tr key={d.id} data-testid="delivery-row" data-delivery-id={d.id} data-event-id={d.eventId} data-status={d.status}>
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
                    disabled={busyId !== null}
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
        </tbody>
      </table>
    </div>
  );
}

type CardBusy = null | 'save' | 'toggle' | 'test' | 'rotate' | 'delete' | string;

/** One endpoint: its settings, actions, last delivery and (on demand) its delivery log. */
function EndpointCard(props: { endpoint: WebhookEndpointView; onChanged: (e: WebhookEndpointView) => void; onRemoved: (id: string) => void; onRotated: (e: WebhookEndpointView, secret: string) => void }) {
  const { endpoint } = props;
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  const when = useWhen();
  const ids = useId();
  const [busy, setBusy] = useState<CardBusy>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [editing, setEditing] = useState<EventType[] | null>(null);
  const confirm = useInlineConfirm();
  const [logOpen, setLogOpen] = useState(false);
  const [deliveries, setDeliveries] = useState<DeliveryView[] | null>(null);
  const [reloads, setReloads] = useState(0);

  // The log (and the last delivery shown on the card): loaded now, asked again while one is pending.
  useEffect(() => {
    const abort = new AbortController();
    fetchDeliveries(endpoint.id, abort.signal).then(
      (r) => setDeliveries(r.deliveries),
      () => undefined,
    );
    return () => abort.abort();
  }, [endpoint.id, reloads]);
  const pending = deliveries !== null && anyPending(deliveries);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      if (document.visibilityState === 'visible') setReloads((n) => n + 1);
    }, DELIVERY_POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, deliveries]);

  const run = async (kind: CardBusy, call: () => Promise<void>) => {
    setBusy(kind);
    setError(null);
    setNote(null);
    try {
      await call();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  };

  const saveEvents = (events: EventType[]) => {
    if (events.length === 0) {
      setError(t('webhooks.add.noEvents'));
      return Promise.resolve();
    }
    return run('save', async () => {
      props.onChanged((await updateWebhook(endpoint.id, { events })).endpoint);
      setEditing(null);
    });
  };
  const toggle = () => run('toggle', async () => props.onChanged((await updateWebhook(endpoint.id, { enabled: !endpoint.enabled })).endpoint));
  const test = () =>
    run('test', async () => {
      await sendTestEvent(endpoint.id);
      setNote(t('webhooks.actions.testSent'));
      setReloads((n) => n + 1);
    });
  const rotate = () =>
    run('rotate', async () => {
      const r = await rotateWebhookSecret(endpoint.id);
      props.onRotated(r.endpoint, r.secret);
    });
  const remove = () =>
    run('delete', async () => {
      await deleteWebhook(endpoint.id);
      props.onRemoved(endpoint.id);
    });
  const again = (d: DeliveryView) =>
    run(d.id, async () => {
      await redeliver(endpoint.id, d.id);
      setNote(t('webhooks.log.redelivered'));
      setReloads((n) => n + 1);
    });

  const last = deliveries?.[0];
  return (
    <li className="card webhooks-endpoint" aria-labelledby={`${ids}-url`} data-testid="webhook-endpoint" data-endpoint-id={endpoint.id}>
      <h3 className="webhooks-endpoint-head">
        <code id={`${ids}-url`} data-testid="webhook-endpoint-url">
          {endpoint.url}
        </code>
        <span className={`webhooks-badge ${endpoint.enabled ? 'webhooks-badge-delivered' : 'webhooks-badge-off'}`} data-testid="webhook-endpoint-state" data-enabled={String(endpoint.enabled)}>
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
              <StatusBadge status={last.status} /> <ResponseText delivery={last} /> <span className="muted">{when(last.createdAt)}</span>
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
          {endpoint.previousSecretExpiresAt !== undefined && <> ({t('webhooks.list.graceUntil', { time: when(endpoint.previousSecretExpiresAt) })})</>}
        </dd>
      </dl>

      {editing !== null ? (
        <div className="webhooks-edit">
          <EventChecks value={editing} onChange={setEditing} idPrefix={`${ids}-edit`} legend={t('webhooks.list.events')} />
          <div className="webhooks-actions">
            <button type="button" className="btn btn-primary btn-sm" disabled={busy !== null} onClick={() => void saveEvents(editing)} data-testid="webhook-events-save">
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
          busy={busy !== null}
          onConfirm={() => {
            confirm.close();
            void remove();
          }}
          onCancel={confirm.close}
          testId="webhook-delete-confirm"
          confirmTestId="webhook-delete-yes"
          cancelTestId="webhook-delete-keep"
        />
      ) : (
        <div className="webhooks-actions">
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy !== null} onClick={() => setEditing([...endpoint.events])} data-testid="webhook-edit-events">
            {t('webhooks.actions.editEvents')}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy !== null} onClick={() => void toggle()} data-testid="webhook-toggle">
            {endpoint.enabled ? t('webhooks.actions.disable') : t('webhooks.actions.enable')}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy !== null || !endpoint.enabled} onClick={() => void test()} data-testid="webhook-test">
            {t('webhooks.actions.test')}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" disabled={busy !== null} onClick={() => void rotate()} data-testid="webhook-rotate">
            {t('webhooks.actions.rotate')}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" ref={confirm.triggerRef} disabled={busy !== null} onClick={confirm.ask} data-testid="webhook-delete">
            {t('webhooks.actions.delete')}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-expanded={logOpen}
            aria-controls={`${ids}-log`}
            onClick={() => {
              if (!logOpen) setReloads((n) => n + 1);
              setLogOpen((open) => !open);
            }}
            data-testid="webhook-log-toggle"
          >
            {logOpen ? t('webhooks.actions.hideLog') : t('webhooks.actions.showLog')}
          </button>
        </div>
      )}
      <p className="webhooks-note" role="status" data-testid="webhook-note">
        {note ?? ''}
      </p>
      <p className="dash-error" role="alert" data-testid="webhook-error">
        {error ?? ''}
      </p>
      <div id={`${ids}-log`} hidden={!logOpen}>
        {logOpen && deliveries !== null && <DeliveryLog endpoint={endpoint} deliveries={deliveries} onRedeliver={(d) => void again(d)} busyId={busy} />}
        {logOpen && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setReloads((n) => n + 1)} data-testid="delivery-log-refresh">
            {t('webhooks.log.refresh')}
          </button>
        )}
      </div>
    </li>
  );
}

/** A team admin's choice: may members use webhooks (PUT /webhook-settings). */
function TeamToggle({ allowed, onSaved }: { allowed: boolean; onSaved: (allowed: boolean) => void }) {
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  const ids = useId();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The box follows the click at once; a refusal puts it back.
  const [checked, setChecked] = useState(allowed);
  const change = async (next: boolean) => {
    setChecked(next);
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const saved = (await saveWebhookSettings({ membersAllowed: next })).settings.membersAllowed;
      setChecked(saved);
      onSaved(saved);
      setStatus(t('webhooks.team.saved'));
    } catch (err) {
      setChecked(!next);
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby={`${ids}-h`} data-testid="webhook-team">
      <h2 id={`${ids}-h`}>{t('webhooks.team.title')}</h2>
      <div className="webhooks-check">
        <input id={`${ids}-t`} type="checkbox" checked={checked} disabled={busy} aria-describedby={`${ids}-hint`} onChange={(e) => void change(e.currentTarget.checked)} data-testid="webhook-members-allowed" />
        <label htmlFor={`${ids}-t`}>{t('webhooks.team.toggle')}</label>
      </div>
      <p id={`${ids}-hint`} className="dash-hint">
        {t('webhooks.team.hint')}
      </p>
      <p className="webhooks-note" role="status">
        {status ?? ''}
      </p>
      <p className="dash-error" role="alert">
        {error ?? ''}
      </p>
    </section>
  );
}

function VerifySection() {
  const { t } = useTranslation('webhooks');
  return (
    <section className="card" id={VERIFY_ID} aria-labelledby={`${VERIFY_ID}-h`} tabIndex={-1} data-testid="webhook-verify">
      <h2 id={`${VERIFY_ID}-h`}>{t('webhooks.verify.title')}</h2>
      <p>{t('webhooks.verify.body')}</p>
      <p>{t('webhooks.verify.retries')}</p>
      <p>{t('webhooks.verify.snippet')}</p>
      {/* a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
      <pre className="webhooks-snippet" tabIndex={0}>
        <code data-testid="webhook-verify-snippet">{VERIFY_SNIPPET}</code>
      </pre>
    </section>
  );
}

/**
 * /dash/account/webhooks: the user's endpoints (URL, events, enabled, last delivery),
 * adding one (its secret shown once), editing events, enabling or disabling, rotating the secret
 * (the old one signs beside the new for 24 h), deleting after an inline confirmation, a test
 * event, and each endpoint's delivery log with Redeliver. A team member whose admin has not
 * allowed webhooks is refused (the server decides, 403 team_member_forbidden); an admin sees the
 * toggle that allows them.
 */
export function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const { user } = useSession();
  usePageTitle(t('webhooks.title'));
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const userId = user?._id;
  const load = useLoad(fetchWebhooks, [userId], { enabled: Boolean(userId), refused: isMemberRefusal });
  const edit = load.setData;
  const replaceEndpoint = (e: WebhookEndpointView) => edit((l) => ({ ...l, endpoints: l.endpoints.map((x) => (x.id === e.id ? e : x)) }));

  if (!user) return <PageLoading />;
  return (
    <div className="container dash-page webhooks-page">
      <h1>{t('webhooks.title')}</h1>
      <p className="lead muted">{t('webhooks.lead')}</p>
      {load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'refused' ? (
        <p className="card" data-testid="webhooks-refused">
          {t('webhooks.memberRefused')}
        </p>
      ) : load.state === 'failed' ? (
        <LoadFailed text={t('webhooks.loadFailed')} retryLabel={t('webhooks.retry')} onRetry={load.reload} />
      ) : (
        <>
          {revealed && <SecretPanel revealed={revealed} onDone={() => setRevealed(null)} />}
          <section className="webhooks-list" aria-labelledby="webhooks-list-h">
            <h2 id="webhooks-list-h">
              {t('webhooks.list.title')} <span className="muted webhooks-count">{t('webhooks.list.count', { count: load.data.endpoints.length, max: load.data.max })}</span>
            </h2>
            {load.data.endpoints.length === 0 ? (
              <p className="muted" data-testid="webhooks-empty">
                {t('webhooks.list.empty')}
              </p>
            ) : (
              <ul className="webhooks-endpoints">
                {load.data.endpoints.map((e) => (
                  <EndpointCard
                    key={e.id}
                    endpoint={e}
                    onChanged={replaceEndpoint}
                    onRemoved={(id) => edit((l) => ({ ...l, endpoints: l.endpoints.filter((x) => x.id !== id) }))}
                    onRotated={(next, secret) => {
                      replaceEndpoint(next);
                      setRevealed({ kind: 'rotated', url: next.url, secret, ...(next.previousSecretExpiresAt !== undefined ? { graceUntil: next.previousSecretExpiresAt } : {}) });
                    }}
                  />
                ))}
              </ul>
            )}
          </section>
          <AddForm
            list={load.data}
            onCreated={(endpoint, secret) => {
              edit((l) => ({ ...l, endpoints: [...l.endpoints, endpoint] }));
              setRevealed({ kind: 'created', url: endpoint.url, secret });
            }}
          />
          {load.data.settings && <TeamToggle allowed={load.data.settings.membersAllowed} onSaved={(membersAllowed) => edit((l) => ({ ...l, settings: { membersAllowed } }))} />}
          <VerifySection />
        </>
      )}
    </div>
  );
}
