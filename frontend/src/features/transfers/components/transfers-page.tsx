import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListHeader, ListSearch } from '@/components/list-header';
import { Link, Outlet, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { LIST_FILTERS, SEARCH_MAX_LENGTH, type ListFilter } from '@domain/dashboard-api';
import { PageLoading } from '@/components/page-loading';
import { dashPaths } from '@/app/dash-paths';
import { errorTextOf } from '@/i18n/error-keys';
import { formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { useTransferList } from '../hooks/use-transfer-list';
import { filterCount, listSearch, readListParams } from '../list-params';
import { TransferTable } from './transfer-table';
import '@/styles/transfers.css';

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * /dash/transfers (spec §2, §4): filter tabs with their counts, a search, the table and "Load
 * more". The TransferModal (/dash/transfers/:slug) renders in the Outlet over the list.
 */
export function TransfersPage() {
  const { t } = useTranslation('transfers');
  const { t: tApp, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user } = useSession();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { filter, q } = readListParams(searchParams);
  const [typed, setTyped] = useState(q);
  const searchId = useId();
  const headingId = useId();
  usePageTitle(t('list.title'));

  // The TransferModal closed: focus goes back to the row it was opened for, after the dialog's
  // own focus return, and once the row is there (a modal opened by its address may close
  // before the list behind it has loaded).
  const { slug } = useParams();
  const lastSlug = useRef<string | undefined>(undefined);
  useEffect(() => {
    const closed = lastSlug.current;
    lastSlug.current = slug;
    if (slug || !closed) return;
    let frames = 0;
    let frame = 0;
    const place = () => {
      const link = document.querySelector<HTMLElement>(`[data-slug="${CSS.escape(closed)}"] a`);
      if (link) link.focus();
      else if (frames < 119) {
        frames += 1;
        frame = requestAnimationFrame(place);
      }
    };
    frame = requestAnimationFrame(place);
    return () => cancelAnimationFrame(frame);
  }, [slug]);

  // The address changed (a tab, back/forward): the box follows.
  useEffect(() => setTyped(q), [q]);

  useEffect(() => {
    const next = typed.trim().slice(0, SEARCH_MAX_LENGTH);
    if (next === q) return;
    const timer = setTimeout(
      () => setSearchParams(new URLSearchParams(listSearch({ filter, q: next })), { replace: true }),
      SEARCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [typed, q, filter, setSearchParams]);

  const view = useTransferList(user?._id ?? '', filter, q);
  // The TransferModal says so when it deleted the transfer it showed.
  const deleted = (location.state as { notice?: string } | null)?.notice === 'deleted';
  if (!user) return <PageLoading />;
  const { list } = view;
  const errorText = view.error ? errorTextOf(view.error) : null;

  return (
    <div className="container dash-page tr-page">
      <ListHeader headingId={headingId} title={t('list.title')} lead={t('list.lead')}>
        <ListSearch
          id={searchId}
          label={t('list.searchLabel')}
          labelClassName="tr-search-label"
          placeholder={t('list.searchPlaceholder')}
          maxLength={SEARCH_MAX_LENGTH}
          value={typed}
          onChange={setTyped}
          testId="transfers-search"
        />
      </ListHeader>

      <nav className="tr-filters" aria-label={t('list.filtersLabel')}>
        {LIST_FILTERS.map((name) => (
          <FilterTab key={name} name={name} active={name === filter} q={q} count={filterCount(name, list?.counts)} />
        ))}
      </nav>

      <section className="card tr-card" aria-labelledby={headingId} aria-busy={view.refreshing || undefined}>
        <p className="sr-only" role="status">
          {view.refreshing && list ? t('list.refreshing') : ''}
        </p>
        {deleted && (
          <p className="tr-notice tr-notice-success" role="status" data-testid="transfers-deleted">
            {t('list.deleted')}
          </p>
        )}
        {errorText && (
          <div className="tr-notice tr-notice-error" role="alert">
            <span>
              {t('list.loadFailed')} {tApp(errorText.key, errorText.params)}
            </span>
            <button type="button" className="btn btn-ghost btn-sm" onClick={view.reload}>
              {t('list.retry')}
            </button>
          </div>
        )}
        {!list ? (
          !errorText && <p className="tr-empty">{t('list.loading')}</p>
        ) : list.rows.length === 0 ? (
          <EmptyState filter={filter} q={q} />
        ) : (
          <>
            <TransferTable rows={list.rows} search={listSearch({ filter, q })} />
            <div className="tr-more">
              {list.hasMore ? (
                <button
                  type="button"
                  className="btn btn-ghost"
                  onClick={view.loadMore}
                  disabled={view.loadingMore}
                  data-testid="transfers-load-more"
                >
                  {view.loadingMore ? t('list.loadingMore') : t('list.loadMore')}
                </button>
              ) : (
                filter === 'all' &&
                !q && (
                  <p className="muted">
                    {t('list.showing', {
                      shown: formatCount(list.rows.length, lng),
                      total: formatCount(list.counts.allCount, lng),
                    })}
                  </p>
                )
              )}
            </div>
          </>
        )}
      </section>
      <Outlet />
    </div>
  );
}

function FilterTab({ name, active, q, count }: { name: ListFilter; active: boolean; q: string; count: number | null }) {
  const { t, i18n } = useTranslation('transfers');
  const label = t(`list.filters.${name}`);
  return (
    <Link
      to={{ pathname: dashPaths.transfers(), search: listSearch({ filter: name, q }) }}
      className="tr-filter"
      aria-current={active ? 'page' : undefined}
      data-testid={`transfers-filter-${name}`}
    >
      {label}
      {count !== null && <span className="tr-filter-count">{formatCount(count, i18n.resolvedLanguage ?? 'en')}</span>}
    </Link>
  );
}

function EmptyState({ filter, q }: { filter: ListFilter; q: string }) {
  const { t } = useTranslation('transfers');
  const navigate = useNavigate();
  const location = useLocation();
  if (q) {
    return (
      <div className="tr-empty" data-testid="transfers-empty">
        <p>{t('list.empty.search', { q })}</p>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => navigate({ pathname: location.pathname, search: listSearch({ filter, q: '' }) })}
        >
          {t('list.clearSearch')}
        </button>
      </div>
    );
  }
  return (
    <div className="tr-empty" data-testid="transfers-empty">
      <p>{t(`list.empty.${filter}`)}</p>
      {filter === 'all' && (
        <Link to={dashPaths.home()} className="btn btn-primary btn-sm">
          {t('list.sendFirst')}
        </Link>
      )}
    </div>
  );
}
