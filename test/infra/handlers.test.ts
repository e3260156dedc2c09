import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jobs, routes } from '../../functions/routes';
import { handlerEntry } from '../../lib/paths';

const modules = [...new Set([...routes.map((r) => r.handler), ...jobs.map((j) => j.handler)])];

describe('handler modules of the route table', () => {
  it.each(modules)('functions/%s.ts exists and exports a handler function', async (handler) => {
    const entry = handlerEntry(handler);
    expect(existsSync(entry), `${entry} is missing`).toBe(true);
    // No env is set here: importing a handler must not need configuration (functions/lib/env.ts).
    const mod = (await import(entry)) as { handler?: unknown };
    expect(typeof mod.handler).toBe('function');
  });

  it('names every route once per method and path', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names every job once', () => {
    const names = jobs.map((j) => j.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
