/** Human-readable sizes and durations, in the decimal units of units.ts. */
import { downloadExpiredText } from './texts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from './units';

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/**
 * A byte count in decimal units: the value rounded to one decimal (whole bytes) and the unit's
 * index in B, KB, MB, GB, TB, PB. Shared by formatBytes and the app's localised sizes.
 */
export function scaleBytes(bytes: number): { value: number; unit: number } {
  if (!Number.isFinite(bytes) || bytes <= 0) return { value: 0, unit: 0 };
  let unit = 0;
  let value = bytes;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  let rounded = unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  // 999.96 MB rounds to 1000 MB; show it as 1 GB instead.
  if (rounded >= 1000 && unit < SIZE_UNITS.length - 1) {
    unit += 1;
    rounded = Math.round(rounded / 100) / 10;
  }
  return { value: rounded, unit };
}

/** '1.5 GB', '999 B', '1 TB': one decimal at most, trailing '.0' dropped. */
export function formatBytes(bytes: number): string {
  const { value, unit } = scaleBytes(bytes);
  return `${value} ${SIZE_UNITS[unit]}`;
}

/** Upload speed shown beside the progress ring, e.g. '2.4 MB/s'. */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * Whole units, rounded down, so "expired 2 days ago" is never said of something 1.9 days old.
 * Months are 30 days and years 365 days: the text is an estimate, not a calendar difference.
 */
export function humanDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (!Number.isFinite(abs) || abs < MINUTE_MS) return 'less than a minute';
  if (abs < HOUR_MS) return plural(Math.floor(abs / MINUTE_MS), 'minute');
  if (abs < DAY_MS) return plural(Math.floor(abs / HOUR_MS), 'hour');
  const days = Math.floor(abs / DAY_MS);
  if (days < 30) return plural(days, 'day');
  if (days < 365) return plural(Math.floor(days / 30), 'month');
  return plural(Math.floor(days / 365), 'year');
}

/** The download page's 410 text: 'Sorry, this download expired 3 days ago.' */
export function expiredAgoText(expiryDateMs: number, now: number): string {
  return downloadExpiredText(humanDuration(now - expiryDateMs));
}

/** Notification badge: the count, or '9+' above 9; empty when there is nothing to show. */
export function badgeText(count: number): string {
  if (count <= 0) return '';
  return count > 9 ? '9+' : String(count);
}
