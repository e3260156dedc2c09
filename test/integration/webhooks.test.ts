/**
 * Webhooks end to end, through the local gateway against DynamoDB Local, s3rver and
 * a receiving HTTP server on loopback: endpoints are registered through the API; real sends,
 * downloads and the expiry sweep publish events; the delivery job (started through the local
 * Invoke API, as in `npm start`) POSTs them; the signature verifies with the snippet documented
 * in docs/webhooks.md (read from the page and run as is: the official `standardwebhooks` library),
 * and an endpoint whose secret predates the standard still gets the old headers; a 500 is
 * retried with backoff and then succeeds; a redelivery carries the same event id; rotation signs
 * with both secrets.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFile, writeFile, mkdir, mkdtemp } from 'node:fs/promises';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import { REPO_ROOT } from '../../scripts/local/app';
import type { CreatedWebhook, DeliveryView, WebhookListResponse } from '../../functions/domain/webhooks-api';
import { MAX_WEBHOOK_ENDPOINTS } from '../../functions/domain/webhooks-api';
import { deliverDue, standardSecretOf } from '../../functions/services/webhooks';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { sweepExpired } from '../../functions/services/expiry-sweep';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  createUser,
  downloadFrom,
  json,
  randomData,
  recipientIdsOf,
  sendFiles,
  type TestUser,
} from '../helpers/transfers';
import { eventOf, startReceiver, type ReceivedHook } from '../helpers/webhook-receiver';

type Verify = (rawBody: string, headers: Record<string, string>, secret: string, toleranceSeconds?: number) => boolean;

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let verify: Verify;

const call = (user: TestUser, method: string, p: string, body?: unknown) =>
  api(app, p, body === undefined ? { method, headers: bearer(user) } : json(body, bearer(user), method));

/** The ```js block under "Verifying a delivery" in docs/webhooks.md, written to a module and imported. */
async function documentedVerifier(): Promise<Verify> {
  const page = await readFile(path.join(REPO_ROOT, 'docs/webhooks.md'), 'utf8');
  const section = page.slice(page.indexOf('## Verifying a delivery'));
  const code = /```js\n([\s\S]*?)```/u.exec(section)?.[1];
  if (!code) throw new Error('no js snippet in docs/webhooks.md');
  // Inside the repository, so the snippet finds its `standardwebhooks` import in node_modules.
  await mkdir(path.join(REPO_ROOT, 'node_modules/.cache'), { recursive: true });
  const dir = await mkdtemp(path.join(REPO_ROOT, 'node_modules/.cache/sb-verify-'));
  const file = path.join(dir, 'verify.mjs');
  await writeFile(file, code);
  const mod = (await import(pathToFileURL(file).href)) as { verifySendBridgeWebhook: Verify };
  return mod.verifySendBridgeWebhook;
}

async function addEndpoint(user: TestUser, events: string[], url = receiver.url): Promise<CreatedWebhook> {
  const res = await call(user, 'POST', '/webhooks', { url, events, description: 'test receiver' });
  expect(res.status, res.text).toBe(201);
  return res.json as CreatedWebhook;
}

async function deliveriesOf(user: TestUser, endpointId: string): Promise<DeliveryView[]> {
  const res = await call(user, 'GET', `/webhooks/${endpointId}/deliveries`);
  expect(res.status, res.text).toBe(200);
  return (res.json as { deliveries: DeliveryView[] }).deliveries;
}

const ofType = (type: string, transferId?: string) => (h: ReceivedHook) => {
  const e = eventOf(h);
  return e.type === type && (transferId === undefined || e.data.transferId === transferId);
};

beforeAll(async () => {
  app = await startTestApp();
  alice = await createUser(app, 'alice.webhooks@example.com');
  bob = await createUser(app, 'bob.webhooks@example.com');
  receiver = await startReceiver();
  verify = await documentedVerifier();
});

afterAll(async () => {
  await receiver?.close();
  await app?.stop();
});

