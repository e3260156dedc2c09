import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMPARE_SLUGS, PRODUCT_SLUGS, ROUTES, type RouteId } from '@/app/paths';
import {
  ROBOTS_DISALLOW,
  ROUTE_INDEXING,
  SEO_PAGES,
  alternatesOf,
  canonicalUrl,
  indexingFor,
  isPrivatePath,
  seoPageFor,
} from '@/app/seo-routes';
import { routes } from '@/app/routes';
import { LANGUAGES, LANGUAGE_TAGS } from '@/i18n/languages';
import { isServedPath } from '@/lib/served-routes';
import { descriptionOf } from '@/lib/seo-head';
import { publicOrigin, renderRobots, renderSitemap } from '../../../../frontend/seo-files';

const ORIGIN = 'https://app.example.com';
const localesDir = fileURLToPath(new URL('../../../../frontend/src/i18n/locales/', import.meta.url));
type Tree = { [key: string]: string | Tree };
const read = (file: string) => JSON.parse(readFileSync(`${localesDir}${file}`, 'utf8')) as Tree;

/** A concrete address for a pattern: params get a sample value, splats and optional segments dropped. */
function sample(pattern: string): string {
  return pattern
    .replace(/\/\*$/, '/anything')
    .replace(/\/:\w+\?/g, '')
    .replace(/:\w+/g, 'abc1234');
}

