import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

/** What a screen's load has come to; 'refused' only where the screen names final errors. */
export type Load<T, Refusable extends boolean = false> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly data: T }
  /** it may work again: the screen offers Retry */
  | { readonly state: 'failed'; readonly error: unknown }
  /** an answer a retry will not change (see `refused` in the options) */
  | (Refusable extends true ? { readonly state: 'refused'; readonly error: unknown } : never);

export interface LoadOptions {
  /** false: nothing is fetched yet and the state stays 'loading' (default true). */
  readonly enabled?: boolean;
  /** Which errors are final (a refusal, a missing item): 'refused' instead of 'failed'. */
  readonly refused?: (error: unknown) => boolean;
}

export type LoadResult<T, Refusable extends boolean = false> = Load<T, Refusable> & {
  /** Fetch again (Retry): 'loading' until it answers. */
  reload(): void;
  /**
   * The screen's own change of what was loaded (an answer of an action): a value makes the
   * state 'ready'; a function changes the data only while it is 'ready'. Stable across renders.
   */
  setData(next: T | ((data: T) => T)): void;
};

const LOADING = { state: 'loading' } as const;

/**
 * Load a screen's data on mount and again whenever `deps` change (or on `reload`), with the
 * request cancelled when the screen unmounts or a newer load starts: an answer that comes after
 * that is dropped, so it never overwrites a newer one nor sets state on an unmounted screen.
 * `fetch` gets the AbortSignal to hand to the API call; it is read at each load (not a dependency).
 */
export function useLoad<T>(
  fetch: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  options: LoadOptions & { refused: (error: unknown) => boolean },
): LoadResult<T, true>;
export function useLoad<T>(
  fetch: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  options?: Omit<LoadOptions, 'refused'>,
): LoadResult<T>;
export function useLoad<T>(
  fetch: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  options: LoadOptions = {},
): LoadResult<T, boolean> {
  const enabled = options.enabled ?? true;
  const [load, setLoad] = useState<Load<T, true>>(LOADING);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef({ fetch, refused: options.refused });
  latest.current = { fetch, refused: options.refused };

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    setLoad(LOADING);
    latest.current.fetch(abort.signal).then(
      (data) => {
        if (!abort.signal.aborted) setLoad({ state: 'ready', data });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) setLoad({ state: latest.current.refused?.(error) ? 'refused' : 'failed', error });
      },
    );
    return () => abort.abort();
    // the caller's deps, as with useEffect
  }, [enabled, attempt, ...deps]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setData = useCallback((next: T | ((data: T) => T)) => {
    if (typeof next === 'function')
      setLoad((l) => (l.state === 'ready' ? { state: 'ready', data: (next as (data: T) => T)(l.data) } : l));
    else setLoad({ state: 'ready', data: next });
  }, []);
  return { ...load, reload, setData };
}
