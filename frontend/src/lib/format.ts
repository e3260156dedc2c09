import { GB, TB } from '../../../functions/domain/units';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

function locale(language: string): string {
  return LANGUAGE_TAGS[toLanguage(language)];
}

/** Plan sizes are decimal (functions/domain/units.ts): "3 GB", "1,25 To" — Intl localises the unit. */
export function formatBytes(bytes: number, language: string): string {
  const unit = bytes >= TB ? 'terabyte' : 'gigabyte';
  const value = bytes / (unit === 'terabyte' ? TB : GB);
  return new Intl.NumberFormat(locale(language), { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 2 }).format(value);
}

export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(locale(language)).format(value);
}

/** Prices of the plan table are US dollars without cents. */
export function formatPrice(amount: number, language: string): string {
  return new Intl.NumberFormat(locale(language), { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(amount);
}

export function formatDate(isoDate: string, language: string): string {
  return new Intl.DateTimeFormat(locale(language), { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}
