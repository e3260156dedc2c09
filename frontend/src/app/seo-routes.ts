/**
 * What search engines may see of each route. Read by the app (the head of each
 * screen: robots, referrer, canonical, hreflang, description), by the build (sitemap.xml and
 * robots.txt, frontend/seo-files.ts), by the local servers and by CloudFront (the private paths'
 * `X-Robots-Tag` and `Referrer-Policy`). Data only, importable from Node: no DOM, no React.
 *
 * - `index`: a public page: listed in sitemap.xml in every language, with a canonical URL and
 *   hreflang alternates, a title and a description in each language.
 * - `noindex`: public but of no use in search (sign-in, thank-you pages, 404): `noindex`.
 * - `private`: addresses that carry a transfer, request, invite or session (download, request,
 *   invite, extension and dashboard pages, the password reset link): `noindex`, disallowed in
 *   robots.txt, `X-Robots-Tag: noindex` and `Referrer-Policy: no-referrer` from the server, so
 *   the link never leaks to another site through a Referer header.
 */
// relative, not '@/': vite.config.ts (seo-files.ts) loads this module with Node, which knows no alias
import { LANGUAGE_QUERY_PARAM, LANGUAGE_TAGS, LANGUAGES, type Language } from '../i18n/languages';
import { COMPARE_SLUGS, PRODUCT_SLUGS, ROUTES, paths, type RouteId } from './paths';
import { ROUTE_INDEXING, type Indexing } from './route-indexing';

export { ROUTE_INDEXING, type Indexing };

/**
 * One indexable page: its canonical path, the i18n key of its title (the one the screen shows in
 * document.title) and the key of its description in the `seo` catalogue (locales/seo/<lng>.json).
 */
export interface SeoPage {
  readonly id: RouteId;
  readonly path: string;
  readonly titleKey: string;
  readonly descriptionKey: string;
}

/** Every page the sitemap lists, in the order it lists them. */
export const SEO_PAGES: readonly SeoPage[] = [
  { id: 'home', path: paths.home(), titleKey: 'home.title', descriptionKey: 'home' },
  { id: 'pricing', path: paths.pricing(), titleKey: 'pricing.title', descriptionKey: 'pricing' },
  { id: 'about', path: paths.about(), titleKey: 'about.title', descriptionKey: 'about' },
  { id: 'updates', path: paths.updates(), titleKey: 'updates.title', descriptionKey: 'updates' },
  { id: 'roadmap', path: paths.roadmap(), titleKey: 'roadmap.title', descriptionKey: 'roadmap' },
  { id: 'support', path: paths.support(), titleKey: 'support.title', descriptionKey: 'support' },
  { id: 'affiliate', path: paths.affiliate(), titleKey: 'affiliate.title', descriptionKey: 'affiliate' },
  { id: 'sumo', path: paths.sumo(), titleKey: 'sumo.title', descriptionKey: 'sumo' },
  ...PRODUCT_SLUGS.map((slug) => ({
    id: 'product' as const,
    path: paths.product(slug),
    titleKey: `product.${slug}.name`,
    descriptionKey: `product.${slug}`,
  })),
  ...COMPARE_SLUGS.map((slug) => ({
    id: 'compare' as const,
    path: paths.compare(slug),
    titleKey: `compare.${slug}.title`,
    descriptionKey: `compare.${slug}`,
  })),
  // its title is in the `api` catalogue
  { id: 'developers', path: paths.developers(), titleKey: 'docs.title', descriptionKey: 'developers' },
  { id: 'verify', path: paths.verify(), titleKey: 'verify.title', descriptionKey: 'verify' },
];

/** The static start of a route pattern: `/downloads/:id/…` → `/downloads`, `/roadmap/*` → `/roadmap`. */
export function patternPrefix(pattern: string): string {
  const cut = pattern.search(/\/[:*]/);
  return (cut === -1 ? pattern : pattern.slice(0, cut)) || '/';
}

function prefixesOf(kind: Indexing): string[] {
  return [
    ...new Set(
      (Object.keys(ROUTE_INDEXING) as RouteId[])
        .filter((id) => ROUTE_INDEXING[id] === kind)
        .flatMap((id) => [ROUTES[id].pattern, ...ROUTES[id].aliases].map(patternPrefix)),
    ),
  ];
}

/**
 * robots.txt's Disallow lines for the private routes: a route with parameters by its folder
 * (`/r/`, so `/roadmap` stays allowed), a route without by its path (`/dash` covers `/dash/…`).
 */
export const ROBOTS_DISALLOW: readonly string[] = [
  ...new Set(
    (Object.keys(ROUTE_INDEXING) as RouteId[])
      .filter((id) => ROUTE_INDEXING[id] === 'private')
      .flatMap((id) =>
        [ROUTES[id].pattern, ...ROUTES[id].aliases].map((pattern) =>
          patternPrefix(pattern) === pattern ? pattern : `${patternPrefix(pattern)}/`,
        ),
      ),
  ),
];
/** The public routes kept out of search (sign-in, thank-you pages, 404). */
const NOINDEX_PREFIXES: readonly string[] = prefixesOf('noindex');

function under(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** A private address (a download, request, invite, extension or dashboard page, the reset link), by the same rules as robots.txt and CloudFront. */
export function isPrivatePath(pathname: string): boolean {
  return ROBOTS_DISALLOW.some((rule) => (rule.endsWith('/') ? pathname.startsWith(rule) : under(pathname, rule)));
}

const trimmed = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * The indexable page at this address, if it is one, trailing slashes aside. An alias of a page's
 * route (`/signup` of pricing, `/index.html` of home) is that page: its canonical URL names the page.
 */
export function seoPageFor(pathname: string): SeoPage | undefined {
  const clean = trimmed(pathname);
  return SEO_PAGES.find(
    (page) =>
      trimmed(page.path) === clean ||
      (ROUTES[page.id].aliases as readonly string[]).some((alias) => !/[:*]/.test(alias) && trimmed(alias) === clean),
  );
}

/** How the address is indexed: private first, then the public noindex routes, else indexable. */
export function indexingFor(pathname: string): Indexing {
  if (isPrivatePath(pathname)) return 'private';
  return NOINDEX_PREFIXES.some((prefix) => under(pathname, prefix)) ? 'noindex' : 'index';
}

/**
 * How languages are addressed (docs/decisions/, "Languages in URLs"): one path per page, the
 * language in `?lng=` (the query the app's language detector reads first). The bare path is the
 * `x-default`: it follows the visitor's browser language (or the one they picked before).
 */
export function languageUrl(origin: string, path: string, language?: Language): string {
  const base = `${origin.replace(/\/+$/, '')}${path}`;
  return language ? `${base}?${LANGUAGE_QUERY_PARAM}=${language}` : base;
}

export interface Alternate {
  /** a BCP 47 tag (`zh-CN`) or `x-default` */
  readonly hreflang: string;
  readonly href: string;
}

/** The hreflang alternates of a page: x-default, then one per UI language. */
export function alternatesOf(origin: string, path: string): Alternate[] {
  return [
    { hreflang: 'x-default', href: languageUrl(origin, path) },
    ...LANGUAGES.map((language) => ({ hreflang: LANGUAGE_TAGS[language], href: languageUrl(origin, path, language) })),
  ];
}

/** The canonical URL of an indexable address: its page's path, with `?lng=` only when the address names a language. */
export function canonicalUrl(origin: string, page: SeoPage, language: Language | undefined): string {
  return languageUrl(origin, page.path, language);
}
