import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS: readonly { readonly unit: Intl.RelativeTimeFormatUnit; readonly ms: number; readonly below: number }[] = [
  { unit: 'second', ms: 1000, below: MINUTE },
  { unit: 'minute', ms: MINUTE, below: HOUR },
  { unit: 'hour', ms: HOUR, below: DAY },
  { unit: 'day', ms: DAY, below: 7 * DAY },
  { unit: 'week', ms: 7 * DAY, below: 30 * DAY },
  { unit: 'month', ms: 30 * DAY, below: 365 * DAY },
  { unit: 'year', ms: 365 * DAY, below: Number.POSITIVE_INFINITY },
];

/** "5 minutes ago", "yesterday", "il y a 3 heures": the largest unit that fits, in the UI language. */
export function relativeTime(at: number, now: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(LANGUAGE_TAGS[toLanguage(language)], { numeric: 'auto' });
  const elapsed = Math.max(0, now - at);
  const { unit, ms } = UNITS.find((u) => elapsed < u.below) ?? UNITS[UNITS.length - 1]!;
  // Under ten seconds reads as "now" rather than a ticking count.
  if (unit === 'second' && elapsed < 10_000) return format.format(0, 'second');
  return format.format(-Math.floor(elapsed / ms), unit);
}
