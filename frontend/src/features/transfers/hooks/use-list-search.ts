import { useEffect, useState } from 'react';
import type { SetURLSearchParams } from 'react-router';
import { SEARCH_MAX_LENGTH, type ListFilter } from '@domain/dashboard-api';
import { listSearch } from '../list-params';

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The search box's text: it follows the address, and the address follows it after a pause. */
export function useListSearch(filter: ListFilter, q: string, setSearchParams: SetURLSearchParams) {
  const [typed, setTyped] = useState(q);

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

  return [typed, setTyped] as const;
}
