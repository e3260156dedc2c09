import { createInstance, type i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '@/i18n/locales/en.json';
import ja from '@/i18n/locales/ja.json';

/** An i18next of its own per test file (English, Japanese on request), so language switches do not leak. */
export async function createTestI18n(): Promise<I18n> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en }, ja: { translation: ja } }, interpolation: { escapeValue: false } });
  return i18n;
}

/** Static markup and just enough querying of it for view assertions. */
export class Markup {
  constructor(readonly html: string) {}
  tag(testId: string): string {
    const m = new RegExp(`<[^>]*data-testid="${testId}"[^>]*>`).exec(this.html);
    if (!m) throw new Error(`no element with data-testid=${testId}`);
    return m[0];
  }
  has(testId: string): boolean {
    return this.html.includes(`data-testid="${testId}"`);
  }
  text(): string {
    return this.html
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ');
  }
}

/**
 * The unit project has no DOM: a view renders to HTML, and the assertions read what a first
 * paint shows. `element` brings its own router and other providers.
 */
export function renderHtml(i18n: I18n, element: ReactElement): Markup {
  return new Markup(renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>));
}
