import { describe, expect, it } from 'vitest';
import { buildEvent } from '../../../scripts/local/gateway/event';
import { normaliseResult, rateToMs } from '../../../scripts/local/gateway/server';
import type { RouteDef } from '../../../functions/routes';

const route: RouteDef = { method: 'POST', path: '/transfers/{id}', handler: 'x', auth: 'jwt', access: [] };

function request(over: Partial<Parameters<typeof buildEvent>[0]> = {}) {
  return {
    method: 'POST',
    url: '/api/transfers/abc?b=2&a=1&a=3',
    rawHeaders: [
      'Content-Type',
      'application/json',
      'X-Multi',
      'one',
      'x-multi',
      'two',
      'Cookie',
      'rt=abc; theme=dark',
    ],
    body: Buffer.from('{"k":1}'),
    sourceIp: '127.0.0.1',
    host: '127.0.0.1:3001',
    ...over,
  };
}

describe('API Gateway v2 event built by the local gateway', () => {
  it('lowercases headers, joins repeats with commas and moves cookies out of the headers', () => {
    const e = buildEvent(request(), route, { id: 'abc' }, undefined);
    expect(e.headers).toEqual({ 'content-type': 'application/json', 'x-multi': 'one,two' });
    expect(e.cookies).toEqual(['rt=abc', 'theme=dark']);
  });

  it('keeps the raw query string and joins repeated parameters', () => {
    const e = buildEvent(request(), route, { id: 'abc' }, undefined);
    expect(e.rawPath).toBe('/api/transfers/abc');
    expect(e.rawQueryString).toBe('b=2&a=1&a=3');
    expect(e.queryStringParameters).toEqual({ b: '2', a: '1,3' });
    expect(e.pathParameters).toEqual({ id: 'abc' });
  });

  it('passes text bodies as strings and binary bodies base64-encoded', () => {
    expect(buildEvent(request(), route, {}, undefined)).toMatchObject({ body: '{"k":1}', isBase64Encoded: false });
    const bytes = Buffer.from([0, 255, 1, 2]);
    const bin = buildEvent(
      request({ rawHeaders: ['content-type', 'application/octet-stream'], body: bytes }),
      route,
      {},
      undefined,
    );
    expect(bin.isBase64Encoded).toBe(true);
    expect(Buffer.from(bin.body!, 'base64')).toEqual(bytes);
  });

  it('puts route key, method, source ip and JWT claims where API Gateway does', () => {
    const e = buildEvent(request(), route, {}, { sub: 'u-1', scope: 'a b' });
    expect(e.routeKey).toBe('POST /api/transfers/{id}');
    expect(e.requestContext.http).toMatchObject({ method: 'POST', sourceIp: '127.0.0.1', path: '/api/transfers/abc' });
    expect(e.requestContext.authorizer.jwt).toEqual({ claims: { sub: 'u-1', scope: 'a b' }, scopes: ['a', 'b'] });
  });

  it('has no authorizer context on routes without a JWT', () => {
    const e = buildEvent(request(), { ...route, auth: 'none' }, {}, undefined);
    expect((e.requestContext as { authorizer?: unknown }).authorizer).toBeUndefined();
  });
});

describe('Lambda result to HTTP response', () => {
  it('uses a structured result as it is', () => {
    expect(normaliseResult({ statusCode: 201, body: 'x' })).toEqual({ statusCode: 201, body: 'x' });
  });
  it('turns any other value into a 200 JSON response as API Gateway v2 does', () => {
    expect(normaliseResult({ a: 1 })).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
  });
});

describe('job schedules', () => {
  it('reads EventBridge rate expressions', () => {
    expect(rateToMs('rate(5 minutes)')).toBe(300_000);
    expect(rateToMs('rate(1 hour)')).toBe(3_600_000);
    expect(() => rateToMs('cron(0 * * * ? *)')).toThrow();
  });
});
