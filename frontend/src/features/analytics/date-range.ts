import { ANALYTICS_MAX_DAYS } from '@domain/dashboard-api';

/** Analytics counts downloads per UTC day (the server's day counters), so ranges are UTC days too. */
export const DAY_MS = 86_400_000;
export const RANGE_PRESETS = [7, 30, 90, 365] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = 30;

export interface DayRange {
  readonly from: string;
  readonly to: string;
}

/** yyyy-mm-dd of the UTC day holding `ms`. */
export function dayString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC of a yyyy-mm-dd, or null when it is not a real calendar day. */
export function parseDay(day: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/u.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || dayString(ms) !== day ? null : ms;
}

/** The last `days` days, today included. */
export function presetRange(days: number, now: number): DayRange {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return { from: dayString(today - (days - 1) * DAY_MS), to: dayString(today) };
}

/** The preset a range is, if any (so the preset buttons show which one is on). */
export function presetOf(range: DayRange, now: number): RangePreset | null {
  return (
    RANGE_PRESETS.find((days) => {
      const preset = presetRange(days, now);
      return preset.from === range.from && preset.to === range.to;
    }) ?? null
  );
}

export type RangeProblem = 'invalid' | 'order' | 'tooLong';

/** Why a range cannot be asked for, or null: both days real, from ≤ to, at most ANALYTICS_MAX_DAYS. */
export function rangeProblem(range: DayRange): RangeProblem | null {
  const from = parseDay(range.from);
  const to = parseDay(range.to);
  if (from === null || to === null) return 'invalid';
  if (from > to) return 'order';
  if ((to - from) / DAY_MS + 1 > ANALYTICS_MAX_DAYS) return 'tooLong';
  return null;
}
