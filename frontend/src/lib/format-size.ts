import { scaleBytes } from '@domain/format';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * Storage sizes in the reader's language, with the decimal units and rounding of
 * @domain/format (so English reads as the domain texts do: '1.5 GB', '0 B').
 */
export function formatSize(bytes: number, language: string): string {
  const { value, unit } = scaleBytes(bytes);
  const tag = LANGUAGE_TAGS[toLanguage(language)];
  // Intl's short byte unit is the word ('0 byte'); sizes elsewhere say 'B'.
  if (unit === 0) return `${new Intl.NumberFormat(tag).format(value)} B`;
  return new Intl.NumberFormat(tag, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}
