import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api';
import { IDEMPOTENCY_KEY_PATTERN } from '@domain/retry-policy';
import {
  cancelTransfer,
  checkSenderCode,
  completeTransfer,
  createTransfer,
  requestSenderCode,
  type CreateBody,
} from '@/shared/upload/send-api';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function serve(status: number, body: unknown) {
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({
      url,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return seen;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const body: CreateBody = {
  sendAs: 'email',
  senderEmail: 'me@x.org',
  emailTo: [{ email: 'b@x.org' }],
  fileObjects: [{ fileName: 'a.txt', size: 1 }],
  lang: 'fr',
};

describe('send API calls', () => {
  it('asks for a guest code and checks it by email and code', async () => {
    const seen = serve(202, { expiresAt: 1 });
    await requestSenderCode('me@x.org', 'de');
    await checkSenderCode('me@x.org', '12345');
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/api/verifyEmail', { email: 'me@x.org', lang: 'de' }],
      ['POST', '/api/checkVerifyEmail', { email: 'me@x.org', code: '12345' }],
    ]);
  });

  it('a wrong code comes back as a 403 ApiError', async () => {
    serve(403, { error: { code: 'incorrect_code', message: 'Incorrect code, check your email and try again.' } });
    const err = await checkSenderCode('me@x.org', '00000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, code: 'incorrect_code' });
  });

  it('creates a guest transfer with the sender token, a signed-in one with the bearer token', async () => {
    const seen = serve(201, { id: 'abc1234' });
    await createTransfer(body, { kind: 'guest', senderToken: 'sender-token' });
    await createTransfer(body, { kind: 'account', accessToken: 'jwt' });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/transfers',
      body,
      headers: { 'x-sender-token': 'sender-token' },
    });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[1]).toMatchObject({
      method: 'POST',
      url: '/api/me/transfers',
      body,
      headers: { authorization: 'Bearer jwt' },
    });
    expect(seen[1]!.headers['x-sender-token']).toBeUndefined();
  });

  it('retries a create after a server error with one Idempotency-Key for every attempt', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    /** runs the backoff timers until `p` settles (the retry rules load by a dynamic import in between) */
    const settle = async <T>(p: Promise<T>): Promise<T> => {
      let done = false;
      void p.finally(() => (done = true));
      while (!done) {
        await vi.runAllTimersAsync();
        await new Promise((r) => setImmediate(r));
      }
      return p;
    };
    try {
      const seen = serve(503, { error: { code: 'internal_error', message: 'try later' } });
      expect(
        await settle(createTransfer(body, { kind: 'guest', senderToken: 't' }).catch((e: unknown) => e)),
      ).toMatchObject({ status: 503 });
      expect(seen).toHaveLength(5);
      const keys = new Set(seen.map((s) => s.headers['idempotency-key']));
      expect(keys.size).toBe(1);
      expect([...keys][0]).toMatch(IDEMPOTENCY_KEY_PATTERN);
      // a new create is a new key
      await settle(createTransfer(body, { kind: 'guest', senderToken: 't' }).catch(() => undefined));
      expect(seen[5]!.headers['idempotency-key']).not.toBe([...keys][0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never repeats a create refused with a 4xx, nor a POST the policy does not list', async () => {
    let seen = serve(403, { error: { code: 'sender_not_verified', message: 'no' } });
    await expect(createTransfer(body, { kind: 'guest', senderToken: 't' })).rejects.toMatchObject({ status: 403 });
    expect(seen).toHaveLength(1);
    seen = serve(503, { error: { code: 'internal_error', message: 'try later' } });
    await expect(requestSenderCode('me@x.org', 'de')).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
    // every POST carries a key (the server ignores it where it does not apply); only the rules decide a retry
    expect(seen[0]!.headers['idempotency-key']).toMatch(IDEMPOTENCY_KEY_PATTERN);
  });

  it('completes and cancels with the upload token', async () => {
    const seen = serve(200, {});
    await completeTransfer('abc1234', 'upload-token');
    await cancelTransfer('abc1234', 'upload-token');
    expect(seen.map((s) => [s.method, s.url, s.headers['x-upload-token']])).toEqual([
      ['POST', '/api/transfers/abc1234/complete', 'upload-token'],
      ['POST', '/api/transfers/abc1234/cancel', 'upload-token'],
    ]);
  });
});
