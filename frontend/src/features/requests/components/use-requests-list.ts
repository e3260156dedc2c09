import { useEffect, useState } from 'react';
import type { RequestSummary } from '@domain/requests-api';
import { fetchRequests } from '../api/requests-api';

export type ListState =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly requests: readonly RequestSummary[] }
  | { readonly status: 'failed' };

/** The requester's requests, fetched again on `retry` (a list on screen stays while it reloads). */
export function useRequestsList(userId: string | undefined) {
  const [list, setList] = useState<ListState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

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

  return { list, setList, retry: () => setAttempt((n) => n + 1) };
}
