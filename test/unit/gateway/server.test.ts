import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createGateway } from '../../../scripts/local/gateway/server';
import type { RouteDef } from '../../../functions/routes';

const route = (method: RouteDef['method'], path: string, handler: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  method,
  path,
  handler,
  auth: 'none',
  access: [],
  ...extra,
});

const gateway = createGateway({
  routes: [
    route('POST', '/echo/{id}', 'echo'),
    route('GET', '/private', 'echo', { auth: 'jwt' }),
    route('GET', '/keyed', 'echo', { auth: 'key', scope: 'send' }),
    route('GET', '/binary', 'binary'),
    route('GET', '/plain', 'plain'),
    route('GET', '/slow', 'slow', { timeoutSeconds: 1 }),
    route('GET', '/throws', 'throws'),
    route('GET', '/missing', 'does-not-exist'),
  ],
  functionsDir: fileURLToPath(new URL('../../fixtures/functions', import.meta.url)),
  // JWT verification itself is tested against cognito-local in test/integration.
  checkJwt: async (auth) => (auth === 'Bearer good' ? { sub: 'u-1' } : undefined),
  corsOrigins: ['http://app.test'],
  // One function per fixture module; the grouping of the real table is tested in test/unit/gateway/functions.test.ts.
  functionOf: (r) => r.handler,
});
let base: string;

beforeAll(async () => {
  base = `http://127.0.0.1:${await gateway.listen(0)}/api`;
});
afterAll(() => gateway.close());

describe('local gateway HTTP behaviour', () => {
  it('passes cookies, path parameters and binary request bodies, and writes back headers and every cookie', async () => {
    const bytes = new Uint8Array([0, 200, 3, 4]);
    const res = await fetch(`${base}/echo/a%20b?x=1`, {
      method: 'POST',
      body: bytes,
      headers: { cookie: 'rt=abc; t=1', 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-echo')).toBe('yes');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/']);
    expect(await res.json()).toMatchObject({
      rawPath: '/api/echo/a%20b',
      cookies: ['rt=abc', 't=1'],
      pathParameters: { id: 'a b' },
      isBase64Encoded: true,
      bodyBytes: 4,
    });
  });

  it('decodes base64 response bodies into bytes', async () => {
    const res = await fetch(`${base}/binary`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([0, 1, 2, 250, 255]));
  });

  it('wraps a bare returned object as a 200 JSON response', async () => {
    const res = await fetch(`${base}/plain`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hello: 'world' });
  });

  it('checks the token on jwt routes and places the claims for the handler', async () => {
    expect((await fetch(`${base}/private`)).status).toBe(401);
    expect((await fetch(`${base}/private`, { headers: { authorization: 'Bearer bad' } })).status).toBe(401);
    const ok = await fetch(`${base}/private`, { headers: { authorization: 'Bearer good' } });
    expect((await ok.json()).claims).toEqual({ sub: 'u-1' });
  });

  it("passes 'key' routes to the handler unverified, as the HTTP API does (no authorizer), with the Authorization header and no claims", async () => {
    const key = `sbk_local_0123456789abcdef_${'a'.repeat(40)}`;
    const res = await fetch(`${base}/keyed`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const event = await res.json();
    expect(event.authorization).toBe(`Bearer ${key}`);
    expect(event.claims).toBeNull();
    // and a key is no JWT: a jwt route refuses it at the gateway
    expect((await fetch(`${base}/private`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it('answers 500 without details when a handler throws or times out', async () => {
    const thrown = await fetch(`${base}/throws`);
    expect(thrown.status).toBe(500);
    expect(await thrown.text()).not.toContain('hunter2');
    expect((await fetch(`${base}/slow`)).status).toBe(500);
  });

  it('answers 500 for a route whose module is missing, and 404 outside /api', async () => {
    expect((await fetch(`${base}/missing`)).status).toBe(500);
    expect((await fetch(base.replace('/api', '/health'))).status).toBe(404);
  });

  it('adds CORS headers to responses for an allowed origin only', async () => {
    const allowed = await fetch(`${base}/plain`, { headers: { origin: 'http://app.test' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.test');
    const other = await fetch(`${base}/plain`, { headers: { origin: 'http://other.test' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("refuses request bodies over API Gateway's 10 MB", async () => {
    const res = await fetch(`${base}/echo/x`, { method: 'POST', body: new Uint8Array(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
  });
});
