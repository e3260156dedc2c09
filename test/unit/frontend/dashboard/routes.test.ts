import { describe, expect, it } from 'vitest';
import { matchRoutes, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { paths } from '@/app/paths';
import { dashRoutes } from '@/app/dash-routes';

// Mounted as the session helper does: the children of /dash.
const tree: RouteObject[] = [{ path: '/dash', children: dashRoutes }];
const deepest = (path: string) => matchRoutes(tree, path)?.at(-1)?.route;

describe('/dash children (spec §2)', () => {
  it('serves home, account and profile under the named route ids', () => {
    expect(deepest('/dash')?.id).toBe('dashboard');
    expect(deepest('/dash/')?.id).toBe('dashboard');
    expect(deepest('/dash/account')?.id).toBe('account');
    expect(deepest('/dash/account/profile')?.id).toBe('accountProfile');
    expect(deepest('/dash/analytics')?.id).toBe('analytics');
    expect(deepest('/dash/transfers')?.id).toBe('transfers');
    expect(deepest('/dash/contacts')?.id).toBe('contacts');
    // The TransferModal is the list's child: the list stays rendered behind it.
    expect(matchRoutes(tree, '/dash/transfers/abc1234')?.map((m) => m.route.id)).toEqual([
      undefined,
      'dash-layout',
      'transfers',
      'TransferModal',
    ]);
    // the storage region picker, settings, and the roadmap inside the dashboard layout
    expect(deepest('/dash/data-residency')?.path).toBe('data-residency');
    expect(deepest('/dash/settings')?.path).toBe('settings');
    expect(matchRoutes(tree, '/dash/roadmap')?.map((m) => m.route.path)).toEqual(['/dash', undefined, 'roadmap/*']);
    expect(deepest('/dash/roadmap/item-1')?.path).toBe('roadmap/*');
  });

  it('loads each screen on demand', async () => {
    for (const path of [
      '/dash',
      '/dash/account',
      '/dash/account/profile',
      '/dash/analytics',
      '/dash/transfers',
      '/dash/transfers/abc1234',
      '/dash/contacts',
      '/dash/requests',
      '/dash/requests/abc1234',
      '/dash/data-residency',
      '/dash/settings',
      '/dash/roadmap',
    ]) {
      const matches = matchRoutes(tree, path) ?? [];
      for (const { route } of matches.slice(1)) {
        const lazy = route.lazy as (() => Promise<Partial<RouteObject>>) | undefined;
        expect(lazy, `${path} ${route.id}`).toBeTypeOf('function');
        expect((await lazy!()).Component, `${path} ${route.id}`).toBeTypeOf('function');
      }
    }
  }, 30_000); // imports (and compiles) every dashboard screen

  // ---- file requests ----
  it('serves the requests list and one request, each loaded on demand', async () => {
    expect(deepest('/dash/requests')?.id).toBe('requests');
    expect(matchRoutes(tree, '/dash/requests/AbCd1234')?.map((m) => m.route.id)).toEqual([
      undefined,
      'dash-layout',
      'requestDetail',
    ]);
    for (const path of ['/dash/requests', '/dash/requests/AbCd1234']) {
      const route = deepest(path)!;
      const lazy = route.lazy as () => Promise<Partial<RouteObject>>;
      expect((await lazy()).Component, path).toBeTypeOf('function');
    }
  });

  // ---- billing ----
  it('serves the billing page and its invoices under the account, each loaded on demand with the billing catalogue', async () => {
    expect(deepest('/dash/account/billing')?.id).toBe('accountBilling');
    expect(deepest('/dash/account/billing/invoices/in_sim_1')?.id).toBe('accountInvoice');
    expect(paths.accountBilling()).toBe('/dash/account/billing');
    for (const path of ['/dash/account/billing', '/dash/account/billing/invoices/in_sim_1']) {
      const lazy = deepest(path)!.lazy as () => Promise<Partial<RouteObject>>;
      expect((await lazy()).Component, path).toBeTypeOf('function');
    }
  });

  it('sends the old /dash/billing to /dash/account/billing, keeping the query', async () => {
    const route = deepest('/dash/billing');
    const request = new Request('http://app.test/dash/billing?x=1');
    const response = (await (route!.loader as (args: LoaderFunctionArgs) => unknown)({
      request,
      params: {},
      context: undefined,
    } as LoaderFunctionArgs)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/dash/account/billing?x=1');
  });

  it('sends the old /dash/teams to /dash/account/teams, keeping the query', async () => {
    const route = deepest('/dash/teams');
    const request = new Request('http://app.test/dash/teams?x=1');
    const response = (await (route!.loader as (args: LoaderFunctionArgs) => unknown)({
      request,
      params: {},
      context: undefined,
    } as LoaderFunctionArgs)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/dash/account/teams?x=1');
  });

  // branding under the account; the former /dash/customize redirects there
  it('serves customize and powered-by under the account, and moves /dash/customize there', async () => {
    expect(deepest('/dash/account/customize')?.id).toBe('accountCustomize');
    expect(deepest('/dash/account/powered-by')?.id).toBe('accountPoweredBy');
    const route = deepest('/dash/customize');
    const response = (await (route!.loader as (args: LoaderFunctionArgs) => unknown)({
      request: new Request('http://app.test/dash/customize'),
      params: {},
      context: undefined,
    } as LoaderFunctionArgs)) as Response;
    expect(response.headers.get('Location')).toBe(paths.accountCustomize());
  });

  it.each(['/dash/powered-by', '/dash/account/unknown'])(
    'sends the unknown %s to /404/ with the path',
    async (path) => {
      const route = deepest(path);
      expect(route?.path).toBe('*');
      const request = new Request(`http://app.test${path}?tab=1`);
      const response = (await (route!.loader as (args: LoaderFunctionArgs) => unknown)({
        request,
        params: {},
        context: undefined,
      } as LoaderFunctionArgs)) as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe(paths.notFound(`${path}?tab=1`));
    },
  );
});
