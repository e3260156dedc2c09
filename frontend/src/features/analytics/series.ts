import type { AnalyticsInterval, AnalyticsResponse } from '@domain/dashboard-api';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';
import { DAY_MS, dayString, parseDay } from './date-range';

export type SeriesPoint = AnalyticsResponse['series'][number];

/** The start of the bucket holding `day`: the day, its ISO week's Monday, or its month's first day. */
export function bucketStart(day: string, interval: AnalyticsInterval): string {
  const ms = parseDay(day);
  if (ms === null) throw new RangeError(`not a day: ${day}`);
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return dayString(ms - weekday * DAY_MS);
}

function nextBucket(start: string, interval: AnalyticsInterval): string {
  const ms = parseDay(start)!;
  if (interval === 'day') return dayString(ms + DAY_MS);
  if (interval === 'week') return dayString(ms + 7 * DAY_MS);
  const d = new Date(ms);
  return dayString(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

/** Every bucket start from the one holding `from` to the one holding `to`, in order. */
export function bucketStarts(from: string, to: string, interval: AnalyticsInterval): string[] {
  const last = bucketStart(to, interval);
  const out: string[] = [];
  for (let start = bucketStart(from, interval); start <= last; start = nextBucket(start, interval)) out.push(start);
  return out;
}

/**
 * The series over every bucket of the range, in order, zeros where the answer has none; points
 * are put in the bucket their start falls in (so a day series can be shown by week or month).
 */
export function completeSeries(
  series: readonly SeriesPoint[],
  from: string,
  to: string,
  interval: AnalyticsInterval,
): SeriesPoint[] {
  const sums = new Map<string, number>();
  for (const point of series) {
    if (parseDay(point.start) === null) continue;
    const key = bucketStart(point.start, interval);
    sums.set(key, (sums.get(key) ?? 0) + point.downloads);
  }
  return bucketStarts(from, to, interval).map((start) => ({ start, downloads: sums.get(start) ?? 0 }));
}

/** uPlot's columns: x as the bucket's index (bars evenly spaced), y the downloads. */
export function toChartData(series: readonly SeriesPoint[]): [number[], number[]] {
  return [series.map((_, i) => i), series.map((p) => p.downloads)];
}

/** A bucket as people read it, in the UI language: "12 Mar 2026", "Mar 2026". Weeks by their Monday. */
export function bucketLabel(start: string, interval: AnalyticsInterval, language: string): string {
  const ms = parseDay(start);
  if (ms === null) return start;
  const options: Intl.DateTimeFormatOptions =
    interval === 'month'
      ? { year: 'numeric', month: 'short', timeZone: 'UTC' }
      : { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[toLanguage(language)], options).format(new Date(ms));
}

/** A bucket on the chart's axis, short: "Mar 9" (days, weeks), "Mar 26" (months). */
export function bucketTick(start: string, interval: AnalyticsInterval, language: string): string {
  const ms = parseDay(start);
  if (ms === null) return start;
  const options: Intl.DateTimeFormatOptions =
    interval === 'month'
      ? { year: '2-digit', month: 'short', timeZone: 'UTC' }
      : { month: 'short', day: 'numeric', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[toLanguage(language)], options).format(new Date(ms));
}

/** The busiest bucket's downloads (the chart's and the map's top), at least 1. */
export function peak(values: readonly number[]): number {
  return values.reduce((max, v) => Math.max(v, max), 1);
}
