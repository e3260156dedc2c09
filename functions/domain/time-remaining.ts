/** Upload progress texts of spec §9. */

export const CALCULATING_TEXT = 'Calculating...';
export const UNDER_30_SECONDS_TEXT = 'Less than 30 seconds remaining';
export const UNDER_A_MINUTE_TEXT = 'Less than a minute remaining';
export const PROGRESS_MIN_WIDTH_PERCENT = 3;

function about(n: number, unit: string): string {
  return `About ${n} ${unit}${n === 1 ? '' : 's'} remaining`;
}

/** `seconds` null, undefined, negative or not finite means no estimate yet. */
export function timeRemainingText(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return CALCULATING_TEXT;
  if (seconds < 30) return UNDER_30_SECONDS_TEXT;
  if (seconds < 60) return UNDER_A_MINUTE_TEXT;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return about(minutes, 'minute');
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return about(hours, 'hour');
  return about(Math.round(seconds / 86400), 'day');
}

/** Seconds left at the current speed, or null while the speed is unknown. */
export function secondsRemaining(bytesLeft: number, bytesPerSecond: number): number | null {
  if (!(bytesPerSecond > 0) || !Number.isFinite(bytesPerSecond)) return null;
  return Math.max(0, bytesLeft) / bytesPerSecond;
}

/** Width of the progress bar: at least 3 % so a just-started upload is visible, at most 100 %. */
export function progressWidthPercent(percent: number): number {
  if (!Number.isFinite(percent)) return PROGRESS_MIN_WIDTH_PERCENT;
  return Math.min(100, Math.max(PROGRESS_MIN_WIDTH_PERCENT, percent));
}
