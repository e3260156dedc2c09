import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RequestSummary } from '@domain/requests-api';
import { ListHeader } from '@/components/list-header';
import { PageLoading } from '@/components/page-loading';
import { DataTable } from '@/components/table-head';
import { dashPaths } from '@/app/dash-paths';
import { CopyLink } from '@/components/copy-link';
import { useCopyLink } from '@/lib/use-copy-link';
import { formatDateTime } from '@/lib/format-date-time';
import { formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchRequests } from '../api/requests-api';
import { STATE_BADGE } from '../request-state';
import { RequestFormPanel } from './request-form';
import '@/styles/transfers.css';
import '../requests.css';

type ListState =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly requests: readonly RequestSummary[] }
  | { readonly status: 'failed' };

function RowCopy({ link, title }: { link: string; title: string }) {
  const { t } = useTranslation('requests');
  const { copied, copy } = useCopyLink(link);
  return (
    <>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()} data-testid="request-row-copy">
        {copied ? t('list.copied') : t('list.copy')}
        {/* which request, for screen readers: the name starts with the visible text */}
        <span className="sr-only"> ({title})</span>
      </button>
      <span className="sr-only" role="status">
        {copied ? t('list.copied') : ''}
      </span>
    </>
  );
}

/**
 * /dash/requests (spec §2; a lazy screen): "New request" and the requester's requests with
 * their uploads, state and due date, a copy of each public link and the way into each one.
 */
export function RequestsPage() {
  const { t, i18n } = useTranslation('requests');
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user } = useSession();
  const headingId = useId();
  const [list, setList] = useState<ListState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<RequestSummary | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const createdNotice = useRef<HTMLDivElement>(null);
  const wasCreating = useRef(false);
  usePageTitle(t('list.title'));

  const userId = user?._id;
  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    setList((l) => (l.status === 'ready' ? l : { status: 'loading' }));
    fetchRequests(userId, controller.signal).then(
      (r) => setList({ status: 'ready', requests: r.requests }),
      () => {
        if (!controller.signal.aborted) setList({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [userId, attempt]);

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
        <div
          ref={createdNotice}
          className="card rq-created"
          tabIndex={-1}
          aria-labelledby={`${headingId}-created`}
          role="region"
          data-testid="request-created"
        >
          <h2 id={`${headingId}-created`}>{t('list.created', { title: created.title })}</h2>
          <p className="muted">{t('list.createdLead')}</p>
          <CopyLink link={created.link} label={t('list.linkLabel')} testId="request-created-link" />
        </div>
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
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setAttempt((n) => n + 1)}>
              {t('list.retry')}
            </button>
          </div>
        )}
        {list.status === 'ready' && list.requests.length === 0 && (
          <p className="tr-empty" data-testid="requests-empty">
            {t('list.empty')}
          </p>
        )}
        {list.status === 'ready' && list.requests.length > 0 && (
          <DataTable
            wrapClassName="tr-table-wrap"
            className="tr-table"
            testId="requests-table"
            caption={<caption className="sr-only">{t('list.caption')}</caption>}
            columns={[
              t('list.columns.title'),
              t('list.columns.state'),
              t('list.columns.uploads'),
              t('list.columns.due'),
              t('list.columns.link'),
            ]}
          >
            {list.requests.map((r) => (
              <tr key={r.id} className="tr-row" data-request-id={r.id} data-testid="request-row">
                <td className="tr-break">
                  <Link to={dashPaths.request(r.id)} className="rq-row-link" data-testid="request-row-open">
                    {r.title}
                  </Link>
                </td>
                <td>
                  <span className={STATE_BADGE[r.state]} data-state={r.state} data-testid="request-row-state">
                    {t(`state.${r.state}`)}
                  </span>
                </td>
                <td className="tr-num" data-testid="request-row-uploads">
                  {formatCount(r.uploadCount, lng)}
                </td>
                <td className="tr-nowrap">{r.dueDate === null ? t('list.noDue') : formatDateTime(r.dueDate, lng)}</td>
                <td className="tr-nowrap">
                  <RowCopy link={r.link} title={r.title} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </div>
  );
}
