/**
 * API keys and the public API v1 against the real local stack: keys made with the
 * Cognito session, shown once and stored hashed; scopes enforced; revocation immediate; one
 * user's key never reaches another's records; the per-key rate limit (429, Retry-After); keys
 * never reach billing, teams or key management; a whole send (one multipart file) with a key
 * only, downloaded with equal bytes; the OpenAPI document valid and listing every v1 route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { LocalApp } from '../../scripts/local/app';
import {
  API_KEY_RATE_LIMIT,
  API_KEY_UPLOAD_RATE_LIMIT,
  parseApiKey,
  type CreateApiKeyResponse,
} from '../../functions/domain/api-keys';
import type { PlannedFile, SignResponse } from '../../functions/domain/transfer-api';
import { routes } from '../../functions/routes';
import { MULTIPART_THRESHOLD_BYTES } from '../../functions/domain/upload';
import { MESSAGE_MAX_LENGTH } from '../../functions/domain/input-rules';
import { keys as tableKeys } from '../../functions/data/keys';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  createUser,
  fetchBytes,
  json,
  randomData,
  sendFiles,
  sha256,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { Webhook } from 'standardwebhooks';
import { eventOf, startReceiver } from '../helpers/webhook-receiver';

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;

const keyAuth = (key: string) => ({ authorization: `Bearer ${key}` });

async function newKey(user: TestUser, scopes: string[], name = 'test key'): Promise<CreateApiKeyResponse> {
  const res = await api(app, '/me/api-keys', json({ name, scopes }, bearer(user)));
  expect(res.status, res.text).toBe(201);
  return res.json as CreateApiKeyResponse;
}

beforeAll(async () => {
  app = await startTestApp();
  alice = await createUser(app, 'alice.api@example.com');
  bob = await createUser(app, 'bob.api@example.com');
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

describe('API keys in the dashboard (Cognito session)', () => {
  it('shows a key once, stores only its hash, lists it without the secret and with its last use', async () => {
    const created = await newKey(alice, ['transfers:read'], 'CI pipeline');
    const parsed = parseApiKey(created.key)!;
    expect(parsed.env).toBe('local');
    expect(created).toMatchObject({ id: parsed.id, name: 'CI pipeline', scopes: ['transfers:read'] });
    const stored = await dynamo().send(
      new GetCommand({ TableName: app.stack.env.TABLE_NAME, Key: tableKeys.apiKey(parsed.id) }),
    );
    expect(JSON.stringify(stored.Item)).not.toContain(parsed.secret);
    expect(stored.Item!.keyHash).toMatch(/^[A-Za-z0-9_-]{43}$/u);

    const list = await api(app, '/me/api-keys', { headers: bearer(alice) });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(parsed.secret);
    const row = (list.json.keys as { id: string; lastUsedAt?: number }[]).find((k) => k.id === parsed.id)!;
    expect(row.lastUsedAt).toBeUndefined();
    expect(list.json.allowed).toBe(true);

    const before = Date.now();
    expect((await api(app, '/v1/transfers', { headers: keyAuth(created.key) })).status).toBe(200);
    const after = await api(app, '/me/api-keys', { headers: bearer(alice) });
    const used = (after.json.keys as { id: string; lastUsedAt?: number }[]).find((k) => k.id === parsed.id)!;
    expect(used.lastUsedAt).toBeGreaterThanOrEqual(before - 1000);
  });

  it('refuses a bad key request with stable codes, and a key cannot manage keys, billing or teams', async () => {
    expect(
      (await api(app, '/me/api-keys', json({ name: 'x', scopes: ['billing'] }, bearer(alice)))).json.error.code,
    ).toBe('invalid_request');
    expect((await api(app, '/me/api-keys', json({ name: '', scopes: ['send'] }, bearer(alice)))).status).toBe(400);
    const all = await newKey(alice, ['send', 'transfers:read', 'requests', 'webhooks']);
    for (const [path, init] of [
      ['/me/api-keys', { headers: keyAuth(all.key) }],
      ['/me/api-keys', json({ name: 'minted by a key', scopes: ['send'] }, keyAuth(all.key))],
      [`/me/api-keys/${all.id}`, { method: 'DELETE', headers: keyAuth(all.key) }],
      ['/getStripeData', { headers: keyAuth(all.key) }],
      ['/billing/cancel', json({}, keyAuth(all.key))],
      ['/teams', { headers: keyAuth(all.key) }],
      ['/teams/invites', json({ email: 'x@example.com' }, keyAuth(all.key))],
      ['/teams/api-keys', json({ membersAllowed: true }, keyAuth(all.key), 'PUT')],
      ['/me', { headers: keyAuth(all.key) }],
      ['/v1/updateProfile', json({ fullName: 'Changed by a key' }, keyAuth(all.key))],
    ] as const) {
      const res = await api(app, path, init as RequestInit);
      expect(res.status, `${path}: ${res.text}`).toBe(401);
    }
  });
});

describe('public API v1 with a key', () => {
  it('enforces scopes: 401 invalid_api_key without or with a bad key, 403 key_scope_missing without the scope', async () => {
    const readOnly = await newKey(alice, ['transfers:read']);
    const noKey = await api(app, '/v1/transfers');
    expect(noKey.status).toBe(401);
    expect(noKey.json.error.code).toBe('invalid_api_key');
    const forged = `${readOnly.key.slice(0, -4)}AAAA`;
    expect((await api(app, '/v1/transfers', { headers: keyAuth(forged) })).json.error.code).toBe('invalid_api_key');
    expect((await api(app, '/v1/transfers', { headers: bearer(alice) })).json.error.code).toBe('invalid_api_key');
    expect((await api(app, `/v1/transfers?api_key=${readOnly.key}`)).status).toBe(401);

    const send = await api(
      app,
      '/v1/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'a.txt', size: 3 }] }, keyAuth(readOnly.key)),
    );
    expect(send.status).toBe(403);
    expect(send.json.error).toMatchObject({ code: 'key_scope_missing' });
    expect((await api(app, '/v1/requests', { headers: keyAuth(readOnly.key) })).json.error.code).toBe(
      'key_scope_missing',
    );
    expect((await api(app, '/v1/transfers', { headers: keyAuth(readOnly.key) })).status).toBe(200);
  });

  it('revocation is immediate', async () => {
    const k = await newKey(alice, ['transfers:read']);
    expect((await api(app, '/v1/transfers', { headers: keyAuth(k.key) })).status).toBe(200);
    const revoked = await api(app, `/me/api-keys/${k.id}`, { method: 'DELETE', headers: bearer(alice) });
    expect(revoked.status, revoked.text).toBe(200);
    const after = await api(app, '/v1/transfers', { headers: keyAuth(k.key) });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('invalid_api_key');
    expect((await api(app, `/me/api-keys/${k.id}`, { method: 'DELETE', headers: bearer(alice) })).json.error.code).toBe(
      'key_not_found',
    );
  });

  it('never writes a key to the logs, whatever the request (handlers log at debug here)', async () => {
    const k = await newKey(alice, ['send', 'webhooks']);
    const gone = await newKey(alice, ['send']);
    expect((await api(app, `/me/api-keys/${gone.id}`, { method: 'DELETE', headers: bearer(alice) })).status).toBe(200);
    const lines: string[] = [];
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    const capture = (chunk: unknown) => (lines.push(String(chunk)), true);
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'debug';
    process.stdout.write = capture as typeof process.stdout.write;
    process.stderr.write = capture as typeof process.stderr.write;
    try {
      await api(app, '/v1/webhooks', { headers: keyAuth(k.key) });
      await api(app, '/v1/transfers', { headers: keyAuth(k.key) }); // scope missing
      await api(app, '/v1/webhooks', { headers: keyAuth(gone.key) }); // revoked
      await api(app, `/v1/webhooks?api_key=${encodeURIComponent(k.key)}`);
      await api(app, '/v1/transfers', {
        method: 'POST',
        headers: { ...keyAuth(k.key), 'content-type': 'application/json' },
        body: '{"fileObjects": [',
      });
      await api(app, '/v1/webhooks', json({ url: `http://127.0.0.1:9/${k.key}`, events: ['ping'] }, keyAuth(k.key)));
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
    }
    const logged = lines.join('');
    expect(logged).toContain('"route":"GET /api/v1/webhooks"');
    const secretOf = (key: string) => key.slice(key.lastIndexOf('_') + 1);
    for (const key of [k.key, gone.key]) expect(logged).not.toContain(secretOf(key));
  });

  it("a user's key never reaches another user's records, and another user cannot revoke it", async () => {
    const aliceSent = await sendFiles(app, alice, new Map([['alice-private.txt', randomData(20)]]));
    const bobKey = await newKey(bob, ['send', 'transfers:read', 'requests']);
    const aliceKey = await newKey(alice, ['transfers:read']);
    const read = await api(app, `/v1/transfers/${aliceSent.id}`, { headers: keyAuth(bobKey.key) });
    expect([403, 404], read.text).toContain(read.status);
    expect(read.text).not.toContain('alice-private.txt');
    for (const [path, method] of [
      [`/v1/transfers/${aliceSent.id}`, 'DELETE'],
      [`/v1/transfers/${aliceSent.id}/complete`, 'POST'],
      [`/v1/transfers/${aliceSent.id}/upload-state`, 'GET'],
    ] as const) {
      const res = await api(app, path, { method, headers: keyAuth(bobKey.key) });
      expect([403, 404], `${method} ${path}: ${res.text}`).toContain(res.status);
    }
    const list = await api(app, '/v1/transfers', { headers: keyAuth(bobKey.key) });
    expect(list.text).not.toContain(aliceSent.id);
    expect((await api(app, `/me/api-keys/${aliceKey.id}`, { method: 'DELETE', headers: bearer(bob) })).status).toBe(
      404,
    );
    expect(
      (await api(app, `/v1/transfers/${aliceSent.id}`, { headers: keyAuth(aliceKey.key) })).json.files[0].fileName,
    ).toBe('alice-private.txt');
  });

  it(`limits each key to ${API_KEY_RATE_LIMIT.requests} requests a window: 429 rate_limited with Retry-After, other keys unaffected`, async () => {
    const k = await newKey(bob, ['requests']);
    const other = await newKey(bob, ['requests']);
    let limited: Awaited<ReturnType<typeof api>> | undefined;
    // (a window may end during the loop: at most two windows' worth before the limit shows)
    for (let i = 0; i <= 2 * API_KEY_RATE_LIMIT.requests + 1 && !limited; i += 1) {
      const res = await api(app, '/v1/requests', { headers: keyAuth(k.key) });
      if (res.status === 429) limited = res;
      else expect(res.status, res.text).toBe(200);
    }
    expect(limited, 'the key was limited').toBeDefined();
    expect(limited!.json.error.code).toBe('rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.json.error.details.retryAfterSeconds).toBeLessThanOrEqual(API_KEY_RATE_LIMIT.windowSeconds);
    expect((await api(app, '/v1/requests', { headers: keyAuth(other.key) })).status).toBe(200);
  });

  it(`counts the upload calls of a transfer in their own window of ${API_KEY_UPLOAD_RATE_LIMIT.requests}: a key past its general limit still uploads`, async () => {
    const k = await newKey(bob, ['send', 'transfers:read']);
    const created = await api(
      app,
      '/v1/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'big.bin', size: MULTIPART_THRESHOLD_BYTES }] }, keyAuth(k.key)),
    );
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    const fileId = (created.json.files as PlannedFile[])[0]!.fileId;
    let limited = false;
    for (let i = 0; i <= 2 * API_KEY_RATE_LIMIT.requests + 1 && !limited; i += 1) {
      const res = await api(app, '/v1/transfers', { headers: keyAuth(k.key) });
      if (res.status === 429) limited = true;
      else expect(res.status, res.text).toBe(200);
    }
    expect(limited, 'the general window was used up').toBe(true);
    expect((await api(app, `/v1/transfers/${id}/upload-state`, { headers: keyAuth(k.key) })).status).toBe(200);
    const signed = await api(app, `/v1/transfers/${id}/sign`, json({ fileId, partNumbers: [1, 2] }, keyAuth(k.key)));
    expect(signed.status, signed.text).toBe(200);
    expect((await api(app, '/v1/transfers', { headers: keyAuth(k.key) })).status).toBe(429);
  });

  it("takes the app's send body: a link without sendAs, plan codes, invalid_request for a wrong shape", async () => {
    const k = await newKey(alice, ['send']);
    const send = (body: unknown) => api(app, '/v1/transfers', json(body, keyAuth(k.key)));
    const link = await send({ fileObjects: [{ fileName: 'a.txt', size: 3 }] });
    expect(link.status, link.text).toBe(201);
    expect(link.json.sendAs).toBe('link');
    const none = await send({ fileObjects: [] });
    expect([none.status, none.json.error.code, none.json.error.field]).toEqual([400, 'no_files', 'fileObjects']);
    const wrong = await send({ fileObjects: [{ fileName: 'a.txt', size: 'big' }] });
    const { code, field } = wrong.json.error;
    expect([wrong.status, code, field]).toEqual([400, 'invalid_request', 'fileObjects.0.size']);
    const notAnObject = await send([1, 2]);
    expect([notAnObject.status, notAnObject.json.error.code]).toEqual([400, 'invalid_request']);
  });

  it('a whole send with a key only: create, sign, upload a multipart file and a small one, record parts, complete; read it with its download; delete it', async () => {
    const k = await newKey(alice, ['send', 'transfers:read']);
    const big = randomData(MULTIPART_THRESHOLD_BYTES + 7);
    const small = randomData(1234);
    const created = await api(
      app,
      '/v1/transfers',
      json(
        {
          sendAs: 'email',
          emailTo: [{ email: 'carol.api@example.com' }],
          message: 'via the API',
          password: 'Api-pass-1',
          expirySeconds: 604800,
          fileObjects: [
            { fileName: 'big.bin', size: big.length },
            { fileName: 'small.txt', size: small.length, itemPath: 'folder/small.txt' },
          ],
        },
        keyAuth(k.key),
      ),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.json.uploadToken).toBeUndefined();
    const id = created.json.id as string;
    const files = created.json.files as PlannedFile[];
    const bodies = new Map([
      ['big.bin', big],
      ['small.txt', small],
    ]);
    const multipart = files.find((f) => f.mode === 'multipart')!;
    expect(multipart.partCount).toBeGreaterThanOrEqual(2);
    for (const f of files) {
      const data = bodies.get(f.fileName)!;
      if (f.mode === 'single') {
        const put = await fetch(f.url!, { method: 'PUT', body: data as unknown as BodyInit });
        expect(put.status).toBe(200);
      } else {
        // the first part now; the upload state says what is left, as a resuming client asks
        const partNumbers = Array.from({ length: f.partCount! }, (_, i) => i + 1);
        for (const n of partNumbers) {
          if (n === 2) {
            const state = await api(app, `/v1/transfers/${id}/upload-state`, { headers: keyAuth(k.key) });
            expect(state.json.files.find((x: { fileId: string }) => x.fileId === f.fileId).partsDone).toEqual([1]);
          }
          const signed = await api(
            app,
            `/v1/transfers/${id}/sign`,
            json({ fileId: f.fileId, partNumbers: [n] }, keyAuth(k.key)),
          );
          expect(signed.status, signed.text).toBe(200);
          const start = (n - 1) * f.partSize!;
          const chunk = data.subarray(start, Math.min(start + f.partSize!, data.length));
          const put = await fetch((signed.json as SignResponse).parts![0]!.url, {
            method: 'PUT',
            body: chunk as unknown as BodyInit,
          });
          expect(put.status).toBe(200);
          const rec = await api(
            app,
            `/v1/transfers/${id}/parts`,
            json(
              { fileId: f.fileId, partNumber: n, etag: put.headers.get('etag'), size: chunk.length },
              keyAuth(k.key),
            ),
          );
          expect(rec.status, rec.text).toBe(200);
        }
      }
      const done = await api(app, `/v1/transfers/${id}/files/${f.fileId}/complete`, {
        method: 'POST',
        headers: keyAuth(k.key),
      });
      expect(done.status, done.text).toBe(200);
      expect(done.json.size).toBe(data.length);
    }
    const complete = await api(app, `/v1/transfers/${id}/complete`, { method: 'POST', headers: keyAuth(k.key) });
    expect(complete.status, complete.text).toBe(200);
    await waitForMail(app, 'carol.api@example.com', new RegExp(id));

    // the recipient downloads with the password; bytes are equal
    for (const f of files) {
      const link = await api(app, '/getDownload/file', {
        ...json({ id, fileId: f.fileId, password: 'Api-pass-1' }),
        headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': 'FR' },
      });
      expect(link.status, link.text).toBe(200);
      const got = await fetchBytes(link.json.url as string);
      expect(sha256(got.bytes)).toBe(sha256(bodies.get(f.fileName)!));
    }
    const read = await api(app, `/v1/transfers/${id}`, { headers: keyAuth(k.key) });
    expect(read.status, read.text).toBe(200);
    expect(read.json).toMatchObject({ message: 'via the API' });
    expect(JSON.stringify(read.json.downloads)).toContain('FR');
    const listed = await api(app, '/v1/transfers', { headers: keyAuth(k.key) });
    expect(listed.text).toContain(id);

    expect((await api(app, `/v1/transfers/${id}`, { method: 'DELETE', headers: keyAuth(k.key) })).status).toBe(200);
    expect((await api(app, '/getDownload', json({ id, password: 'Api-pass-1' }))).status).toBe(404);
  });

  it('creates and lists file requests with the requests scope, with the plan rules of the app', async () => {
    const k = await newKey(alice, ['requests']);
    const made = await api(app, '/v1/requests', json({ title: 'Scans please', message: 'thanks' }, keyAuth(k.key)));
    expect(made.status, made.text).toBe(201);
    const list = await api(app, '/v1/requests', { headers: keyAuth(k.key) });
    expect(list.status).toBe(200);
    expect(list.text).toContain(made.json.id as string);
    expect((await api(app, '/v1/requests', json({ title: '' }, keyAuth(k.key)))).json.error.code).toBe(
      'invalid_request',
    );
  });
});

describe('webhooks with the webhooks scope', () => {
  it('registers, lists, tests, redelivers, rotates, edits and removes endpoints with a key alone; the same endpoints as the dashboard', async () => {
    receiver = await startReceiver();
    const k = await newKey(alice, ['webhooks']);
    const h = keyAuth(k.key);
    const made = await api(
      app,
      '/v1/webhooks',
      json({ url: receiver.url, events: ['transfer.downloaded'], description: 'made with a key' }, h),
    );
    expect(made.status, made.text).toBe(201);
    const { endpoint, secret } = made.json as { endpoint: { id: string }; secret: string };
    expect(secret).toMatch(/^whsec_/u);

    // the dashboard's session sees the same endpoint, never its secret
    const dash = await api(app, '/webhooks', { headers: bearer(alice) });
    expect(dash.json.endpoints).toEqual([
      expect.objectContaining({ id: endpoint.id, url: receiver.url, description: 'made with a key', enabled: true }),
    ]);
    expect(dash.text).not.toContain(secret);
    const listed = await api(app, '/v1/webhooks', { headers: h });
    expect(listed.status).toBe(200);
    expect(listed.json.endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    expect(listed.text).not.toContain(secret);

    // a ping arrives signed with the secret the key was shown
    const ping = await api(app, `/v1/webhooks/${endpoint.id}/test`, { method: 'POST', headers: h });
    expect(ping.status, ping.text).toBe(202);
    const hook = await receiver.waitFor((x) => eventOf(x).type === 'ping');
    expect(new Webhook(secret).verify(hook.body, hook.headers)).toEqual(eventOf(hook));
    await expect
      .poll(
        async () =>
          (await api(app, `/v1/webhooks/${endpoint.id}/deliveries`, { headers: h })).json.deliveries[0]?.status,
        { timeout: 60_000 },
      )
      .toBe('delivered');

    // redelivery: the same event id again
    const deliveryId = ping.json.delivery.id as string;
    const again = await api(app, `/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/redeliver`, {
      method: 'POST',
      headers: h,
    });
    expect(again.status, again.text).toBe(202);
    await expect
      .poll(() => receiver!.received.filter((x) => eventOf(x).id === eventOf(hook).id).length, { timeout: 60_000 })
      .toBe(2);

    // rotation: the new secret is shown once; during the grace period both sign
    const rotated = await api(app, `/v1/webhooks/${endpoint.id}/rotate`, json({ graceHours: 1 }, h));
    expect(rotated.status, rotated.text).toBe(200);
    const next = rotated.json.secret as string;
    expect(next).not.toBe(secret);
    expect((await api(app, `/v1/webhooks/${endpoint.id}/test`, { method: 'POST', headers: h })).status).toBe(202);
    const signedTwice = await receiver.waitFor(
      (x) => eventOf(x).type === 'ping' && (x.headers['webhook-signature'] ?? '').includes(' '),
    );
    const t2 = new Date(Number(signedTwice.headers['webhook-timestamp']) * 1000);
    const sig = (s: string) => new Webhook(s).sign(eventOf(signedTwice).id, t2, signedTwice.body);
    expect(signedTwice.headers['webhook-signature']!.split(' ')).toEqual([sig(next), sig(secret)]);

    const edited = await api(
      app,
      `/v1/webhooks/${endpoint.id}`,
      json({ enabled: false, events: ['transfer.expired'] }, h, 'PATCH'),
    );
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.endpoint).toMatchObject({ enabled: false, events: ['transfer.expired'] });
    expect(
      (await api(app, `/v1/webhooks/${endpoint.id}`, json({ url: 'http://10.0.0.8/hook' }, h, 'PATCH'))).json.error
        .code,
    ).toBe('webhook_url_invalid');

    // another user's key, and a key without the scope, reach nothing
    const bobs = await newKey(bob, ['send', 'transfers:read', 'requests', 'webhooks']);
    expect(
      (await api(app, `/v1/webhooks/${endpoint.id}/deliveries`, { headers: keyAuth(bobs.key) })).json.error.code,
    ).toBe('webhook_not_found');
    expect(
      (await api(app, `/v1/webhooks/${endpoint.id}`, { method: 'DELETE', headers: keyAuth(bobs.key) })).status,
    ).toBe(404);
    expect((await api(app, '/v1/webhooks', { headers: keyAuth(bobs.key) })).json.endpoints).toEqual([]);
    const sendOnly = await newKey(alice, ['send']);
    expect((await api(app, '/v1/webhooks', { headers: keyAuth(sendOnly.key) })).json.error.code).toBe(
      'key_scope_missing',
    );
    // the member setting is team administration: no key route for it
    expect((await api(app, '/v1/webhook-settings', json({ membersAllowed: true }, h, 'PUT'))).status).toBe(404);

    expect((await api(app, `/v1/webhooks/${endpoint.id}`, { method: 'DELETE', headers: h })).json).toEqual({
      removed: true,
    });
    expect((await api(app, '/webhooks', { headers: bearer(alice) })).json.endpoints).toEqual([]);
  });
});

describe('team members', () => {
  it('cannot use keys until the admin allows it; the admin can turn it off again at once', async () => {
    const member = 'member.api@example.com';
    expect((await api(app, '/teams/invites', json({ email: member }, bearer(alice)))).status).toBe(201);
    const token = /\/invite\/([A-Za-z0-9_-]{43})/.exec((await waitForMail(app, member, /\/invite\//)).body.text)![1]!;
    const joined = await api(
      app,
      '/v1/teams',
      json({ token, newMemberEmail: member, fullName: 'Member', password: 'Member-pass-123' }, {}, 'PATCH'),
    );
    expect(joined.status, joined.text).toBe(201);
    const m = { authorization: `Bearer ${joined.json.accessToken as string}` };

    const hidden = await api(app, '/me/api-keys', { headers: m });
    expect(hidden.json).toMatchObject({ allowed: false, keys: [] });
    // the session says so too, so the app hides the account menu's API keys entry (members only)
    expect((await api(app, '/me', { headers: m })).json.apiKeysAllowed).toBe(false);
    expect((await api(app, '/me', { headers: bearer(alice) })).json).not.toHaveProperty('apiKeysAllowed');
    expect((await api(app, '/me/api-keys', json({ name: 'x', scopes: ['send'] }, m))).json.error.code).toBe(
      'api_keys_not_allowed',
    );
    expect((await api(app, '/teams/api-keys', json({ membersAllowed: true }, m, 'PUT'))).json.error.code).toBe(
      'team_member_forbidden',
    );
    expect((await api(app, '/me/api-keys', { headers: bearer(alice) })).json.membersAllowed).toBe(false);

    expect((await api(app, '/teams/api-keys', json({ membersAllowed: true }, bearer(alice), 'PUT'))).status).toBe(200);
    expect((await api(app, '/me', { headers: m })).json.apiKeysAllowed).toBe(true);
    const made = await api(app, '/me/api-keys', json({ name: 'member key', scopes: ['transfers:read'] }, m));
    expect(made.status, made.text).toBe(201);
    expect((await api(app, '/v1/transfers', { headers: keyAuth(made.json.key as string) })).status).toBe(200);

    expect((await api(app, '/teams/api-keys', json({ membersAllowed: false }, bearer(alice), 'PUT'))).status).toBe(200);
    expect((await api(app, '/v1/transfers', { headers: keyAuth(made.json.key as string) })).json.error.code).toBe(
      'api_keys_not_allowed',
    );
  });
});

describe('OpenAPI 3.1 document', () => {
  it('is served at /api/v1/openapi.json, validates, and lists every v1 route with its scope', async () => {
    const res = await api(app, '/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    const keyed = routes.filter((r) => r.auth === 'key');
    const listed = Object.entries(
      doc.paths as Record<string, Record<string, { 'x-sendbridge-scope': string }>>,
    ).flatMap(([p, ops]) =>
      Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${p} ${op['x-sendbridge-scope']}`),
    );
    expect(listed.sort()).toEqual(keyed.map((r) => `${r.method} ${r.path} ${r.scope}`).sort());
    expect(doc.servers[0].url).toBe(`${app.stack.env.APP_ORIGIN}/api`);
    // the request schemas come from zod: the create body (the app's send) names its fields and bounds;
    // no field is required, a send of recordings alone has no fileObjects (none at all: no_files)
    const body = doc.paths['/v1/transfers'].post.requestBody.content['application/json'].schema;
    expect(body.properties.fileObjects).toMatchObject({ type: 'array', items: { required: ['fileName', 'size'] } });
    expect(body.required ?? []).not.toContain('fileObjects');
    expect(body.properties.message.maxLength).toBe(MESSAGE_MAX_LENGTH);
    expect(body.properties.sendAs.enum).toEqual(['link', 'email']);
  });
});