describe('registering endpoints', () => {
  it('refuses URLs that are not https (http only to loopback locally) or that name private addresses, with stable codes', async () => {
    const cases: [string, string][] = [
      ['ftp://example.com/hook', 'webhook_url_invalid'],
      ['http://example.com/hook', 'webhook_url_invalid'],
      ['not a url', 'webhook_url_invalid'],
      ['https://user:pw@example.com/hook', 'webhook_url_invalid'],
      ['https://10.0.0.8/hook', 'webhook_url_not_allowed'],
      ['https://169.254.169.254/latest/meta-data', 'webhook_url_not_allowed'],
      ['https://[fd00:ec2::254]/', 'webhook_url_not_allowed'],
      ['https://[::ffff:192.168.1.1]/', 'webhook_url_not_allowed'],
      ['https://0xa9fea9fe/', 'webhook_url_not_allowed'],
      ['https://metadata.google.internal/', 'webhook_url_not_allowed'],
    ];
    for (const [url, code] of cases) {
      const res = await call(alice, 'POST', '/webhooks', { url, events: ['transfer.created'] });
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expect(res.json.error.code, url).toBe(code);
    }
    const badEvents = await call(alice, 'POST', '/webhooks', { url: receiver.url, events: ['transfer.exploded'] });
    expect(badEvents.status).toBe(400);
  });

  it('shows the secret once: the list carries only a hint of it', async () => {
    const created = await addEndpoint(alice, [
      'transfer.created',
      'transfer.downloaded',
      'transfer.expired',
      'request.uploaded',
    ]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
    const list = (await call(alice, 'GET', '/webhooks')).json as WebhookListResponse;
    expect(list.endpoints).toHaveLength(1);
    expect(list.max).toBe(MAX_WEBHOOK_ENDPOINTS);
    expect(list.localMode).toBe(true);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    expect(list.endpoints[0]!.secretHint).toBe(`${created.secret.slice(0, 10)}…`);
  });

  it('keeps one user out of another user’s endpoints and deliveries (404)', async () => {
    const { endpoints } = (await call(alice, 'GET', '/webhooks')).json as WebhookListResponse;
    const id = endpoints[0]!.id;
    expect((await call(bob, 'GET', `/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await call(bob, 'PATCH', `/webhooks/${id}`, { enabled: false })).status).toBe(404);
    expect((await call(bob, 'DELETE', `/webhooks/${id}`)).status).toBe(404);
    expect((await call(bob, 'POST', `/webhooks/${id}/rotate`, {})).status).toBe(404);
    expect(((await call(bob, 'GET', '/webhooks')).json as WebhookListResponse).endpoints).toEqual([]);
  });

  it('holds the limit of endpoints per account', async () => {
    const results = await Promise.all(
      Array.from({ length: MAX_WEBHOOK_ENDPOINTS + 2 }, () =>
        call(bob, 'POST', '/webhooks', { url: receiver.url, events: ['transfer.expired'] }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    expect(results.filter((r) => r.status === 409).every((r) => r.json.error.code === 'webhooks_full')).toBe(true);
    const { endpoints } = (await call(bob, 'GET', '/webhooks')).json as WebhookListResponse;
    for (const e of endpoints) expect((await call(bob, 'DELETE', `/webhooks/${e.id}`)).status).toBe(200);
    expect((await call(bob, 'POST', '/webhooks', { url: receiver.url, events: ['transfer.expired'] })).status).toBe(
      201,
    );
  });
});

describe('deliveries', () => {
  let secret: string;
  let endpointId: string;

  beforeAll(async () => {
    const { endpoints } = (await call(alice, 'GET', '/webhooks')).json as WebhookListResponse;
    endpointId = endpoints[0]!.id;
    // The secret is shown once: rotate without grace to learn a fresh one for these tests.
    const rotated = await call(alice, 'POST', `/webhooks/${endpointId}/rotate`, { graceHours: 0 });
    expect(rotated.status, rotated.text).toBe(200);
    secret = (rotated.json as CreatedWebhook).secret;
  });

  it('delivers transfer.created after a send, signed so that the documented snippet verifies it', async () => {
    const t = await sendFiles(app, alice, new Map([['plan.pdf', randomData(2048)]]));
    await app.gateway.idle();
    const hook = await receiver.waitFor(ofType('transfer.created', t.id));
    const event = eventOf(hook);
    expect(event.id).toMatch(/^evt_/u);
    expect(hook.headers['webhook-id']).toBe(event.id);
    expect(hook.headers['sendbridge-event-type']).toBe('transfer.created');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
    // the official Standard Webhooks library verifies it, and these endpoints get no legacy headers
    expect(new Webhook(secret).verify(hook.body, hook.headers)).toEqual(event);
    expect(hook.headers['sendbridge-signature']).toBeUndefined();
    expect(event.data).toMatchObject({ transferId: t.id, sendAs: 'link', fileCount: 1, totalBytes: 2048 });
    expect(verify(hook.body, hook.headers, secret)).toBe(true);
    // and it is not fooled: another secret, a changed body, an old timestamp
    expect(verify(hook.body, hook.headers, 'whsec_wrong')).toBe(false);
    expect(verify(hook.body.replace('2048', '2049'), hook.headers, secret)).toBe(false);
    expect(
      verify(
        hook.body,
        { ...hook.headers, 'webhook-timestamp': String(Number(hook.headers['webhook-timestamp']) - 600) },
        secret,
      ),
    ).toBe(false);
  });

  it('sends transfer.downloaded after a real download, with the country and the recipient', async () => {
    const t = await sendFiles(app, alice, new Map([['song.wav', randomData(4096)]]), {
      sendAs: 'email',
      emailTo: [{ email: 'rita.webhooks@example.com' }],
    });
    await app.gateway.idle();
    const recipientId = (await recipientIdsOf(app, t.id)).get('rita.webhooks@example.com')!;
    await downloadFrom(app, t, 'DE', recipientId);
    await app.gateway.idle();
    const hook = await receiver.waitFor(ofType('transfer.downloaded', t.id));
    expect(eventOf(hook).data).toMatchObject({
      transferId: t.id,
      country: 'DE',
      countryName: 'Germany',
      recipient: 'rita.webhooks@example.com',
      origin: 'file',
      fileName: 'song.wav',
    });
    expect(verify(hook.body, hook.headers, secret)).toBe(true);
  });

  it('retries a delivery the receiver answered with 500, with backoff, and then succeeds', async () => {
    receiver.answerNext(500);
    const t = await sendFiles(app, alice, new Map([['retry.bin', randomData(100)]]));
    await app.gateway.idle();
    const first = await receiver.waitFor(ofType('transfer.created', t.id));
    const log1 = (await deliveriesOf(alice, endpointId)).find((d) => d.eventId === eventOf(first).id)!;
    expect(log1.status).toBe('pending');
    expect(log1.attempts).toEqual([expect.objectContaining({ status: 500, error: 'receiver down' })]);
    const wait = log1.nextAttemptAt! - log1.attempts[0]!.at;
    expect(wait).toBeGreaterThanOrEqual(24_000);
    expect(wait).toBeLessThanOrEqual(36_000);
    // Nothing is sent before the backoff has passed...
    expect((await deliverDue(Date.now())).delivered).toBe(0);
    // ...and the schedule's run once it has (the job's own code, with the clock moved on).
    const run = await deliverDue(log1.nextAttemptAt! + 1);
    expect(run.delivered).toBeGreaterThanOrEqual(1);
    const again = receiver.received.filter(ofType('transfer.created', t.id));
    expect(again).toHaveLength(2);
    expect(eventOf(again[1]!).id).toBe(eventOf(first).id);
    expect(again[1]!.body).toBe(first.body);
    const log2 = (await deliveriesOf(alice, endpointId)).find((d) => d.id === log1.id)!;
    expect(log2.status).toBe('delivered');
    expect(log2.attempts.map((a) => a.status)).toEqual([500, 200]);
  });

  it('redelivers the same event (same id and body) from the log', async () => {
    const log = await deliveriesOf(alice, endpointId);
    const original = log.find((d) => d.eventType === 'transfer.downloaded' && d.status === 'delivered')!;
    const before = receiver.received.filter((h) => eventOf(h).id === original.eventId);
    const res = await call(alice, 'POST', `/webhooks/${endpointId}/deliveries/${original.id}/redeliver`);
    expect(res.status, res.text).toBe(202);
    await app.gateway.idle();
    const after = receiver.received.filter((h) => eventOf(h).id === original.eventId);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.body).toBe(before[0]!.body);
    expect(after.at(-1)!.headers['webhook-id']).toBe(original.eventId);
    const redelivery = (await deliveriesOf(alice, endpointId)).find((d) => d.redeliveryOf === original.id)!;
    expect(redelivery).toMatchObject({ eventId: original.eventId, status: 'delivered' });
    // a delivery of another endpoint, or a made-up one, is not found
    expect(
      (await call(alice, 'POST', `/webhooks/${endpointId}/deliveries/wd_aaaaaaaaaaaaaaaaaaaa/redeliver`)).status,
    ).toBe(404);
  });

  it('signs with both secrets during a rotation’s grace period', async () => {
    const rotated = await call(alice, 'POST', `/webhooks/${endpointId}/rotate`, {});
    expect(rotated.status).toBe(200);
    const next = (rotated.json as CreatedWebhook).secret;
    expect((rotated.json as CreatedWebhook).endpoint.previousSecretExpiresAt).toBeGreaterThan(
      Date.now() + 23 * 3600_000,
    );
    const ping = await call(alice, 'POST', `/webhooks/${endpointId}/test`);
    expect(ping.status, ping.text).toBe(202);
    await app.gateway.idle();
    const hook = await receiver.waitFor((h) => eventOf(h).type === 'ping');
    expect(hook.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(hook.body, hook.headers, next)).toBe(true);
    expect(verify(hook.body, hook.headers, secret)).toBe(true);
    secret = next;
  });

  it('keeps an endpoint whose secret predates Standard Webhooks working: the old headers for the old check, and the standard ones', async () => {
    const legacy = `whsec_${randomBytes(32).toString('base64url')}`;
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.webhookEndpoint(alice.sub, endpointId),
        UpdateExpression: 'SET secret = :s REMOVE previousSecret, previousSecretExpiresAt',
        ExpressionAttributeValues: { ':s': legacy },
      }),
    );
    const ping = await call(alice, 'POST', `/webhooks/${endpointId}/test`);
    expect(ping.status, ping.text).toBe(202);
    await app.gateway.idle();
    const hook = await receiver.waitFor(
      (h) => eventOf(h).type === 'ping' && eventOf(h).id === ping.json.delivery.eventId,
    );
    // what a receiver written for the old scheme checks
    const ts = hook.headers['sendbridge-timestamp'];
    expect(hook.headers['sendbridge-event-id']).toBe(eventOf(hook).id);
    expect(hook.headers['sendbridge-signature']).toBe(
      `v1=${createHmac('sha256', legacy).update(`${ts}.${hook.body}`).digest('hex')}`,
    );
    // and the same key, written in standard base64, verifies with the official library
    expect(new Webhook(standardSecretOf(legacy)).verify(hook.body, hook.headers)).toEqual(eventOf(hook));
    // rotating moves the endpoint to a standard secret
    const rotated = await call(alice, 'POST', `/webhooks/${endpointId}/rotate`, { graceHours: 0 });
    secret = (rotated.json as CreatedWebhook).secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
  });

  it('does not deliver to a disabled endpoint or for event types it did not choose', async () => {
    const off = await call(alice, 'PATCH', `/webhooks/${endpointId}`, { enabled: false });
    expect(off.status, off.text).toBe(200);
    const t = await sendFiles(app, alice, new Map([['quiet.txt', randomData(10)]]));
    await app.gateway.idle();
    expect(receiver.received.some(ofType('transfer.created', t.id))).toBe(false);
    expect(
      (await call(alice, 'PATCH', `/webhooks/${endpointId}`, { enabled: true, events: ['transfer.expired'] })).status,
    ).toBe(200);
    const t2 = await sendFiles(app, alice, new Map([['quiet2.txt', randomData(10)]]));
    await app.gateway.idle();
    expect(receiver.received.some(ofType('transfer.created', t2.id))).toBe(false);
  });

  it('sends transfer.expired when the expiry sweep marks a transfer expired, once', async () => {
    const t = await sendFiles(app, alice, new Map([['old.txt', randomData(10)]]));
    const later = Date.now() + 400 * 24 * 3600_000;
    await sweepExpired({ now: later });
    await sweepExpired({ now: later });
    await app.gateway.idle();
    const hook = await receiver.waitFor(ofType('transfer.expired', t.id));
    expect(eventOf(hook).data).toMatchObject({ transferId: t.id, totalDownloads: 0 });
    expect(verify(hook.body, hook.headers, secret)).toBe(true);
    expect(receiver.received.filter(ofType('transfer.expired', t.id))).toHaveLength(1);
  });
});
