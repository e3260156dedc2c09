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
  return { filter: isListFilter(filter) ? filter : 'all', q: (search.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH) };
}

/** '?filter=active&q=report', or '' for the default list (all, no search). */
export function listSearch({ filter, q }: ListParamsView): string {
  const params = new URLSearchParams();
  if (filter !== 'all') params.set('filter', filter);
  if (q) params.set('q', q);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The count a filter tab shows; unseen and expiring soon have none in the answer (shown without a number). */
export function filterCount(filter: ListFilter, counts: { allCount: number; activeCount: number; expiredCount: number; sharedCount?: number } | undefined): number | null {
  if (!counts) return null;
  if (filter === 'shared') return counts.sharedCount ?? null;
  if (filter === 'all') return counts.allCount;
  if (filter === 'active') return counts.activeCount;
  if (filter === 'expired') return counts.expiredCount;
  return null;
}
