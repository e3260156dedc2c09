import { describe, expect, it } from 'vitest';
import { createMemoryRouter, matchRoutes } from 'react-router';
import { COMPARE_REDIRECTS, COMPARE_SLUGS, PLANNED_ROUTES, PRODUCT_SLUGS, ROUTES, paths } from '@/app/paths';
import { routes } from '@/app/routes';
import { isServedPath } from '@/lib/served-routes';

/** A concrete path for a pattern: params get a sample value, splats and optional segments are dropped. */
function sample(pattern: string): string {
  return pattern
    .replace(/\/\*$/, '/anything')
    .replace(/\/:\w+\?/g, '')
    .replace(/:\w+/g, 'abc1234');
}

describe('routes', () => {
  it('serves every route and alias of the route table', () => {
    for (const { pattern, aliases } of Object.values(ROUTES)) {
      for (const path of [pattern, ...aliases]) expect(isServedPath(routes, sample(path)), path).toBe(true);
    }
  });

  it('does not serve the routes planned for later issues (they fall through to /404/)', () => {
    for (const { pattern } of PLANNED_ROUTES) expect(isServedPath(routes, sample(pattern)), pattern).toBe(false);
  });

  it('serves the account screens and the dashboard behind its guard', () => {
    for (const path of ['/login', '/signup/login', '/register', '/updatepassword', '/dash', '/dash/account/profile']) {
      expect(isServedPath(routes, path), path).toBe(true);
    }
    const dash = matchRoutes(routes, '/dash')?.find((m) => m.route.id === 'dash');
    expect(dash?.route.loader).toBeTypeOf('function');
  });

  it('serves the download page at every address of spec §2, and nothing deeper', () => {
    for (const path of [
      '/downloads/abc1234',
      '/downloads/abc1234/Ab3dEf7h',
      '/downloads/abc1234/Ab3dEf7h/downloadZip',
      '/d/abc1234',
      '/d/abc1234/Ab3dEf7h',
      '/w/abc1234',
      '/extension/tok',
    ]) {
      expect(isServedPath(routes, path), path).toBe(true);
    }
    expect(isServedPath(routes, '/downloads')).toBe(false);
    expect(isServedPath(routes, '/downloads/abc1234/Ab3dEf7h/downloadZip/more')).toBe(false);
    expect(isServedPath(routes, '/d/abc1234/Ab3dEf7h/downloadZip')).toBe(false);
    expect(isServedPath(routes, '/w/abc1234/more')).toBe(false);
  });

  it('/d is an alias of the download page: same screen, same params', () => {
    const matches = (path: string) => matchRoutes(routes, path)?.at(-1);
    const alias = matches('/d/abc1234/Ab3dEf7h');
    const canonical = matches('/downloads/abc1234/Ab3dEf7h');
    expect(alias?.params).toMatchObject({ id: 'abc1234', user: 'Ab3dEf7h' });
    expect(alias?.route.lazy).toBe(canonical?.route.lazy);
    expect(canonical?.route.id).toBe('downloads');
  });

  it('/signup/login is an alias of Login: same screen, the query kept', () => {
    const alias = matchRoutes(routes, '/signup/login')?.at(-1);
    const canonical = matchRoutes(routes, '/login')?.at(-1);
    expect(canonical?.route.id).toBe('login');
    expect(alias?.route.lazy).toBe(canonical?.route.lazy);
  });

  it('a visitor without a session who opens the dashboard lands on Login with the full path to return to', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/dash/account/profile?tab=1'] });
    await router.initialize();
    for (let i = 0; i < 100 && (!router.state.initialized || router.state.navigation.state !== 'idle'); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const { pathname, search } = router.state.location;
    router.dispose();
    expect(pathname).toBe('/login');
    expect(new URLSearchParams(search).get('redirect')).toBe('/dash/account/profile?tab=1');
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
      paths.downloads('abc1234'),
      paths.downloads('abc1234', { recipient: 'Ab3dEf7h' }),
      paths.downloads('abc1234', { recipient: 'Ab3dEf7h', downloadZip: true }),
      paths.downloads('abc1234', { downloadZip: true }),
      paths.publicLink('abc1234'),
      paths.extension('a'.repeat(43)),
      paths.login(),
      paths.login({ user: 'jane@example.com', redirect: '/dash', forgotPass: true }),
      paths.register({ step: 2, plan: 'pro' }),
      paths.updatePassword('a'.repeat(43)),
      paths.dash(),
      paths.accountProfile(),
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

  it('login, register and updatePassword carry their query only when given', () => {
    expect(paths.login()).toBe('/login');
    expect(paths.login({ user: 'jane@example.com', redirect: '/dash/transfers?x=1', forgotPass: true })).toBe(
      '/login?user=jane%40example.com&redirect=%2Fdash%2Ftransfers%3Fx%3D1&forgotPass=1',
    );
    expect(paths.register()).toBe('/register');
    expect(paths.register({ step: 3, plan: 'pro' })).toBe('/register?step=3&plan=pro');
    expect(paths.updatePassword('tok')).toBe('/updatepassword?t=tok');
  });

  it('support selects an article by query', () => {
    expect(paths.support({ article: 'file-types' })).toBe('/support?article=file-types');
  });

  it('downloads adds the recipient and the downloadZip segment only when given', () => {
    expect(paths.downloads('abc1234')).toBe('/downloads/abc1234');
    expect(paths.downloads('abc1234', { recipient: 'Ab3dEf7h' })).toBe('/downloads/abc1234/Ab3dEf7h');
    expect(paths.downloads('abc1234', { recipient: 'Ab3dEf7h', downloadZip: true })).toBe(
      '/downloads/abc1234/Ab3dEf7h/downloadZip',
    );
    expect(paths.publicLink('abc1234')).toBe('/w/abc1234');
    expect(paths.extension('tok_en-1')).toBe('/extension/tok_en-1');
  });
});
