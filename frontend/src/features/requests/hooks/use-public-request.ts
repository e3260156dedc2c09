import { useEffect, useState } from 'react';
import { isRequestId, type PublicRequestResponse } from '@domain/requests-api';
import { ApiError } from '@/lib/api';
import { fetchPublicRequest } from '../api/requests-api';
import { closedKind, type ClosedKind } from '../request-state';

export type RequestLoad =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly request: PublicRequestResponse }
  | { readonly status: 'missing' }
  | { readonly status: 'closed'; readonly kind: ClosedKind }
  | { readonly status: 'failed' };

/** A refusal of GET /r/{id} or POST /r/{id}/uploads as a page state, if it is one. */
export function loadStateOf(err: unknown): RequestLoad | null {
  if (!(err instanceof ApiError)) return null;
  if (err.status === 404) return { status: 'missing' };
  if (err.status === 410) return { status: 'closed', kind: closedKind(err.code, err.details) };
  return null;
}

/** The request of /r/{id} as the page's state; an id that cannot be one is missing without a call. */
export function usePublicRequest(id: string) {
  const [load, setLoad] = useState<RequestLoad>(() =>
    isRequestId(id) ? { status: 'loading' } : { status: 'missing' },
  );
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!isRequestId(id)) {
      setLoad({ status: 'missing' });
      return;
    }
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    fetchPublicRequest(id, controller.signal).then(
      (r) => setLoad({ status: 'ready', request: r }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setLoad(loadStateOf(err) ?? { status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [id, attempt]);

  return { load, setLoad, retry: () => setAttempt((n) => n + 1) };
}
