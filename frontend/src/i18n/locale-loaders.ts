import type { Language } from '@/i18n/languages';
import type en from '@/i18n/locales/en.json';

export type Messages = typeof en;
/** Other locales may lack keys (they fall back to en at run time; the unit test fails on it). */
export type PartialMessages = { [K in keyof Messages]?: unknown };

/** One dynamic import per language, so a visitor downloads only the locale they use. */
export const LOCALE_LOADERS: Readonly<Record<Exclude<Language, 'en'>, () => Promise<{ default: PartialMessages }>>> = {
  zh: () => import('@/i18n/locales/zh.json'),
  fr: () => import('@/i18n/locales/fr.json'),
  it: () => import('@/i18n/locales/it.json'),
  de: () => import('@/i18n/locales/de.json'),
  es: () => import('@/i18n/locales/es.json'),
  ko: () => import('@/i18n/locales/ko.json'),
  ja: () => import('@/i18n/locales/ja.json'),
};
