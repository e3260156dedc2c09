import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListFilter } from '@domain/dashboard-api';
import { dashPaths } from '@/app/dash-paths';
import { formatCount } from '@/lib/format';
import { listSearch } from '../list-params';

/** One filter of the list (keeping the search), with its count once known. */
export function FilterTab({
  name,
  active,
  q,
  count,
}: {
  name: ListFilter;
  active: boolean;
  q: string;
  count: number | null;
}) {
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
