import 'i18next';
import type en from '@/i18n/locales/en.json';

// Keys are typed from en.json, the source of truth (conventions 13).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
