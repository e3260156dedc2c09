/**
 * Reads behind /dash/analytics (docs/data-model.md patterns 52-54): the caller's counters
 * (`USER#<sub>` / `MSTATS#<yyyy-mm>` for whole months, `DAY#<yyyy-mm-dd>` for the days of the
 * partial months at a range's ends; written by the download transaction in
 * data/download-events.ts), the names of the top transfers, and the download-log rows
 * (`DLOG#<at>#<id>`) a page at a time for the CSV export. A range costs at most three Queries
 * (about 25 month items and 60 day items at most) and one BatchGet, whatever the number of
 * downloads.
 */
import type { DownloadRow } from '../domain/dashboard-api';
import { ddb } from '../lib/clients/dynamodb';
import { table } from './base';
import { keys } from './keys';

/** A day item (`DAY#<yyyy-mm-dd>`) or month item (`MSTATS#<yyyy-mm>`) of counters. */
export type StatsItem = Record<string, unknown>;

async function queryBetween(pk: string, lo: string, hi: string): Promise<StatsItem[]> {
  const items: StatsItem[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await ddb().query({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':pk': pk, ':lo': lo, ':hi': hi },
      ExclusiveStartKey,
    });
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Pattern 52: the caller's day counters from `from` to `to` (yyyy-mm-dd, both included), every page. */
export function queryDayStats(userId: string, from: string, to: string): Promise<StatsItem[]> {
  return queryBetween(keys.dayStats(userId, from).pk, keys.dayStats(userId, from).sk, keys.dayStats(userId, to).sk);
}

/** Pattern 52: the caller's month counters from `from` to `to` (yyyy-mm, both included). */
export function queryMonthStats(userId: string, from: string, to: string): Promise<StatsItem[]> {
  return queryBetween(
    keys.monthStats(userId, from).pk,
    keys.monthStats(userId, from).sk,
    keys.monthStats(userId, to).sk,
  );
}

/** Files looked at for a transfer without a stored `fileName` (transfers sent before it was stored). */
const FIRST_FILE_SCAN = 50;

async function firstFileName(slug: string): Promise<string | undefined> {
  const out = await ddb().query({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.filePrefix },
    ProjectionExpression: 'fileName, createdAt',
    Limit: FIRST_FILE_SCAN,
  });
  const first = (out.Items ?? []).sort((a, b) => Number(a.createdAt) - Number(b.createdAt))[0];
  return typeof first?.fileName === 'string' ? first.fileName : undefined;
}

/**
 * Pattern 53: display names of transfers (at most 100): one BatchGet of the transfer items'
 * `fileName`; for an older transfer without it, its first file's name (a bounded Query). A
 * deleted transfer keeps its item, so it still has a name; one whose item is gone shows its slug.
 */
export async function transferNames(slugs: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (slugs.length === 0) return names;
  let requested: Record<string, unknown>[] = slugs.map((s) => keys.transfer(s));
  for (let attempt = 0; requested.length > 0 && attempt < 8; attempt += 1) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    const out = await ddb().batchGet({
      RequestItems: { [table()]: { Keys: requested, ProjectionExpression: 'slug, fileName' } },
    });
    for (const item of out.Responses?.[table()] ?? []) {
      if (typeof item.slug === 'string' && typeof item.fileName === 'string' && item.fileName)
        names.set(item.slug, item.fileName);
    }
    requested = (out.UnprocessedKeys?.[table()]?.Keys ?? []) as Record<string, unknown>[];
  }
  await Promise.all(
    slugs
      .filter((s) => !names.has(s))
      .map(async (s) => {
        names.set(s, (await firstFileName(s)) ?? s);
      }),
  );
  return names;
}

/** Sort-key bounds of the download log between two times (epoch ms, both included). */
export function downloadLogBounds(
  userId: string,
  fromMs: number,
  toMs: number,
): { pk: string; lo: string; hi: string } {
  const lo = keys.downloadLog(userId, fromMs, '');
  return { pk: lo.pk, lo: lo.sk, hi: `${keys.downloadLog(userId, toMs, '').sk}~` };
}

/** Pattern 54: one page of download-log rows between two times, oldest first. */
export async function queryDownloadLog(
  userId: string,
  fromMs: number,
  toMs: number,
  limit: number,
  startKey?: { pk: string; sk: string },
): Promise<{ rows: DownloadRow[]; next?: { pk: string; sk: string } }> {
  const b = downloadLogBounds(userId, fromMs, toMs);
  const out = await ddb().query({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': b.pk, ':lo': b.lo, ':hi': b.hi },
    Limit: limit,
    ...(startKey ? { ExclusiveStartKey: startKey } : {}),
  });
  const rows = (out.Items ?? []).map(
    (i): DownloadRow => ({
      dlDate: Number(i.dlDate),
      slug: String(i.slug),
      fileName: String(i.fileName),
      dlOrigin: i.dlOrigin === 'zip' ? 'zip' : 'file',
      countryCode: String(i.countryCode),
      country_name: String(i.country_name),
      ...(typeof i.receiverEmail === 'string' ? { receiverEmail: i.receiverEmail } : {}),
    }),
  );
  const last = out.LastEvaluatedKey;
  return { rows, ...(last ? { next: { pk: String(last.pk), sk: String(last.sk) } } : {}) };
}
