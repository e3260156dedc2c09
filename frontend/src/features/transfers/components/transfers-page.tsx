import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ListHeader, ListSearch } from '@/components/list-header';
import { Outlet, useLocation, useSearchParams } from 'react-router';
import { LIST_FILTERS, SEARCH_MAX_LENGTH } from '@domain/dashboard-api';
import { PageLoading } from '@/components/page-loading';
import { errorTextOf } from '@/i18n/error-keys';
import { formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { useListSearch } from '../hooks/use-list-search';
import { useRowFocusReturn } from '../hooks/use-row-focus-return';
import { useTransferList } from '../hooks/use-transfer-list';
import { filterCount, listSearch, readListParams } from '../list-params';
import { TransferTable } from './transfer-table';
import { EmptyState } from './transfers-empty-state';
import { FilterTab } from './transfers-filter-tab';
import '@/styles/transfers.css';

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
  const searchId = useId();
  const headingId = useId();
  usePageTitle(t('list.title'));

  useRowFocusReturn();
  const [typed, setTyped] = useListSearch(filter, q, setSearchParams);

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
