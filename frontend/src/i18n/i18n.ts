import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, isLanguage, type Language, toLanguage } from '@/i18n/languages';
import { languageDetector } from '@/i18n/language-detector';
import { LOCALE_LOADERS } from '@/i18n/locale-loaders';
import { isLazyNamespace, SECTION_NAMESPACES } from '@/i18n/namespace-names';
import { loadNamespace } from '@/i18n/namespaces';
import en from '@/i18n/locales/en.json';

/** Loads a non-English locale on demand; en is bundled (partialBundledLanguages). */
const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (isLazyNamespace(namespace)) {
      if (!isLanguage(language)) {
        callback(null, {});
        return;
      }
      loadNamespace(namespace, language)
        .then((module) => callback(null, module.default))
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null));
      return;
    }
    if (!isLanguage(language) || language === FALLBACK_LANGUAGE) {
      callback(null, language === FALLBACK_LANGUAGE ? en : {});
      return;
    }
    LOCALE_LOADERS[language]()
      .then((module) => callback(null, module.default as Record<string, unknown>))
      .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null));
  },
};

export const i18n = i18next.createInstance();

/** The options the browser and the build's prerender share: English bundled, the rest loaded. */
function options(language?: string) {
  return {
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    fallbackNS: [...SECTION_NAMESPACES],
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly' as const,
    fallbackLng: FALLBACK_LANGUAGE,
    interpolation: { escapeValue: false },
    ...(language ? { lng: language } : {}),
  };
}

export async function initI18n(): Promise<typeof i18n> {
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = LANGUAGE_TAGS[toLanguage(lng)];
  });
  await i18n.use(lazyLocales).use(languageDetector).use(initReactI18next).init(options());
  return i18n;
}

/** The build's prerender (src/prerender.tsx): the same i18next in one given language, no detection. */
export async function initI18nIn(language: Language): Promise<typeof i18n> {
  if (!i18n.isInitialized) await i18n.use(lazyLocales).use(initReactI18next).init(options(language));
  else await i18n.changeLanguage(language);
  return i18n;
}
