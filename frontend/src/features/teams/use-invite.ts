import { useEffect, useState } from 'react';
import type { InviteInfo } from '@domain/teams-api';
import { fetchInvite } from './api/teams-api';

export type InviteState = { kind: 'loading' } | { kind: 'missing' } | { kind: 'ready'; info: InviteInfo };

/** The invitation behind an /invite link: loading, missing (or no longer usable), or its details. */
export function useInvite(id: string) {
  const [state, setState] = useState<InviteState>({ kind: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    fetchInvite(id, abort.signal)
      .then((found) => setState({ kind: 'ready', info: found }))
      .catch(() => {
        if (!abort.signal.aborted) setState({ kind: 'missing' });
      });
    return () => abort.abort();
  }, [id]);
  return [state, setState] as const;
}
