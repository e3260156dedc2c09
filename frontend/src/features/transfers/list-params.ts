/** The transfers list's filter and search as the address carries them (?filter=&q=). */
import { LIST_FILTERS, SEARCH_MAX_LENGTH, type ListFilter } from '@domain/dashboard-api';

export interface ListParamsView {
  readonly filter: ListFilter;
  readonly q: string;
}

export function isListFilter(value: string | null): value is ListFilter {
  return value !== null && (LIST_FILTERS as readonly string[]).includes(value);
}

/** Unknown filters read as 'all'; the search is trimmed and cut to what the API accepts. */
export function readListParams(search: URLSearchParams): ListParamsView {
  const filter = search.get('filter');
  return {
    filter: isListFilter(filter) ? filter : 'all',
    q: (search.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH),
  };
}

/** '?filter=active&q=report', or '' for the default list (all, no search). */
export function listSearch({ filter, q }: ListParamsView): string {
  const params = new URLSearchParams();
  if (filter !== 'all') params.set('filter', filter);
  if (q) params.set('q', q);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The count a filter tab shows (null until the answer is in, or from a server without it). */
export function filterCount(
  filter: ListFilter,
  counts:
    | {
        allCount: number;
        activeCount: number;
        expiredCount: number;
        unseenCount?: number;
        expiringCount?: number;
        sharedCount?: number;
      }
    | undefined,
): number | null {
  if (!counts) return null;
  switch (filter) {
    case 'all':
      return counts.allCount;
    case 'active':
      return counts.activeCount;
    case 'expired':
      return counts.expiredCount;
    case 'unseen':
      return counts.unseenCount ?? null;
    case 'expiring':
      return counts.expiringCount ?? null;
    case 'shared':
      return counts.sharedCount ?? null;
  }
}
