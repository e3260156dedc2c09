/** The analytics calls (functions/domain/dashboard-api.ts), with the signed-in user's token. */
import type { AnalyticsInterval, AnalyticsResponse, DownloadRow, DownloadRowsPage } from '@domain/dashboard-api';
import { authedFetch } from '@/lib/session/session';

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  return search.toString();
}

export function fetchAnalytics(
  from: string,
  to: string,
  interval: AnalyticsInterval,
  signal?: AbortSignal,
): Promise<AnalyticsResponse> {
  return authedFetch<AnalyticsResponse>(`/analytics?${query({ from, to, interval })}`, { signal });
}

/** Most pages one export reads (DOWNLOAD_ROWS_PAGE each): a bound against a cursor that never ends. */
export const MAX_EXPORT_PAGES = 1000;

/** Every row of the pages `fetchPage` returns, following the cursor until a page has none. */
export async function collectRows(
  fetchPage: (cursor: string | undefined) => Promise<DownloadRowsPage>,
): Promise<DownloadRow[]> {
  const rows: DownloadRow[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_EXPORT_PAGES; page += 1) {
    const res = await fetchPage(cursor);
    rows.push(...res.rows);
    if (!res.cursor || res.cursor === cursor) return rows;
    cursor = res.cursor;
  }
  return rows;
}

/** Every download row of the range, page after page of GET /analytics/downloads. */
export function fetchAllDownloadRows(from: string, to: string, signal?: AbortSignal): Promise<DownloadRow[]> {
  return collectRows((cursor) =>
    authedFetch<DownloadRowsPage>(`/analytics/downloads?${query({ from, to, cursor })}`, { signal }),
  );
}
