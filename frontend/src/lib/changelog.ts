/** GET /canny/changelog (public): the changelog we serve, newest first; read by /updates and the what's-new panel. */
import type { ChangelogEntry, ChangelogResponse } from '@domain/dashboard-api';
import { apiFetch } from '@/lib/api';

export function fetchChangelog(signal?: AbortSignal): Promise<readonly ChangelogEntry[]> {
  return apiFetch<ChangelogResponse>('/canny/changelog', { signal }).then((res) => res.entries);
}
