import { describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import { createDispatcher } from '../../../functions/lib/dispatch';
import {
  FUNCTION_GROUPS,
  functionGroupOf,
  functionsOf,
  handlerDirOf,
  routeKeyOf,
  routes,
  type RouteDef,
} from '../../../functions/routes';

const ctx = {} as Context;

describe('the dispatcher of a grouped function', () => {
  it("calls the handler of the event's route key with the event and context", async () => {
    const seen: unknown[] = [];
    const dispatch = createDispatcher({
      'GET /api/a': async () => ({ handler: async (e: unknown, c: unknown) => (seen.push(e, c), 'a') }),
      'GET /api/b': async () => ({ handler: async () => 'b' }),
    });
    const event = { routeKey: 'GET /api/a', rawPath: '/api/a' };
    expect(await dispatch(event, ctx)).toBe('a');
    expect(seen).toEqual([event, ctx]);
    expect(await dispatch({ routeKey: 'GET /api/b' }, ctx)).toBe('b');
  });

  it("loads a route's module once, on its first request, and never the other routes' modules", async () => {
    const loads: string[] = [];
    const dispatch = createDispatcher({
      'GET /api/a': async () => (loads.push('a'), { handler: async () => 1 }),
      'GET /api/b': async () => (loads.push('b'), { handler: async () => 2 }),
    });
    expect(loads).toEqual([]);
    await Promise.all([dispatch({ routeKey: 'GET /api/a' }, ctx), dispatch({ routeKey: 'GET /api/a' }, ctx)]);
    await dispatch({ routeKey: 'GET /api/a' }, ctx);
    expect(loads).toEqual(['a']);
  });

  it('answers 404 route_not_found for a route key it does not serve, including inherited names', async () => {
    const dispatch = createDispatcher({ 'GET /api/a': async () => ({ handler: async () => 1 }) });
    for (const routeKey of ['GET /api/b', 'toString', '__proto__', undefined]) {
      const res = (await dispatch({ routeKey }, ctx)) as { statusCode: number; body: string };
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ error: { code: 'route_not_found', message: 'Not found' } });
    }
  });

  it('retries a module whose import failed instead of caching the failure', async () => {
    let tries = 0;
    const dispatch = createDispatcher({
      'GET /api/a': async () => {
        tries += 1;
        if (tries === 1) throw new Error('flaky import');
        return { handler: async () => 'ok' };
      },
    });
    await expect(dispatch({ routeKey: 'GET /api/a' }, ctx)).rejects.toThrow('flaky import');
    expect(await dispatch({ routeKey: 'GET /api/a' }, ctx)).toBe('ok');
  });

  it('refuses a module without a handler export', async () => {
    const dispatch = createDispatcher({ 'GET /api/a': async () => ({}) });
    await expect(dispatch({ routeKey: 'GET /api/a' }, ctx)).rejects.toThrow('does not export handler');
  });
});

describe('grouping of the route table into functions', () => {
  it('puts every route in exactly one group, and every directory in at most one', () => {
    const dirs = Object.values(FUNCTION_GROUPS).flat();
    expect(new Set(dirs).size).toBe(dirs.length);
    const grouped = functionsOf().flatMap((f) => f.routes);
    expect(grouped).toHaveLength(routes.length);
    expect(new Set(grouped)).toEqual(new Set(routes));
  });

  it("gives each function the union of its routes' access and invokes, the longest timeout and the largest memory", () => {
    for (const fn of functionsOf()) {
      expect(new Set(fn.access)).toEqual(new Set(fn.routes.flatMap((r) => r.access)));
      expect(new Set(fn.invokes)).toEqual(new Set(fn.routes.flatMap((r) => r.invokes ?? [])));
      expect(fn.timeoutSeconds).toBe(Math.max(...fn.routes.map((r) => r.timeoutSeconds ?? 10)));
    }
    const [fn] = functionsOf([
      { method: 'GET', path: '/x', handler: 'http/me/x', auth: 'jwt', access: ['table:read'], memoryMb: 256 },
      {
        method: 'POST',
        path: '/y',
        handler: 'http/me/y',
        auth: 'jwt',
        access: ['table:write', 'table:read'],
        timeoutSeconds: 29,
        memoryMb: 1024,
      },
    ]);
    expect(fn).toMatchObject({ name: 'me', access: ['table:read', 'table:write'], timeoutSeconds: 29, memoryMb: 1024 });
  });

  it('refuses a handler outside functions/http/<dir>/ or in a directory no group names', () => {
    expect(() => handlerDirOf('jobs/heartbeat')).toThrow('not under functions/http');
    const stray: RouteDef = { method: 'GET', path: '/z', handler: 'http/nowhere/z', auth: 'none', access: [] };
    expect(() => functionGroupOf(stray)).toThrow('belongs to no group');
  });

  it('builds route keys as API Gateway does, with the /api prefix', () => {
    expect(routeKeyOf({ method: 'POST', path: '/transfers/{id}/sign' })).toBe('POST /api/transfers/{id}/sign');
  });
});
