import { useCallback, useEffect, useState } from 'react';
import type { TransferDetail } from '@domain/dashboard-api';
import { fetchTransferDetail } from '../api/transfers-api';

export interface TransferDetailView {
  readonly detail: TransferDetail | null;
  readonly loading: boolean;
  readonly error: unknown;
  /** fetches again; the shown detail stays until the answer arrives */
  reload(): Promise<void>;
}

/** GET /getQs?slug=: one transfer of the signed-in user, in full. */
export function useTransferDetail(slug: string): TransferDetailView {
  const [state, setState] = useState<{ slug: string; detail: TransferDetail | null; loading: boolean; error: unknown }>(
    {
      slug,
      detail: null,
      loading: true,
      error: null,
    },
  );

  useEffect(() => {
    const controller = new AbortController();
    setState({ slug, detail: null, loading: true, error: null });
    fetchTransferDetail(slug, controller.signal)
      .then((detail) => setState({ slug, detail, loading: false, error: null }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ slug, detail: null, loading: false, error });
      });
    return () => controller.abort();
  }, [slug]);

  const reload = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    try {
      const detail = await fetchTransferDetail(slug);
      setState((s) => (s.slug === slug ? { slug, detail, loading: false, error: null } : s));
    } catch (error) {
      setState((s) => (s.slug === slug ? { ...s, loading: false, error } : s));
    }
  }, [slug]);

  const mine = state.slug === slug;
  return {
    detail: mine ? state.detail : null,
    loading: mine ? state.loading : true,
    error: mine ? state.error : null,
    reload,
  };
}
