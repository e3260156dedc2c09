import { GB, TB } from '../../../functions/domain/units';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

function locale(language: string): string {
  return LANGUAGE_TAGS[toLanguage(language)];
}

/**
 * Formatters by locale and options, made once: a new Intl formatter costs far more than a
 * `format` call (the home page's plan cards format twelve numbers in its first render).
 */
const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(language: string, kind: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const tag = locale(language);
  const key = `${tag} ${kind}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(tag, options);
    formatters.set(key, format);
  }
  return format;
}

/** Plan sizes are decimal (functions/domain/units.ts): "3 GB", "1,25 To" — Intl localises the unit. */
export function formatBytes(bytes: number, language: string): string {
  const unit = bytes >= TB ? 'terabyte' : 'gigabyte';
  const value = bytes / (unit === 'terabyte' ? TB : GB);
  return numberFormat(language, unit, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 2 }).format(
    value,
  );
}

export function formatCount(value: number, language: string): string {
  return numberFormat(language, 'count').format(value);
}

/** Prices of the plan table are US dollars without cents. */
export function formatPrice(amount: number, language: string): string {
  return numberFormat(language, 'price', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(
    amount,
  );
}

export function formatDate(isoDate: string, language: string): string {
  return new Intl.DateTimeFormat(locale(language), {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${isoDate}T00:00:00Z`));
}
