import type { LanguageDetectorModule } from 'i18next';
import { LANGUAGE_QUERY_PARAM, LANGUAGE_STORAGE_KEY } from '@/i18n/languages';

/** localStorage throws where storage is blocked (some private modes, sandboxed frames). */
function stored(): string | null {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The visitor's language, in the app's order: `?lng=`, the choice stored in this browser, then
 * the browser's languages; i18next takes the first it supports (a region variant counts as its
 * language) and the chosen one is stored. What i18next-browser-languagedetector did with these
 * three sources, in a tenth of its size (docs/decisions/, "Language detection").
 */
export const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect() {
    const found = [
      new URLSearchParams(window.location.search).get(LANGUAGE_QUERY_PARAM),
      stored(),
      ...(navigator.languages ?? []),
      navigator.language,
    ];
    return found.filter((lng): lng is string => typeof lng === 'string' && lng !== '');
  },
  cacheUserLanguage(lng) {
    if (lng === 'cimode') return;
    try {
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
    } catch {
      // not stored: the next visit detects again
    }
  },
};
