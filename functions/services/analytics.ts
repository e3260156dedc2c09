/**
 * /dash/analytics: aggregates of a sender's downloads, read from the per-day counters
 * the download transaction maintains (data/download-events.ts), so a page costs a few Queries
 * whatever the number of downloads; and the download rows for the CSV export, a page at a time
 * behind an opaque cursor. The date arithmetic and summing are pure and unit-tested.
 */
import {
  ANALYTICS_MAX_DAYS,
  DOWNLOAD_ROWS_PAGE,
  type AnalyticsInterval,
  type AnalyticsResponse,
  type DownloadRowsPage,
} from '../domain/dashboard-api';
import * as data from '../data/analytics';
import { badRequest } from '../lib/errors';

const DAY_MS = 86_400_000;
/** Transfers listed under "top transfers". */
export const TOP_TRANSFERS = 10;

/** Epoch ms of a yyyy-mm-dd UTC day; 400 invalid_date for a day that does not exist (2025-02-30). */
export function dayStart(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(day);
  const at = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || Number.isNaN(at) || dayOf(at) !== day)
    throw badRequest('invalid_date', 'Dates are days of the calendar, as yyyy-mm-dd.');
  return at;
}

export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The range's bounds (epoch ms of its first day and the last ms of its last day); 400 when reversed or too long. */
export function checkRange(from: string, to: string): { fromMs: number; toMs: number; days: number } {
  const fromMs = dayStart(from);
  const toStart = dayStart(to);
  if (toStart < fromMs) throw badRequest('invalid_range', 'The start date must be on or before the end date.');
  const days = Math.round((toStart - fromMs) / DAY_MS) + 1;
  if (days > ANALYTICS_MAX_DAYS)
    throw badRequest('range_too_long', `A range covers at most ${ANALYTICS_MAX_DAYS} days.`);
  return { fromMs, toMs: toStart + DAY_MS - 1, days };
}

/** The first day of the bucket a day falls in: itself, its ISO week's Monday, or its month's first day. */
export function bucketOf(day: string, interval: AnalyticsInterval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const at = dayStart(day);
  const weekday = (new Date(at).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return dayOf(at - weekday * DAY_MS);
}

/** Every bucket's first day from the one holding `from` to the one holding `to`, in order. */
export function bucketStarts(from: string, to: string, interval: AnalyticsInterval): string[] {
  const out: string[] = [];
  const last = bucketOf(to, interval);
  let cursor = bucketOf(from, interval);
  for (;;) {
    out.push(cursor);
    if (cursor >= last) return out;
    if (interval === 'day') cursor = dayOf(dayStart(cursor) + DAY_MS);
    else if (interval === 'week') cursor = dayOf(dayStart(cursor) + 7 * DAY_MS);
    else {
      const d = new Date(dayStart(cursor));
      cursor = dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
    }
  }
}

/** The last day of a month (yyyy-mm). */
function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return dayOf(Date.UTC(y, m, 0));
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return dayOf(Date.UTC(y, m, 1)).slice(0, 7);
}

function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return dayOf(Date.UTC(y, m - 2, 1)).slice(0, 7);
}

/**
 * Which counters cover a range: the month items of the whole months inside it, and the day items
 * of the days before the first and after the last whole month (the whole range when it holds no
 * whole month).
 */
export function readPlan(from: string, to: string): { months?: [string, string]; days: [string, string][] } {
  const first = from.endsWith('-01') ? from.slice(0, 7) : nextMonth(from.slice(0, 7));
  const last = to === lastDayOf(to.slice(0, 7)) ? to.slice(0, 7) : previousMonth(to.slice(0, 7));
  if (first > last) return { days: [[from, to]] };
  const days: [string, string][] = [];
  if (from < `${first}-01`) days.push([from, dayOf(dayStart(`${first}-01`) - DAY_MS)]);
  if (to > lastDayOf(last)) days.push([dayOf(dayStart(lastDayOf(last)) + DAY_MS), to]);
  return { months: [first, last], days };
}

const byCountThenKey =
  <K extends string>(key: K) =>
  (a: Record<K, string> & { downloads: number }, b: Record<K, string> & { downloads: number }) =>
    b.downloads - a.downloads || a[key].localeCompare(b[key]);

export interface Summary {
  readonly series: { start: string; downloads: number }[];
  readonly totalDownloads: number;
  readonly countries: { countryCode: string; downloads: number }[];
  /** every transfer with downloads in the range, most first */
  readonly transfers: { slug: string; downloads: number }[];
  readonly uniqueRecipients: number;
}

/**
 * Sums counter items into the range's buckets (zeros included), per country, per transfer, and
 * the union of recipients. Day items (`day`, `downloads`) count on their day; month items
 * (`month`, `d#<dd>` per day) on each of their days. Both carry `c#<country>`, `t#<slug>` and
 * the `recipients` set. The caller reads only items inside the range (readPlan).
 */
