import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import {
  INTEGRATION_TIMEOUT_MS,
  MAX_LAMBDA_RESPONSE_BYTES,
  MAX_REQUEST_HEADER_BYTES,
  createGateway,
} from '../../../scripts/local/gateway/server';
import type { RouteDef } from '../../../functions/routes';

const route = (method: RouteDef['method'], path: string, handler: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  method,
  path,
  handler,
  auth: 'none',
  access: [],
  ...extra,
});

const logged: string[] = [];
const gateway = createGateway({
  routes: [
    route('GET', '/huge', 'huge'),
    route('POST', '/echo', 'echo'),
    route('GET', '/hangs', 'hangs', { timeoutSeconds: 5 }),
  ],
  functionsDir: fileURLToPath(new URL('../../fixtures/functions', import.meta.url)),
  checkJwt: async () => undefined,
  corsOrigins: [],
  functionOf: (r) => r.handler,
  log: (line) => logged.push(line),
  // The only shortened limit, so the test need not wait 30 s; the production value is asserted below.
  integrationTimeoutMs: 300,
});
let base: string;

beforeAll(async () => {
  base = `http://127.0.0.1:${await gateway.listen(0)}/api`;
});
afterAll(() => gateway.close());

describe("the local gateway holds API Gateway's and Lambda's limits", () => {
  it('passes an answer just under 6 MB and refuses one over it as the HTTP API does (500), logging why', async () => {
    const under = await fetch(`${base}/huge?bytes=${MAX_LAMBDA_RESPONSE_BYTES - 1000}`);
    expect(under.status).toBe(200);
    expect((await under.arrayBuffer()).byteLength).toBeGreaterThan(MAX_LAMBDA_RESPONSE_BYTES - 1000);

    logged.length = 0;
    const over = await fetch(`${base}/huge?bytes=${7 * 1024 * 1024}`);
    expect(over.status).toBe(500);
    expect(await over.json()).toEqual({ message: 'Internal Server Error' });
    expect(logged.join('\n')).toMatch(/LAMBDA RESPONSE TOO LARGE: \d+ bytes/);
  });

  it('counts the serialised result as Lambda does: a body whose escaping takes it over 6 MB is refused', async () => {
    // The body alone is just under 6 MB; the result around it (status, headers, the body's quotes
    // escaped inside a JSON string) takes the invoke payload over, as Lambda counts it.
    const res = await fetch(`${base}/huge?bytes=${MAX_LAMBDA_RESPONSE_BYTES - 20}`);
    expect(res.status).toBe(500);
  });

  it('refuses a request body over 10 MB with 413 before the function runs', async () => {
    const res = await fetch(`${base}/echo`, { method: 'POST', body: new Uint8Array(11 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request Entity Too Large' });
  });

  it('refuses a request line and header values over 10,240 bytes', async () => {
    const ok = await fetch(`${base}/echo`, {
      method: 'POST',
      body: '{}',
      headers: { 'x-pad': 'p'.repeat(MAX_REQUEST_HEADER_BYTES - 500) },
    });
    expect(ok.status).toBe(200);
    const res = await fetch(`${base}/echo`, {
      method: 'POST',
      body: '{}',
      headers: { 'x-pad': 'p'.repeat(MAX_REQUEST_HEADER_BYTES) },
    });
    expect(res.status).toBe(431);
    const longUrl = await fetch(`${base}/echo?q=${'q'.repeat(MAX_REQUEST_HEADER_BYTES)}`, {
      method: 'POST',
      body: '{}',
    });
    expect(longUrl.status).toBe(431);
  });

  it('answers 503 when the integration does not answer in time; in production that time is 30 s', async () => {
    expect(INTEGRATION_TIMEOUT_MS).toBe(30_000);
    logged.length = 0;
    const res = await fetch(`${base}/hangs`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: 'Service Unavailable' });
    expect(logged.join('\n')).toMatch(/INTEGRATION TIMEOUT/);
  });

  it('reports a broken limit on stderr when no log is wired', async () => {
    const quiet = createGateway({
      routes: [route('GET', '/huge', 'huge')],
      functionsDir: fileURLToPath(new URL('../../fixtures/functions', import.meta.url)),
      checkJwt: async () => undefined,
      corsOrigins: [],
      functionOf: (r) => r.handler,
    });
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const port = await quiet.listen(0);
      expect((await fetch(`http://127.0.0.1:${port}/api/huge?bytes=${7 * 1024 * 1024}`)).status).toBe(500);
      expect(err.mock.calls.flat().join('\n')).toMatch(/LAMBDA RESPONSE TOO LARGE/);
    } finally {
      err.mockRestore();
      await quiet.close();
    }
  });
});
