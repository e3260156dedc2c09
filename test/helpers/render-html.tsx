import { createInstance, type i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { CATALOGUE, FALLBACK_NS } from './catalogues';

/** An i18next of its own per test file (English, Japanese on request), so language switches do not leak. */
export async function createTestI18n(): Promise<I18n> {
  const i18n = createInstance();
  await i18n
    .use(initReactI18next)
    .init({ lng: 'en', resources: CATALOGUE, fallbackNS: FALLBACK_NS, interpolation: { escapeValue: false } });
  return i18n;
}

/**
 * Static markup (react-dom/server's) and just enough querying of it for view assertions.
 * Assertions read attributes by name, not by position, and a true boolean attribute may stand
 * bare (`disabled`) or empty (`disabled=""`).
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
 * The markup of a tree once every lazy part of it has loaded (react-dom/static's prerender);
 * the synchronous renderer would show a `<Suspense>` fallback in its place.
 */
export async function prerenderHtml(element: ReactElement): Promise<string> {
  const { prelude } = await prerender(element);
  const html = await new Response(prelude).text();
  // the streaming renderer's markers (Suspense boundaries, text separators), which static markup has not
  return html.replace(/<!--.*?-->/g, '');
}

/** renderHtml, waiting for the lazy parts of the tree (a `lazy` component inside `<Suspense>`). */
export async function renderHtmlAsync(i18n: I18n, element: ReactElement): Promise<Markup> {
  return new Markup(await prerenderHtml(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>));
}
