import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * Storage sizes in the reader's language, in the decimal units and one-decimal rounding of
 * @domain/format's formatBytes (so English reads exactly as the domain texts do).
 */
export function formatSize(bytes: number, language: string): string {
  let unit = 0;
  let value = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  let rounded = unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  // 999.96 MB rounds to 1000 MB: say 1 GB instead.
  if (rounded >= 1000 && unit < UNITS.length - 1) {
    unit += 1;
    rounded = Math.round(rounded / 100) / 10;
  }
  return new Intl.NumberFormat(LANGUAGE_TAGS[toLanguage(language)], {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(rounded);
}
