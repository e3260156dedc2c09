import { ROBOTS_DISALLOW, SEO_PAGES, alternatesOf, languageUrl } from './src/app/seo-routes';
import { LANGUAGES } from './src/i18n/languages';

/**
 * sitemap.xml and robots.txt, made at build time from the route table the router
 * uses (src/app/seo-routes.ts) and the public origin from configuration (`PUBLIC_ORIGIN`, else
 * `APP_ORIGIN`). The Vite plugin in vite.config.ts writes them beside index.html; the dev server
 * answers them too.
 */

/** `PUBLIC_ORIGIN`, else `APP_ORIGIN`, else the local app's origin; checked, no trailing slash. */
export function publicOrigin(env: Readonly<Record<string, string | undefined>>, fallback: string): string {
  const raw = (env.PUBLIC_ORIGIN || env.APP_ORIGIN || fallback).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_ORIGIN is not a URL: ${raw}`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname.replace(/\/+$/, '') !== '' || url.search || url.hash) {
    throw new Error(`PUBLIC_ORIGIN must be an http(s) origin without a path: ${raw}`);
  }
  return url.origin;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Every indexable page in every language: the bare path (x-default) and one URL per language
 * (`?lng=`), each listing all of the page's alternates, itself included (as search engines ask).
 */
export function renderSitemap(origin: string): string {
  const urls = SEO_PAGES.flatMap((page) => {
    const alternates = alternatesOf(origin, page.path)
      .map((a) => `    <xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${xml(a.href)}"/>`)
      .join('\n');
    return [undefined, ...LANGUAGES].map(
      (language) => `  <url>\n    <loc>${xml(languageUrl(origin, page.path, language))}</loc>\n${alternates}\n  </url>`,
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Crawlers may read every public page; the private addresses and the API are off limits. */
export function renderRobots(origin: string): string {
  const disallowed = ['/api/', ...ROBOTS_DISALLOW];
  return [
    'User-agent: *',
    ...disallowed.map((path) => `Disallow: ${path}`),
    'Allow: /',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
