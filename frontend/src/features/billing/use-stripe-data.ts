import { useCallback, useEffect, useState } from 'react';
import type { StripeDataResponse } from '@domain/billing-api';
import { fetchStripeData } from './billing-api';

export interface StripeDataState {
  readonly data: StripeDataResponse | null;
  readonly failed: boolean;
  /** ask again (after a change made elsewhere) */
  reload(): void;
  /** adopt an answer that already carries the new state (cancel, resume, refund, change plan) */
  set(data: StripeDataResponse): void;
}

/** GET /getStripeData for the signed-in user, asked on mount. */
export function useStripeData(enabled = true): StripeDataState {
  const [data, setData] = useState<StripeDataResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!enabled) return undefined;
    const abort = new AbortController();
    setFailed(false);
    fetchStripeData(abort.signal)
      .then((answer) => setData(answer))
      .catch(() => {
        if (!abort.signal.aborted) setFailed(true);
      });
    return () => abort.abort();
  }, [enabled, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, failed, reload, set: setData };
}
