import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createGateway } from '../../../scripts/local/gateway/server';
import { securityHeaders } from '../../../frontend/csp';
import type { RouteDef } from '../../../functions/routes';

const SECRET = 'the-app-origins-secret';
const HEADERS = securityHeaders({ storage: ['http://127.0.0.1:4569'] });

const gateway = createGateway({
  routes: [
    { method: 'POST', path: '/echo/{id}', handler: 'echo', auth: 'none', access: [] } satisfies RouteDef,
    { method: 'GET', path: '/throws', handler: 'throws', auth: 'none', access: [] } satisfies RouteDef,
  ],
  functionsDir: fileURLToPath(new URL('../../fixtures/functions', import.meta.url)),
  checkJwt: async () => undefined,
  corsOrigins: ['http://app.test'],
  functionOf: (r) => r.handler,
  originSecret: SECRET,
  responseHeaders: HEADERS,
});
let port: number;

beforeAll(async () => {
  port = await gateway.listen(0);
});
afterAll(() => gateway.close());

/** fetch() will not send another Host: a raw request does. */
function request(
  path: string,
  host: string,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method, headers: { host, 'content-type': 'application/json', ...headers } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe("the local gateway's own port", () => {
  it.each(['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST'])('answers Host %s', async (name) => {
    const res = await request('/api/echo/x', `${name}:${port}`);
    expect(res.status, res.body).toBe(200);
  });

  it.each(['rebind.attacker.example', '192.168.1.20', '0.0.0.0', 'localhost.attacker.example'])(
    'refuses Host %j with 421, as the app port does',
    async (name) => {
      const res = await request('/api/echo/x', `${name}:${port}`);
      expect(res.status).toBe(421);
      expect(res.body).not.toContain('rawPath');
      // the preflight and the Lambda Invoke API sit behind the same gate
      expect(
        (
          await request(
            '/api/echo/x',
            `${name}:${port}`,
            { origin: 'http://app.test', 'access-control-request-method': 'POST' },
            'OPTIONS',
          )
        ).status,
      ).toBe(421);
      expect(
        (
          await request('/2015-03-31/functions/zip-build/invocations', `${name}:${port}`, {
            'x-amz-invocation-type': 'Event',
          })
        ).status,
      ).toBe(421);
    },
  );

  it("lets a custom domain's Host through only beside the app origin's secret (the app origin gated it already)", async () => {
    expect((await request('/api/echo/x', 'files.acme.test:5173', { 'x-origin-verify': SECRET })).status).toBe(200);
    expect((await request('/api/echo/x', 'files.acme.test:5173', { 'x-origin-verify': 'a guess' })).status).toBe(421);
  });

  it("sends the app's security headers on every answer: a route's, an error, a 404 and the 421", async () => {
    const answers = await Promise.all([
      request('/api/echo/x', `127.0.0.1:${port}`),
      request('/api/throws', `127.0.0.1:${port}`, {}, 'GET'),
      request('/api/nothing-here', `127.0.0.1:${port}`),
      request('/elsewhere', `127.0.0.1:${port}`),
      request('/api/echo/x', 'rebind.attacker.example'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 500, 404, 404, 421]);
    for (const a of answers)
      for (const [name, value] of Object.entries(HEADERS)) expect(a.headers[name], `${a.status} ${name}`).toBe(value);
    expect(HEADERS['x-frame-options']).toBe('DENY');
    expect(HEADERS['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
