import { describe, expect, it } from 'vitest';
import { COMPARE_REDIRECTS, COMPARE_SLUGS, PLANNED_ROUTES, PRODUCT_SLUGS, ROUTES, paths } from '@/app/paths';
import { routes } from '@/app/routes';
import { isServedPath } from '@/lib/served-routes';

/** A concrete path for a pattern: params get a sample value, splats and optional segments are dropped. */
function sample(pattern: string): string {
  return pattern.replace(/\/\*$/, '/anything').replace(/\/:\w+\?/g, '').replace(/:\w+/g, 'abc1234');
}

describe('routes', () => {
  it('serves every route and alias of the route table', () => {
    for (const { pattern, aliases } of Object.values(ROUTES)) {
      for (const path of [pattern, ...aliases]) expect(isServedPath(routes, sample(path)), path).toBe(true);
    }
  });

  it('does not serve the routes planned for later issues (they fall through to /404/)', () => {
    for (const { pattern, aliases } of PLANNED_ROUTES) {
      for (const path of [pattern, ...aliases]) expect(isServedPath(routes, sample(path)), path).toBe(false);
    }
    expect(isServedPath(routes, '/dash')).toBe(false);
    expect(isServedPath(routes, '/downloads/abc1234/bob/zip')).toBe(false);
  });

  it('serves the legacy comparison addresses', () => {
    for (const { from } of COMPARE_REDIRECTS) expect(isServedPath(routes, from), from).toBe(true);
  });

  it('every href builder points at a served route', () => {
    const hrefs = [
      paths.home(),
      paths.pricing(),
      paths.pricing({ plan: 'free', save: true }),
      paths.about(),
      paths.updates(),
      paths.roadmap(),
      paths.roadmap('accounts'),
      paths.support(),
      paths.support({ article: 'security' }),
      paths.affiliate(),
      paths.sumo(),
      paths.thankyou(),
      paths.thankyou2(),
      paths.notFound('/x'),
      ...PRODUCT_SLUGS.map(paths.product),
      ...COMPARE_SLUGS.map(paths.compare),
    ];
    for (const href of hrefs) expect(isServedPath(routes, href.split('?')[0] ?? href), href).toBe(true);
  });

  it('an unknown path is not served', () => {
    expect(isServedPath(routes, '/no/such/page')).toBe(false);
  });
});

describe('paths', () => {
  it('notFound keeps the original path and query in one encoded parameter', () => {
    const href = paths.notFound('/no/such/page?x=1&y=2');
    expect(href.startsWith('/404/?')).toBe(true);
    expect(new URLSearchParams(href.split('?')[1]).get('path')).toBe('/no/such/page?x=1&y=2');
  });

  it('pricing carries plan and save only when given', () => {
    expect(paths.pricing()).toBe('/pricing');
    expect(paths.pricing({ plan: 'free' })).toBe('/pricing?plan=free');
    expect(paths.pricing({ plan: 'pro', save: true })).toBe('/pricing?plan=pro&save=1');
  });

  it('support selects an article by query', () => {
    expect(paths.support({ article: 'file-types' })).toBe('/support?article=file-types');
  });
});
