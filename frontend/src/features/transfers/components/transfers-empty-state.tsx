import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { ListFilter } from '@domain/dashboard-api';
import { dashPaths } from '@/app/dash-paths';
import { listSearch } from '../list-params';

/** Nothing to list: for a search, the way to clear it; for an empty account, the way to send. */
export function EmptyState({ filter, q }: { filter: ListFilter; q: string }) {
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
