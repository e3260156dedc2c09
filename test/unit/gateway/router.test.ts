import { describe, expect, it } from 'vitest';
import { createRouter } from '../../../scripts/local/gateway/router';
import type { RouteDef } from '../../../functions/routes';

const r = (method: RouteDef['method'], path: string): RouteDef => ({
  method,
  path,
  handler: `h${path}`,
  auth: 'none',
  access: [],
});

describe('local gateway router', () => {
  const router = createRouter([
    r('GET', '/files/{proxy+}'),
    r('GET', '/transfers/{id}'),
    r('GET', '/transfers/mine'),
    r('POST', '/transfers/{id}'),
    r('GET', '/health'),
  ]);

  it('prefers a literal segment over a parameter whatever the declaration order', () => {
    expect(router.match('GET', '/transfers/mine')?.route.path).toBe('/transfers/mine');
    expect(router.match('GET', '/transfers/abc1234')?.pathParameters).toEqual({ id: 'abc1234' });
  });

  it('matches on method as well as path', () => {
    expect(router.match('POST', '/transfers/x')?.route.method).toBe('POST');
    expect(router.match('DELETE', '/transfers/x')).toBeUndefined();
  });

  it('gives a greedy proxy parameter the rest of the path, decoded', () => {
    expect(router.match('GET', '/files/a/b%20c/d.txt')?.pathParameters).toEqual({ proxy: 'a/b c/d.txt' });
    expect(router.match('GET', '/files')).toBeUndefined();
  });

  it('does not match a longer or shorter path', () => {
    expect(router.match('GET', '/health/extra')).toBeUndefined();
    expect(router.match('GET', '/transfers')).toBeUndefined();
  });

  it('refuses a route declared twice', () => {
    expect(() => createRouter([r('GET', '/a/{x}'), r('GET', '/a/{y}')])).toThrow(/declared twice/);
  });
});
