import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestSummary } from '@domain/requests-api';
import { ListHeader } from '@/components/list-header';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { CreatedNotice } from './request-created-notice';
import { RequestFormPanel } from './request-form';
import { RequestsTable } from './requests-table';
import { useRequestsList } from './use-requests-list';
import '@/styles/transfers.css';
import '../requests.css';

/**
 * /dash/requests (spec §2; a lazy screen): "New request" and the requester's requests with
 * their uploads, state and due date, a copy of each public link and the way into each one.
 */
export function RequestsPage() {
  const { t } = useTranslation('requests');
  const { user } = useSession();
  const headingId = useId();
  const { list, setList, retry } = useRequestsList(user?._id);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<RequestSummary | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const createdNotice = useRef<HTMLElement>(null);
  const wasCreating = useRef(false);
  usePageTitle(t('list.title'));

  // The form closed: focus goes to what replaced it (the new request's link, or the button).
  useEffect(() => {
    if (wasCreating.current && !creating) (createdNotice.current ?? newButton.current)?.focus();
    wasCreating.current = creating;
  }, [creating]);

  if (!user) return <PageLoading />;
  // GET /me's requestSettings (set on /dash/settings) prefill the new-request form.
  const settings = user.requestSettings;

  return (
    <div className="container dash-page rq-page">
      <ListHeader headingId={headingId} title={t('list.title')} lead={t('list.lead')}>
        {!creating && (
          <button
            ref={newButton}
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setCreated(null);
              setCreating(true);
            }}
            data-testid="request-new"
          >
            {t('list.new')}
          </button>
        )}
      </ListHeader>

      {creating && (
        <RequestFormPanel
          role={user.role}
          settings={settings}
          onCancel={() => setCreating(false)}
          onCreated={(request) => {
            setCreated(request);
            setList((l) =>
              l.status === 'ready'
                ? { status: 'ready', requests: [request, ...l.requests.filter((r) => r.id !== request.id)] }
                : l,
            );
            setCreating(false);
          }}
        />
      )}

      {created && !creating && (
        <CreatedNotice ref={createdNotice} headingId={`${headingId}-created`} request={created} />
      )}

      <section className="card tr-card" aria-labelledby={headingId} aria-busy={list.status === 'loading'}>
        {list.status === 'loading' && (
          <p className="tr-empty" role="status">
            {t('list.loading')}
          </p>
        )}
        {list.status === 'failed' && (
          <div className="tr-notice tr-notice-error" role="alert">
            <span>{t('list.loadFailed')}</span>
            <button type="button" className="btn btn-ghost btn-sm" onClick={retry}>
              {t('list.retry')}
            </button>
          </div>
        )}
        {list.status === 'ready' && list.requests.length === 0 && (
          <p className="tr-empty" data-testid="requests-empty">
            {t('list.empty')}
          </p>
        )}
        {list.status === 'ready' && list.requests.length > 0 && <RequestsTable requests={list.requests} />}
      </section>
    </div>
  );
}
