/** UI languages (spec §1). English is bundled and is the fallback for every missing key. */
export const LANGUAGES = ['en', 'zh', 'fr', 'it', 'de', 'es', 'ko', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

export const FALLBACK_LANGUAGE = 'en' satisfies Language;

/** The footer offers these two (spec §1); the others follow the browser or `?lng=`. */
export const FOOTER_LANGUAGES: readonly Language[] = ['en', 'zh'];

/** Each language's name in itself. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  zh: '中文',
  fr: 'Français',
  it: 'Italiano',
  de: 'Deutsch',
  es: 'Español',
  ko: '한국어',
  ja: '日本語',
};

/** BCP 47 tag for <html lang> and Intl formatting. */
export const LANGUAGE_TAGS: Readonly<Record<Language, string>> = {
  en: 'en',
  zh: 'zh-CN',
  fr: 'fr',
  it: 'it',
  de: 'de',
  es: 'es',
  ko: 'ko',
  ja: 'ja',
};

export const LANGUAGE_STORAGE_KEY = 'sendbridge.lng';
export const LANGUAGE_QUERY_PARAM = 'lng';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** i18next may report a region variant ("zh-CN") or "cimode"; map it to one of ours. */
export function toLanguage(value: string | undefined): Language {
  const base = value?.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : FALLBACK_LANGUAGE;
}
