/**
 * The 410 text, 'Sorry, this download expired {time} ago.', in the visitor's language.
 * English is the spec's own sentence (functions/domain/format.ts); other languages say the
 * duration with Intl.RelativeTimeFormat ("hace 3 días", "vor 3 Tagen") inside their sentence.
 */
import type { TFunction } from 'i18next';
import { expiredAgoText } from '@domain/format';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '@domain/units';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

export interface ElapsedUnit {
  readonly value: number;
  readonly unit: Intl.RelativeTimeFormatUnit;
}

/**
 * The same whole units as humanDuration in functions/domain/format.ts (rounded down; months of
 * 30 days, years of 365), so every language tells the same time; null under a minute.
 */
export function elapsedUnit(ms: number): ElapsedUnit | null {
  const abs = Math.abs(ms);
  if (!Number.isFinite(abs) || abs < MINUTE_MS) return null;
  if (abs < HOUR_MS) return { value: Math.floor(abs / MINUTE_MS), unit: 'minute' };
  if (abs < DAY_MS) return { value: Math.floor(abs / HOUR_MS), unit: 'hour' };
  const days = Math.floor(abs / DAY_MS);
  if (days < 30) return { value: days, unit: 'day' };
  if (days < 365) return { value: Math.floor(days / 30), unit: 'month' };
  return { value: Math.floor(days / 365), unit: 'year' };
}

/** "3 days ago" in `language`; 'always' so that 1 day is "hace 1 día", not "ayer". */
export function timeAgo(ms: number, language: string, t: TFunction): string {
  const elapsed = elapsedUnit(ms);
  if (!elapsed) return t('download.lessThanMinuteAgo');
  return new Intl.RelativeTimeFormat(LANGUAGE_TAGS[toLanguage(language)], { numeric: 'always' }).format(
    -elapsed.value,
    elapsed.unit,
  );
}

export function expiredText(expiryDate: number, now: number, language: string, t: TFunction): string {
  if (toLanguage(language) === 'en') return expiredAgoText(expiryDate, now);
  return t('download.expired', { ago: timeAgo(now - expiryDate, language, t) });
}
