import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

/** Downloads whose country was not known carry this code (functions' GeoIP lookup). */
export const UNKNOWN_COUNTRY = 'XX';

const cache = new Map<string, Intl.DisplayNames>();

function displayNames(language: string): Intl.DisplayNames {
  const tag = LANGUAGE_TAGS[toLanguage(language)];
  let names = cache.get(tag);
  if (!names) {
    names = new Intl.DisplayNames([tag], { type: 'region', fallback: 'none' });
    cache.set(tag, names);
  }
  return names;
}

/**
 * The country's name in the UI language from its ISO 3166 alpha-2 code ("DE" -> "Germany",
 * "Allemagne"); `unknown` for 'XX', a malformed code or one the browser has no name for.
 */
export function countryName(code: string, language: string, unknown: string): string {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/u.test(upper) || upper === UNKNOWN_COUNTRY) return unknown;
  try {
    return displayNames(language).of(upper) ?? unknown;
  } catch {
    return unknown;
  }
}