export function summarise(
  items: readonly Record<string, unknown>[],
  from: string,
  to: string,
  interval: AnalyticsInterval,
): Summary {
  const buckets = new Map(bucketStarts(from, to, interval).map((s) => [s, 0]));
  const bucketOfDay = new Map<string, string>();
  const addToDay = (day: string, n: number) => {
    let bucket = bucketOfDay.get(day);
    if (bucket === undefined) {
      bucket = bucketOf(day, interval);
      bucketOfDay.set(day, bucket);
    }
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + n);
  };
  const countries = new Map<string, number>();
  const transfers = new Map<string, number>();
  const recipients = new Set<string>();
  let total = 0;
  for (const item of items) {
    const month = typeof item.month === 'string' ? item.month : undefined;
    if (!month) {
      const day = String(item.day);
      if (day < from || day > to) continue;
      addToDay(day, Number(item.downloads ?? 0));
    }
    total += Number(item.downloads ?? 0);
    for (const name in item) {
      if (name[1] !== '#') continue;
      const value = Number(item[name]);
      const k = name.slice(2);
      if (name[0] === 'c') countries.set(k, (countries.get(k) ?? 0) + value);
      else if (name[0] === 't') transfers.set(k, (transfers.get(k) ?? 0) + value);
      else if (name[0] === 'd' && month) addToDay(`${month}-${k}`, value);
    }
    if (item.recipients instanceof Set) for (const r of item.recipients as Set<string>) recipients.add(r);
  }
  return {
    series: [...buckets].map(([start, downloads]) => ({ start, downloads })),
    totalDownloads: total,
    countries: [...countries]
      .map(([countryCode, downloads]) => ({ countryCode, downloads }))
      .sort(byCountThenKey('countryCode')),
    transfers: [...transfers].map(([slug, downloads]) => ({ slug, downloads })).sort(byCountThenKey('slug')),
    uniqueRecipients: recipients.size,
  };
}

/** GET /analytics: at most three Queries in parallel (whole months, the days at each end), then one BatchGet. */
export async function analyticsOf(
  userId: string,
  q: { from: string; to: string; interval: AnalyticsInterval },
): Promise<AnalyticsResponse> {
  checkRange(q.from, q.to);
  const plan = readPlan(q.from, q.to);
  const reads = await Promise.all([
    ...(plan.months ? [data.queryMonthStats(userId, plan.months[0], plan.months[1])] : []),
    ...plan.days.map(([a, b]) => data.queryDayStats(userId, a, b)),
  ]);
  const s = summarise(reads.flat(), q.from, q.to, q.interval);
  const top = s.transfers.slice(0, TOP_TRANSFERS);
  const names = await data.transferNames(top.map((t) => t.slug));
  return {
    from: q.from,
    to: q.to,
    interval: q.interval,
    series: s.series,
    totalDownloads: s.totalDownloads,
    countries: s.countries,
    topTransfers: top.map((t) => ({ slug: t.slug, fileName: names.get(t.slug) ?? t.slug, downloads: t.downloads })),
    uniqueRecipients: s.uniqueRecipients,
  };
}

// ---- the CSV export's pages ------------------------------------------------------------------

export interface LogKey {
  readonly pk: string;
  readonly sk: string;
}

export function encodeCursor(key: LogKey): string {
  return Buffer.from(JSON.stringify({ pk: key.pk, sk: key.sk }), 'utf8').toString('base64url');
}

/**
 * The key a cursor names, if it is one this user's export of this range could have been given:
 * exactly `{ pk, sk }`, the caller's own pk, a sort key inside the range's bounds. Anything else
 * is 400 invalid_cursor (a cursor can never move a Query to another user's partition).
 */
export function decodeCursor(cursor: string, bounds: { pk: string; lo: string; hi: string }): LogKey {
  const refuse = () => badRequest('invalid_cursor', 'This page of the export is not valid. Start the export again.');
  if (!/^[A-Za-z0-9_-]+$/u.test(cursor)) throw refuse();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse();
  const { pk, sk, ...rest } = parsed as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof pk !== 'string' || typeof sk !== 'string') throw refuse();
  if (pk !== bounds.pk || sk < bounds.lo || sk > bounds.hi) throw refuse();
  return { pk, sk };
}

/** GET /analytics/downloads: DOWNLOAD_ROWS_PAGE rows of the range, oldest first, and the next page's cursor. */
export async function downloadRowsOf(
  userId: string,
  q: { from: string; to: string; cursor?: string | undefined },
): Promise<DownloadRowsPage> {
  const { fromMs, toMs } = checkRange(q.from, q.to);
  const start =
    q.cursor !== undefined ? decodeCursor(q.cursor, data.downloadLogBounds(userId, fromMs, toMs)) : undefined;
  const page = await data.queryDownloadLog(userId, fromMs, toMs, DOWNLOAD_ROWS_PAGE, start);
  return { rows: page.rows, ...(page.next ? { cursor: encodeCursor(page.next) } : {}) };
}
