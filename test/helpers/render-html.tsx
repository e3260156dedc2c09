import { createInstance, type i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { renderToStringAsync } from 'preact-render-to-string';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { CATALOGUE, FALLBACK_NS } from './catalogues';

/** An i18next of its own per test file (English, Japanese on request), so language switches do not leak. */
export async function createTestI18n(): Promise<I18n> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en', resources: CATALOGUE, fallbackNS: FALLBACK_NS, interpolation: { escapeValue: false } });
  return i18n;
}

/**
 * Static markup and just enough querying of it for view assertions. The markup is Preact's
 * (preact-render-to-string, what react-dom/server resolves to, frontend/preact-aliases.ts): a
 * component's className comes after its other attributes, a true boolean attribute is bare
 * (`disabled`, not `disabled=""`), so assertions read attributes by name, not by position.
 */
export class Markup {
  constructor(readonly html: string) {}
  tag(testId: string): string {
    const m = new RegExp(`<[^>]*data-testid="${testId}"[^>]*>`).exec(this.html);
    if (!m) throw new Error(`no element with data-testid=${testId}`);
    return m[0];
  }
  /** The value of one attribute of the element: '' for a bare boolean one, null when absent. */
  attr(testId: string, name: string): string | null {
    return attribute(this.tag(testId), name);
  }
  /** The markup between the element's opening tag and the next tag (its first text). */
  firstText(testId: string): string {
    const m = new RegExp(`<[^>]*data-testid="${testId}"[^>]*>([^<]*)`).exec(this.html);
    if (!m) throw new Error(`no element with data-testid=${testId}`);
    return m[1]!;
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

/** An attribute of an opening tag: its value, '' when it stands bare (`disabled`), null when absent. */
export function attribute(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s/>])`, 'i').exec(tag);
  return m ? (m[1] ?? '') : null;
}

/**
 * The unit project has no DOM: a view renders to HTML, and the assertions read what a first
 * paint shows. `element` brings its own router and other providers.
 */
export function renderHtml(i18n: I18n, element: ReactElement): Markup {
  return new Markup(renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>));
}

/**
 * The same, waiting for the lazy parts of the tree (a `lazy` component inside `<Suspense>`):
 * Preact's synchronous renderer cannot render a tree that suspends, where React's rendered the
 * fallback. The lazy part then shows as it will once loaded.
 */
export async function renderHtmlAsync(i18n: I18n, element: ReactElement): Promise<Markup> {
  return new Markup(await renderToStringAsync((<I18nextProvider i18n={i18n}>{element}</I18nextProvider>) as never));
}
