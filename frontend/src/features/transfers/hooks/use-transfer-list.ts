import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ListFilter } from '@domain/dashboard-api';
import { fetchTransferList } from '../api/transfers-api';
import { entryOf, transferListCache, withNextPage, type CachedList, type ListKey } from '../list-cache';

/** The bell's "new activity on these transfers" (features/notifications/notification-list.ts, a unit test holds them equal). */
export const TRANSFER_ACTIVITY_EVENT = 'sendbridge:transfer-activity';

/** Calls `listener` with the transfers the bell's poll saw new activity on; returns the unsubscribe function. */
export function onTransferActivity(listener: (slugs: readonly string[]) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<{ slugs: readonly string[] }>).detail.slugs);
  window.addEventListener(TRANSFER_ACTIVITY_EVENT, handler);
  return () => window.removeEventListener(TRANSFER_ACTIVITY_EVENT, handler);
}

export interface TransferListView {
  /** the cached list at once, then the fresh one; null before anything arrived */
  readonly list: CachedList | null;
  /** a request for the first page is under way (the cached list, if any, is showing) */
  readonly refreshing: boolean;
  readonly loadingMore: boolean;
  /** the last request's failure, cleared by the next success */
  readonly error: unknown;
  loadMore(): void;
  reload(): void;
}

/**
 * One list (filter and search) of the signed-in user, stale-while-revalidate: the cache's copy
 * shows at once and the first page is fetched again on every visit and after every
 * invalidation (an action in the TransferModal). "Load more" asks for the next page by skip.
 */
export function useTransferList(userId: string, filter: ListFilter, q: string): TransferListView {
  const cache = transferListCache();
  const generation = useSyncExternalStore(cache.subscribe, cache.getGeneration, cache.getGeneration);
  const [state, setState] = useState<{
    key: string;
    list: CachedList | null;
    refreshing: boolean;
    loadingMore: boolean;
    error: unknown;
  }>(() => ({
    key: '',
    list: null,
    refreshing: true,
    loadingMore: false,
    error: null,
  }));
  const [reloads, setReloads] = useState(0);
  const keyId = `${userId}\u0000${filter}\u0000${q}`;
  const key = useRef<ListKey>({ userId, filter, q });
  key.current = { userId, filter, q };
  const moreAbort = useRef<AbortController | null>(null);

  useEffect(() => {
    const listKey: ListKey = { userId, filter, q };
    const cached = cache.get(listKey);
    setState({ key: keyId, list: cached, refreshing: true, loadingMore: false, error: null });
    const controller = new AbortController();
    const startedIn = cache.getGeneration();
    fetchTransferList({ filter, q }, controller.signal)
      .then((response) => {
        const entry = entryOf(response, Date.now());
        cache.set(listKey, entry, startedIn);
        setState((s) => (s.key === keyId ? { ...s, list: entry, refreshing: false, error: null } : s));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState((s) => (s.key === keyId ? { ...s, refreshing: false, error } : s));
      });
    return () => {
      controller.abort();
      moreAbort.current?.abort();
    };
    // generation: an invalidation fetches again; reloads: the Retry button.
  }, [cache, userId, filter, q, keyId, generation, reloads]);

  const loadMore = useCallback(() => {
    const current = state.key === keyId ? state.list : null;
    if (!current?.hasMore || state.loadingMore) return;
    const listKey = key.current;
    const controller = new AbortController();
    moreAbort.current = controller;
    const startedIn = cache.getGeneration();
    setState((s) => ({ ...s, loadingMore: true }));
    fetchTransferList({ filter: listKey.filter, q: listKey.q, skip: current.rows.length }, controller.signal)
      .then((page) => {
        setState((s) => {
          if (s.key !== keyId || !s.list) return s;
          const next = withNextPage(s.list, page);
          cache.set(listKey, next, startedIn);
          return { ...s, list: next, loadingMore: false, error: null };
        });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState((s) => (s.key === keyId ? { ...s, loadingMore: false, error } : s));
      });
  }, [cache, keyId, state.key, state.list, state.loadingMore]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);

  // The bell's poll saw new activity (a download, a review comment): counts and badges change.
  useEffect(() => onTransferActivity(reload), [reload]);

  const mine = state.key === keyId;
  return {
    list: mine ? state.list : cache.get({ userId, filter, q }),
    refreshing: mine ? state.refreshing : true,
    loadingMore: mine && state.loadingMore,
    error: mine ? state.error : null,
    loadMore,
    reload,
  };
}