function lookup(tree: Tree, key: string): string | undefined {
  // keys may hold a slug with dots in none of its parts: split on every dot
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The private addresses of spec §2 and the SEO rules. */
const PRIVATE_SAMPLES = [
  '/downloads/abc1234',
  '/downloads/abc1234/Ab3dEf7h/downloadZip',
  '/d/abc1234',
  '/w/abc1234',
  '/r/req123',
  '/invite/tok',
  '/extension/tok',
  '/dash',
  '/dash/transfers/abc1234',
  '/dash/account/billing',
  '/updatepassword',
];

describe('route table: what search engines see', () => {
  it('every route of the router has an indexing rule, and the private ones are the download, request, invite, extension, dashboard and reset pages', () => {
    expect(Object.keys(ROUTE_INDEXING).sort()).toEqual(Object.keys(ROUTES).sort());
    const privateIds = (Object.keys(ROUTE_INDEXING) as RouteId[])
      .filter((id) => ROUTE_INDEXING[id] === 'private')
      .sort();
    expect(privateIds).toEqual([
      'dash',
      'downloads',
      'extension',
      'fileRequest',
      'invite',
      'publicLink',
      'updatePassword',
    ]);
  });

  it('noindex on private routes: each of their patterns and aliases, served by the router, is private; public pages are not', () => {
    for (const id of Object.keys(ROUTES) as RouteId[]) {
      for (const pattern of [ROUTES[id].pattern, ...ROUTES[id].aliases]) {
        const path = sample(pattern);
        expect(isServedPath(routes, path), path).toBe(true);
        expect(indexingFor(path), `${id} ${path}`).toBe(
          ROUTE_INDEXING[id] === 'private' ? 'private' : ROUTE_INDEXING[id] === 'noindex' ? 'noindex' : 'index',
        );
      }
    }
    for (const path of PRIVATE_SAMPLES) expect(isPrivatePath(path), path).toBe(true);
    for (const path of [
      '/',
      '/pricing',
      '/roadmap',
      '/roadmap/whatever',
      '/r',
      '/dashboard-analytics',
      '/product/dashboard-analytics',
      '/downloadsx',
      '/support',
    ]) {
      expect(isPrivatePath(path), path).toBe(false);
    }
    expect(indexingFor('/login')).toBe('noindex');
    expect(indexingFor('/404/')).toBe('noindex');
  });

  it('lists every marketing page once: home, pricing, about, updates, roadmap, support, affiliate, sumo, each product and comparison page', () => {
    const paths = SEO_PAGES.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/pricing',
        '/about',
        '/updates',
        '/roadmap',
        '/support',
        '/affiliate-program/',
        '/appsumoforever',
        '/developers',
      ]),
    );
    for (const slug of PRODUCT_SLUGS) expect(paths).toContain(`/product/${slug}`);
    for (const slug of COMPARE_SLUGS) expect(paths).toContain(`/compare/${slug}`);
    for (const page of SEO_PAGES) {
      expect(isServedPath(routes, page.path), page.path).toBe(true);
      expect(indexingFor(page.path), page.path).toBe('index');
      expect(seoPageFor(page.path)).toBe(page);
      expect(seoPageFor(`${page.path}/`.replace(/\/\/$/, '/'))).toBe(page);
    }
    expect(seoPageFor('/affiliate-program')?.id).toBe('affiliate');
    expect(seoPageFor('/pricing/')?.id).toBe('pricing');
    expect(seoPageFor('/roadmap/whatever')).toBeUndefined();
    // aliases name their page as canonical
    expect(seoPageFor('/signup')?.path).toBe('/pricing');
    expect(seoPageFor('/welcomeback')?.path).toBe('/pricing');
    expect(seoPageFor('/index.html')?.path).toBe('/');
  });

  it('has a title and a description for every public page in every language (its own text, not the English fallback)', () => {
    for (const language of LANGUAGES) {
      const catalogues = [
        read(`${language}.json`),
        read(`send/${language}.json`),
        read(`pages/${language}.json`),
        read(`api/${language}.json`),
      ];
      const seo = read(`seo/${language}.json`) as Record<string, string | Record<string, string>>;
      const descriptions = new Set<string>();
      for (const page of SEO_PAGES) {
        const title = catalogues.map((c) => lookup(c, page.titleKey)).find((v) => v !== undefined);
        expect(title, `${language} title ${page.titleKey}`).toBeTruthy();
        const description = descriptionOf(seo, page.descriptionKey);
        expect(description, `${language} description ${page.descriptionKey}`).toBeTruthy();
        // a search result snippet: long enough to say something, short enough not to be cut much
        expect(description!.length, `${language} ${page.descriptionKey}`).toBeGreaterThan(
          language === 'zh' || language === 'ja' || language === 'ko' ? 10 : 40,
        );
        expect(description!.length, `${language} ${page.descriptionKey}`).toBeLessThanOrEqual(200);
        descriptions.add(description!);
      }
      expect(descriptions.size, `${language}: each page its own description`).toBe(SEO_PAGES.length);
    }
  });

  it('canonical URLs keep ?lng= only when the address names a language', () => {
    const pricing = seoPageFor('/pricing')!;
    expect(canonicalUrl(ORIGIN, pricing, undefined)).toBe('https://app.example.com/pricing');
    expect(canonicalUrl(ORIGIN, pricing, 'fr')).toBe('https://app.example.com/pricing?lng=fr');
    expect(alternatesOf(`${ORIGIN}/`, '/')).toEqual([
      { hreflang: 'x-default', href: 'https://app.example.com/' },
      ...LANGUAGES.map((l) => ({ hreflang: LANGUAGE_TAGS[l], href: `https://app.example.com/?lng=${l}` })),
    ]);
  });
});

