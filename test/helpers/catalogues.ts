import accountEn from '@/i18n/locales/account/en.json';
import accountJa from '@/i18n/locales/account/ja.json';
import en from '@/i18n/locales/en.json';
import ja from '@/i18n/locales/ja.json';
import pagesEn from '@/i18n/locales/pages/en.json';
import pagesJa from '@/i18n/locales/pages/ja.json';
import sendEn from '@/i18n/locales/send/en.json';
import sendJa from '@/i18n/locales/send/ja.json';
import billingEn from '@/i18n/locales/billing/en.json';
import billingJa from '@/i18n/locales/billing/ja.json';
import { SECTION_NAMESPACES } from '@/i18n/namespace-names';

/**
 * The bundled catalogue and the sections that load with their screens (namespaces.ts), as the
 * app has them once a screen's route has loaded them; pass with `fallbackNS` so a plain `t` finds
 * `send.…`, `auth.…` and `about.…` keys the way the app's i18next does.
 */
export const CATALOGUE = {
  // the billing screens read their lazy catalogue by name (useTranslation('billing'))
  en: { translation: en, send: sendEn, account: accountEn, pages: pagesEn, billing: billingEn },
  ja: { translation: ja, send: sendJa, account: accountJa, pages: pagesJa, billing: billingJa },
} as const;

export const FALLBACK_NS = [...SECTION_NAMESPACES];

/** Every English text as one tree, for tests that read a text by its key path. */
export const EN_TEXTS = { ...en, ...sendEn, ...accountEn, ...pagesEn };
