import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { routes } from '@/app/routes';
import { dashPaths } from '@/app/dash-paths';
import { isServedPath } from '@/lib/served-routes';

describe('file request routes', () => {
  it('serves the public page and both dashboard screens at the addresses their links build', () => {
    for (const path of [paths.fileRequest('AbCd1234'), dashPaths.requests(), dashPaths.request('AbCd1234')])
      expect(isServedPath(routes, path), path).toBe(true);
    expect(paths.fileRequest('a/b')).toBe('/r/a%2Fb');
  });

  it('names the routes and keeps the dashboard screens behind its guard', () => {
    const ids = (path: string) => (matchRoutes(routes, path) ?? []).map((m) => m.route.id);
    expect(ids('/r/AbCd1234')).toContain('fileRequest');
    expect(ids('/dash/requests')).toEqual(expect.arrayContaining(['dash', 'dash-layout', 'requests']));
    expect(ids('/dash/requests/AbCd1234')).toEqual(expect.arrayContaining(['dash', 'dash-layout', 'requestDetail']));
  });
});