describe('sitemap.xml', () => {
  const xml = renderSitemap(ORIGIN);
  const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]!);
  const locs = urls.map((u) => /<loc>([^<]+)<\/loc>/.exec(u)![1]!);

  it('is a sitemap with hreflang links', () => {
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ),
    ).toBe(true);
    expect(xml.trimEnd().endsWith('</urlset>')).toBe(true);
  });

  it('lists every public page in every language (and the bare address, x-default), on the configured origin', () => {
    expect(locs).toHaveLength(SEO_PAGES.length * (LANGUAGES.length + 1));
    for (const page of SEO_PAGES) {
      expect(locs).toContain(`${ORIGIN}${page.path}`);
      for (const l of LANGUAGES) expect(locs).toContain(`${ORIGIN}${page.path}?lng=${l}`);
    }
    for (const loc of locs) expect(loc.startsWith(`${ORIGIN}/`)).toBe(true);
  });

  it('leaves every private and noindex address out', () => {
    for (const loc of locs) {
      const path = new URL(loc).pathname;
      expect(indexingFor(path), loc).toBe('index');
    }
    for (const path of [...PRIVATE_SAMPLES, '/login', '/register', '/thankyou', '/404'])
      expect(
        locs.some((l) => new URL(l).pathname === path),
        path,
      ).toBe(false);
  });

  it('gives each URL all alternates of its page, itself included, x-default first', () => {
    for (const [i, url] of urls.entries()) {
      const links = [...url.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map((m) => ({
        hreflang: m[1],
        href: m[2],
      }));
      expect(links).toHaveLength(LANGUAGES.length + 1);
      expect(links[0]!.hreflang).toBe('x-default');
      expect(links.map((l) => l.href)).toContain(locs[i]);
      expect(new Set(links.map((l) => l.hreflang))).toEqual(
        new Set(['x-default', ...LANGUAGES.map((l) => LANGUAGE_TAGS[l])]),
      );
    }
    expect(xml).toContain('hreflang="zh-CN" href="https://app.example.com/compare/china?lng=zh"');
  });
});

describe('robots.txt', () => {
  const robots = renderRobots(ORIGIN);
  const disallowed = [...robots.matchAll(/^Disallow: (.+)$/gm)].map((m) => m[1]!);

  it('disallows the API and every private path, and names the sitemap on the configured origin', () => {
    expect(robots.startsWith('User-agent: *\n')).toBe(true);
    expect(disallowed).toEqual(['/api/', ...ROBOTS_DISALLOW]);
    expect(disallowed).toEqual(
      expect.arrayContaining([
        '/downloads/',
        '/d/',
        '/w/',
        '/r/',
        '/invite/',
        '/extension/',
        '/dash',
        '/updatepassword',
      ]),
    );
    expect(robots).toContain(`\nSitemap: ${ORIGIN}/sitemap.xml\n`);
  });

  it('blocks each private address and none of the public pages (as a crawler reads prefixes)', () => {
    const blocked = (path: string) => disallowed.some((rule) => path.startsWith(rule));
    for (const path of PRIVATE_SAMPLES) expect(blocked(path), path).toBe(true);
    for (const page of SEO_PAGES) expect(blocked(page.path), page.path).toBe(false);
    expect(blocked('/roadmap/whatever')).toBe(false);
  });
});

describe('public origin', () => {
  it('is PUBLIC_ORIGIN, else APP_ORIGIN, else the local app, without a trailing slash', () => {
    expect(
      publicOrigin({ PUBLIC_ORIGIN: 'https://send.example.com/', APP_ORIGIN: 'http://x' }, 'http://127.0.0.1:5173'),
    ).toBe('https://send.example.com');
    expect(publicOrigin({ APP_ORIGIN: 'https://app.example.com' }, 'http://127.0.0.1:5173')).toBe(
      'https://app.example.com',
    );
    expect(publicOrigin({}, 'http://127.0.0.1:5173')).toBe('http://127.0.0.1:5173');
  });

  it('refuses what is not an http(s) origin', () => {
    expect(() => publicOrigin({ PUBLIC_ORIGIN: 'app.example.com' }, 'http://127.0.0.1')).toThrow(/PUBLIC_ORIGIN/);
    expect(() => publicOrigin({ PUBLIC_ORIGIN: 'https://app.example.com/path' }, 'http://127.0.0.1')).toThrow(
      /without a path/,
    );
    expect(() => publicOrigin({ PUBLIC_ORIGIN: 'ftp://app.example.com' }, 'http://127.0.0.1')).toThrow(/http/);
  });
});
