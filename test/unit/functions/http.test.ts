import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { httpRoute, MAX_JSON_BODY_BYTES } from '../../../functions/lib/http';
import { conflict, HttpError, tooManyRequests } from '../../../functions/lib/errors';
import { loginRequestSchema } from '../../../functions/domain/auth-api';
import { httpEvent, lambdaContext } from '../../helpers/events';

const echo = httpRoute(
  {
    body: z.object({ name: z.string().check(z.minLength(1)) }),
    query: z.object({ page: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 0) }),
  },
  async ({ body, query }) => ({ status: 201, body: { hello: body.name, page: query.page } }),
);

const call = (h: typeof echo, e = httpEvent()) => h(e, lambdaContext());
const parse = (r: Awaited<ReturnType<typeof echo>>) =>
  JSON.parse(typeof r === 'object' && r && 'body' in r ? String(r.body) : '{}');

describe('the middy stack every handler uses', () => {
  it('hands the handler the parsed body and query and serialises its reply', async () => {
    const res = await call(
      echo,
      httpEvent({
        method: 'POST',
        body: '{"name":"Ada"}',
        rawQueryString: 'page=2',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(res).toMatchObject({
      statusCode: 201,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
    expect(parse(res)).toEqual({ hello: 'Ada', page: 2 });
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await call(
      echo,
      httpEvent({ method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' } }),
    );
    expect(res).toMatchObject({ statusCode: 400 });
    expect(res).toMatchObject({ headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } });
    expect(parse(res).error.code).toBe('invalid_json');
  });

  it('answers a body of the wrong shape with 400 invalid_request naming the field', async () => {
    const res = await call(
      echo,
      httpEvent({ method: 'POST', body: '{"name":42}', headers: { 'content-type': 'application/json' } }),
    );
    expect(res).toMatchObject({ statusCode: 400 });
    const body = parse(res);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.field).toBe('name');
    expect(body.error.details.issues).toEqual([{ code: 'invalid_type', field: 'name', message: expect.any(String) }]);
  });

  it("answers a domain schema's problems with their stable codes and English texts", async () => {
    const h = httpRoute({ body: loginRequestSchema }, async () => ({ status: 200 }));
    const res = await call(
      h,
      httpEvent({
        method: 'POST',
        body: '{"email":"Ann@","password":""}',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(res).toMatchObject({ statusCode: 400 });
    expect(parse(res)).toEqual({
      error: {
        code: 'invalid_request',
        message: 'body: email Enter a valid email address',
        field: 'email',
        details: {
          where: 'body',
          issues: [
            { code: 'invalid_email', field: 'email', message: 'Enter a valid email address' },
            { code: 'password_required', field: 'password', message: 'Password is required' },
          ],
        },
      },
    });
  });

  it('says how long to wait on 429, in the header and the details', async () => {
    const h = httpRoute({}, async () => {
      throw tooManyRequests(120, 'Too many tries.');
    });
    const res = await call(h);
    expect(res).toMatchObject({ statusCode: 429, headers: { 'retry-after': '120' } });
    expect(parse(res)).toEqual({
      error: { code: 'rate_limited', message: 'Too many tries.', details: { retryAfterSeconds: 120 } },
    });
  });

  it('decodes base64 bodies', async () => {
    const res = await call(
      echo,
      httpEvent({
        method: 'POST',
        body: Buffer.from('{"name":"Bo"}').toString('base64'),
        isBase64Encoded: true,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(parse(res).hello).toBe('Bo');
  });

  it('refuses oversized bodies with 413 and other content types with 415', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(MAX_JSON_BODY_BYTES) });
    expect(
      await call(echo, httpEvent({ method: 'POST', body: big, headers: { 'content-type': 'application/json' } })),
    ).toMatchObject({ statusCode: 413 });
    expect(
      await call(echo, httpEvent({ method: 'POST', body: '<x/>', headers: { 'content-type': 'application/xml' } })),
    ).toMatchObject({ statusCode: 415 });
  });

  it('turns a thrown typed error into its status and stable code', async () => {
    const h = httpRoute({}, async () => {
      throw conflict('email_taken', 'This email has been taken');
    });
    const res = await call(h);
    expect(res).toMatchObject({ statusCode: 409 });
    expect(parse(res)).toEqual({ error: { code: 'email_taken', message: 'This email has been taken' } });
  });

  it('hides the details of unexpected errors behind a generic 500', async () => {
    const h = httpRoute({}, async () => {
      throw new Error('secret connection string leaked');
    });
    const res = await call(h);
    expect(res).toMatchObject({ statusCode: 500 });
    expect(JSON.stringify(res)).not.toContain('secret');
    expect(parse(res).error.code).toBe('internal_error');
  });

  it('does not expose a 5xx HttpError message either', async () => {
    const h = httpRoute({}, async () => {
      throw new HttpError(502, 'upstream', 'upstream said: password=hunter2');
    });
    const res = await call(h);
    expect(JSON.stringify(res)).not.toContain('hunter2');
  });

  it('passes JWT claims and the source address to the handler', async () => {
    const h = httpRoute({}, async ({ claims, sourceIp }) => ({ body: { sub: claims?.sub, sourceIp } }));
    const e = httpEvent();
    e.requestContext.authorizer.jwt.claims = { sub: 'user-1' };
    expect(parse(await call(h, e))).toEqual({ sub: 'user-1', sourceIp: '203.0.113.9' });
  });
});

describe('a backing service that does not answer', () => {
  const failing = (err: unknown) =>
    httpRoute({}, async () => {
      throw err;
    });
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), {
    code: 'ECONNREFUSED',
    $metadata: { attempts: 3 },
  });

  it.each([
    ['a refused connection', refused],
    ['a reset connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    [
      "the SDK's request timeout",
      Object.assign(new Error('Connection timed out after 30000 ms'), { name: 'TimeoutError' }),
    ],
    [
      'each address refused (AggregateError)',
      new AggregateError(
        [refused, Object.assign(new Error('connect ECONNREFUSED ::1:8000'), { code: 'ECONNREFUSED' })],
        '',
      ),
    ],
    ['a wrapped refusal', new Error('query failed', { cause: refused })],
    [
      'the service saying so',
      Object.assign(new Error('Service Unavailable'), {
        name: 'ServiceUnavailable',
        $metadata: { httpStatusCode: 503 },
      }),
    ],
  ])('%s answers 503 service_unavailable with Retry-After', async (_what, err) => {
    const res = await call(failing(err));
    expect(res).toMatchObject({ statusCode: 503, headers: { 'retry-after': '5', 'cache-control': 'no-store' } });
    expect(parse(res).error).toEqual({
      code: 'service_unavailable',
      message: expect.any(String),
      details: { retryAfterSeconds: 5 },
    });
    expect(JSON.stringify(res)).not.toContain('127.0.0.1');
  });

  it('leaves throttling its own code, and any other failure a 500', async () => {
    expect(
      parse(
        await call(
          failing(
            Object.assign(new Error('slow down'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }),
          ),
        ),
      ).error.code,
    ).toBe('service_busy');
    const other = await call(failing(new TypeError('x is undefined')));
    expect(other).toMatchObject({ statusCode: 500 });
    expect(parse(other).error.code).toBe('internal_error');
  });
});

describe('the client address', () => {
  it("is CloudFront's viewer address when present (IPv4 and IPv6, port dropped), else API Gateway's source IP", async () => {
    const { clientAddressOf } = await import('../../../functions/lib/http');
    const cf = { 'x-origin-verify': 's3cret-value' };
    expect(
      clientAddressOf({ ...cf, 'cloudfront-viewer-address': '198.51.100.10:46532' }, '130.176.1.1', 's3cret-value'),
    ).toBe('198.51.100.10');
    expect(
      clientAddressOf(
        { ...cf, 'cloudfront-viewer-address': '2001:db8:85a3::8a2e:370:7334:46532' },
        '130.176.1.1',
        's3cret-value',
      ),
    ).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(clientAddressOf(cf, '203.0.113.9', 's3cret-value')).toBe('203.0.113.9');
    expect(
      clientAddressOf({ ...cf, 'cloudfront-viewer-address': 'not an address:1' }, '203.0.113.9', 's3cret-value'),
    ).toBe('203.0.113.9');
    expect(clientAddressOf({}, undefined, 's3cret-value')).toBe('');
  });

  it('trusts no viewer address when no origin secret is configured: anyone could send the header', async () => {
    const { clientAddressOf } = await import('../../../functions/lib/http');
    expect(clientAddressOf({ 'cloudfront-viewer-address': '198.51.100.10:46532' }, '127.0.0.1', undefined)).toBe(
      '127.0.0.1',
    );
    expect(
      clientAddressOf(
        { 'cloudfront-viewer-address': '198.51.100.10:46532', 'x-origin-verify': '' },
        '127.0.0.1',
        undefined,
      ),
    ).toBe('127.0.0.1');
  });

  it('reads the secret from ORIGIN_VERIFY on each request (a local stack makes a new one per start)', async () => {
    const { clientAddressOf } = await import('../../../functions/lib/http');
    const before = process.env.ORIGIN_VERIFY;
    const viewer = { 'cloudfront-viewer-address': '198.51.100.10:46532' };
    try {
      process.env.ORIGIN_VERIFY = 'first-start';
      expect(clientAddressOf({ ...viewer, 'x-origin-verify': 'first-start' }, '127.0.0.1')).toBe('198.51.100.10');
      process.env.ORIGIN_VERIFY = 'second-start';
      expect(clientAddressOf({ ...viewer, 'x-origin-verify': 'first-start' }, '127.0.0.1')).toBe('127.0.0.1');
      delete process.env.ORIGIN_VERIFY;
      expect(clientAddressOf(viewer, '127.0.0.1')).toBe('127.0.0.1');
    } finally {
      if (before === undefined) delete process.env.ORIGIN_VERIFY;
      else process.env.ORIGIN_VERIFY = before;
    }
  });

  it("trusts the viewer address only beside CloudFront's secret origin header when one is configured", async () => {
    const { clientAddressOf } = await import('../../../functions/lib/http');
    const viewer = { 'cloudfront-viewer-address': '198.51.100.10:46532' };
    expect(clientAddressOf({ ...viewer, 'x-origin-verify': 's3cret-value' }, '130.176.1.1', 's3cret-value')).toBe(
      '198.51.100.10',
    );
    // A direct caller of the execute-api endpoint is known by its own address, whatever it claims.
    expect(clientAddressOf(viewer, '203.0.113.50', 's3cret-value')).toBe('203.0.113.50');
    expect(clientAddressOf({ ...viewer, 'x-origin-verify': 'guess' }, '203.0.113.50', 's3cret-value')).toBe(
      '203.0.113.50',
    );
  });
});

describe('a reply that is not JSON', () => {
  it('sends `text` as is with the type the handler names, keeping no-store and nosniff', async () => {
    const csv = httpRoute({}, async () => ({
      text: 'email\r\n=1+1\r\n',
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="x.csv"' },
    }));
    const res = await csv(httpEvent(), lambdaContext());
    expect(res).toMatchObject({
      statusCode: 200,
      body: 'email\r\n=1+1\r\n',
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="x.csv"',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  });
});
