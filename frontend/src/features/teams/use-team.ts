import { useCallback, useEffect, useState } from 'react';
import type { TeamView } from '@domain/teams-api';
import { useAction } from '@/lib/use-action';
import { fetchTeam } from './api/teams-api';
import { useTeamErrorText } from './team-errors';

export type Notice = { readonly kind: 'success' | 'error'; readonly text: string } | null;

/** The team, loaded and loaded again after each action; what an action came to is the notice. */
export function useTeam() {
  const errorText = useTeamErrorText();
  const [team, setTeam] = useState<TeamView | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const action = useAction({ errorText });

  const load = useCallback(
    (signal?: AbortSignal) =>
      fetchTeam(signal)
        .then(setTeam)
        .catch((err: unknown) => {
          if (!signal?.aborted) setNotice({ kind: 'error', text: errorText(err) });
        }),
    [errorText],
  );
  useEffect(() => {
    const abort = new AbortController();
    void load(abort.signal);
    return () => abort.abort();
  }, [load]);

  // what an action came to is said in the notice; the team is loaded again either way
  const act = async (work: () => Promise<string>) => {
    await action.run(async () => setNotice({ kind: 'success', text: await work() }), {
      onError: (_err, text) => setNotice({ kind: 'error', text }),
    });
    await load();
  };

  return { team, notice, busy: action.busy, act };
}
