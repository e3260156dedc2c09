/**
 * The second probe's edge findings against the real local stack: per-client limits through the
 * app origin (which plays CloudFront), the gateway's own port, the ZIP build's lease, a dead
 * emulator (restarted by the supervisor; a 503 with a code while it is away).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalApp, type LocalApp } from '../../scripts/local/app';
import { freePorts } from '../../scripts/local/ports';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { startWebDevServer, type WebDevServer } from '../../frontend/dev-server';
import { securityHeaders } from '../../frontend/csp';
import { keys } from '../../functions/data/keys';
import { getZip } from '../../functions/data/transfers';
import { buildTransferZip, zipContentHash, zipKey } from '../../functions/services/downloads';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { api, viaCloudFront } from '../helpers/local-app';
import { bearer, completeTransfer, createUser, json, randomData, uploadAll, type TestUser } from '../helpers/transfers';

const APP_ORIGIN = 'http://127.0.0.1:5999';
let app: LocalApp;
let web: WebDevServer;
let owner: TestUser;
const lines: string[] = [];

beforeAll(async () => {
  app = await startLocalApp({
    ports: 'free',
    appOrigins: [APP_ORIGIN],
    appOrigin: APP_ORIGIN,
    apiPort: 0,
    log: (l) => lines.push(l),
  });
  const [webPort] = await freePorts(1);
  web = await startWebDevServer({
    port: webPort!,
    apiOrigin: app.apiOrigin,
    storage: [app.stack.urls.s3],
    originSecret: app.originSecret,
  });
  owner = await createUser(app, 'edge-owner@example.com');
});

afterAll(async () => {
  await web?.close();
  await app?.stop();
});

async function sendLink(password?: string): Promise<CreateTransferResponse> {
  const create = await api(
    app,
    '/me/transfers',
    json(
      {
        sendAs: 'link',
        ...(password ? { password } : {}),
        fileObjects: [
          { fileName: 'a.txt', size: 64 },
          { fileName: 'b.txt', size: 32 },
        ],
      },
      bearer(owner),
    ),
  );
  expect(create.status, create.text).toBe(201);
  const t = create.json as CreateTransferResponse;
  await uploadAll(
    app,
    t,
    new Map([
      ['a.txt', randomData(64)],
      ['b.txt', randomData(32)],
    ]),
  );
  expect((await completeTransfer(app, t)).status).toBe(200);
  await app.gateway.idle();
  return t;
}

/** A browser's request to the app origin, with headers of its choosing. */
async function viaApp(path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${web.url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    json: (await res.json().catch(() => undefined)) as Record<string, any> | undefined,
  };
}

/** What a client forging CloudFront's headers sends: a new viewer address each time, and a guessed secret. */
const forged = (i: number) => ({
  'CloudFront-Viewer-Address': `203.0.113.${i % 250}:${40000 + i}`,
  'X-Origin-Verify': `guess-${i}`,
});

describe('per-client limits hold through the app origin, whatever viewer address a client claims', () => {
  it('30 wrong download passwords from one browser with a rotating forged address: 10 free, then 429', async () => {
    const t = await sendLink('right horse battery');
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1)
      statuses.push((await viaApp('/getDownload', { id: t.id, password: `guess-${i}` }, forged(i))).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
  });

  it('wrong sign-in passwords with a rotating forged address: 5 free, then the client waits', async () => {
    const email = 'edge-signin@example.com';
    await createUser(app, email, 'free');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1)
      statuses.push((await viaApp('/combinedAuth', { email, password: `wrong-${i}` }, forged(i))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it('a direct call to the gateway is known by its source address, whatever viewer address it claims', async () => {
    const t = await sendLink('another right one');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push(
        (
          await api(
            app,
            '/getDownload',
            json({ id: t.id, password: `guess-${i}` }, { 'cloudfront-viewer-address': `198.51.100.${i}:443` }),
          )
        ).status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // CloudFront's secret (what the app origin adds) is what makes a viewer address count
    expect(
      (
        await api(
          app,
          '/getDownload',
          json({ id: t.id, password: 'another right one' }, viaCloudFront(app, '198.51.100.200')),
        )
      ).status,
    ).toBe(200);
  });
});

/** fetch() will not send another Host: a raw request does. */
function rawGet(
  origin: string,
  path: string,
  host: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("the local gateway's own port", () => {
  it('answers loopback names only (421 to a rebinding name, as the app port does)', async () => {
    const port = new URL(app.apiOrigin).port;
    expect((await rawGet(app.apiOrigin, '/api/health', `127.0.0.1:${port}`)).status).toBe(200);
    expect((await rawGet(app.apiOrigin, '/api/health', `localhost:${port}`)).status).toBe(200);
    expect((await rawGet(app.apiOrigin, '/api/health', `rebind.attacker.example:${port}`)).status).toBe(421);
    expect((await rawGet(web.url, '/api/health', `rebind.attacker.example:${new URL(web.url).port}`)).status).toBe(421);
  });

  it('sends the security headers the app sends', async () => {
    const expected = securityHeaders({ storage: [app.stack.urls.s3] });
    for (const path of ['/api/health', '/api/no-such-route']) {
      const res = await rawGet(app.apiOrigin, path, '127.0.0.1');
      for (const [name, value] of Object.entries(expected)) expect(res.headers[name], `${path} ${name}`).toBe(value);
    }
  });
});

describe('the ZIP build holds a short lease, renewed while it runs', () => {
  /** A record as a build left it: `leaseUntil` its lease, `attempt` its claim. */
  async function putBuilding(
    slug: string,
    contentHash: string,
    startedAt: number,
    leaseUntil: number,
    attempt: string,
  ) {
    await dynamo().send(
      new PutCommand({
        TableName: app.stack.env.TABLE_NAME,
        Item: {
          ...keys.transferZip(slug, contentHash),
          entity: 'TransferZip',
          slug,
          contentHash,
          status: 'building',
          key: zipKey(slug, contentHash),
          startedAt,
          leaseUntil,
          attempt,
        },
      }),
    );
  }

  it('a build that died a minute ago is started again by the next request, and the ZIP gets made', async () => {
    const t = await sendLink();
    const hash = zipContentHash(t.files);
    await putBuilding(t.id, hash, Date.now() - 61_000, Date.now() - 1_000, 'a0000000-0000-4000-8000-000000000000');
    const first = await api(app, '/zip', json({ id: t.id }));
    expect(first.status, JSON.stringify(first.json)).toBe(202);
    await app.gateway.idle();
    const ready = await api(app, '/zip', json({ id: t.id }));
    expect(ready.status, JSON.stringify(ready.json)).toBe(200);
    expect(ready.json.status).toBe('ready');
  });

  it('a build whose lease is current is left alone', async () => {
    const t = await sendLink();
    const hash = zipContentHash(t.files);
    const attempt = 'b0000000-0000-4000-8000-000000000000';
    await putBuilding(t.id, hash, Date.now() - 5_000, Date.now() + 55_000, attempt);
    expect((await api(app, '/zip', json({ id: t.id }))).status).toBe(202);
    await app.gateway.idle();
    expect(await getZip(t.id, hash)).toMatchObject({ status: 'building', attempt });
  });

  it('a live build renews its lease past its first term: nobody takes it over, and it finishes', async () => {
    const t = await sendLink();
    const hash = zipContentHash(t.files);
    const attempt = 'c0000000-0000-4000-8000-000000000000';
    const lease = { ms: 1_500, renewEveryMs: 300 };
    await putBuilding(t.id, hash, Date.now(), Date.now() + lease.ms, attempt);
    const during: { status: number; attempt?: string; leaseAhead: number }[] = [];
    await buildTransferZip(
      { slug: t.id, contentHash: hash, attempt },
      async ({ signal }) => {
        for (let i = 0; i < 4; i += 1) {
          await new Promise((r) => setTimeout(r, 900));
          const status = (await api(app, '/zip', json({ id: t.id }))).status;
          const zip = await getZip(t.id, hash);
          during.push({
            status,
            ...(zip?.attempt ? { attempt: zip.attempt } : {}),
            leaseAhead: (zip?.leaseUntil ?? 0) - Date.now(),
          });
        }
        expect(signal.aborted).toBe(false);
        return { size: 96 };
      },
      lease,
    );
    // 3.6 s of building under a 1.5 s lease: every poll found it building under the same claim
    expect(during.map((d) => [d.status, d.attempt])).toEqual(Array(4).fill([202, attempt]));
    for (const d of during) expect(d.leaseAhead).toBeGreaterThan(0);
    expect(await getZip(t.id, hash)).toMatchObject({ status: 'ready', size: 96, attempt });
  });

  it('a build that lost its lease to a retry is aborted and leaves the record to it', async () => {
    const t = await sendLink();
    const hash = zipContentHash(t.files);
    const stale = 'd0000000-0000-4000-8000-000000000000';
    const retry = 'e0000000-0000-4000-8000-000000000000';
    await putBuilding(t.id, hash, Date.now(), Date.now() + 60_000, stale);
    let aborted = false;
    await buildTransferZip(
      { slug: t.id, contentHash: hash, attempt: stale },
      async ({ signal }) => {
        // meanwhile its lease ran out and another request claimed the build
        await putBuilding(t.id, hash, Date.now(), Date.now() + 60_000, retry);
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        aborted = signal.aborted;
        throw signal.reason;
      },
      { ms: 1_000, renewEveryMs: 100 },
    );
    expect(aborted).toBe(true);
    expect(await getZip(t.id, hash)).toMatchObject({ status: 'building', attempt: retry });
  });
});

describe('a backing service that dies', () => {
  it('DynamoDB Local killed: the supervisor starts it again, says so in one line, and the routes answer again', async () => {
    const before = lines.length;
    const child = app.stack.child('dynamodb');
    child.process.kill('SIGKILL');
    const end = Date.now() + 60_000;
    let health = 0;
    while (Date.now() < end) {
      health = (await api(app, '/health')).status;
      if (health === 200 && app.stack.child('dynamodb') !== child) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(health).toBe(200);
    expect(lines.slice(before).filter((l) => l.startsWith('[stack]'))).toEqual([
      '[stack] DynamoDB Local exited (SIGKILL); restarting it',
    ]);
    // in memory it came back empty, with its table: a route that reads it answers as usual
    expect((await api(app, '/getDownload', json({ id: 'Abc1234' }))).status).toBe(404);
  });

  it('DynamoDB Local stopped: routes answer 503 service_unavailable with Retry-After, not a 500', async () => {
    await app.stack.stopService('dynamodb');
    const res = await api(app, '/getDownload', json({ id: 'Abc1234' }));
    expect(res.status, res.text).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.json.error).toMatchObject({ code: 'service_unavailable', details: { retryAfterSeconds: 5 } });
    expect(res.text).not.toContain('ECONNREFUSED');
    const signIn = await viaApp('/combinedAuth', { email: 'edge-owner@example.com', password: 'whatever1' }, {});
    expect(signIn.status).toBe(503);
    expect(signIn.json?.error.code).toBe('service_unavailable');
    expect((await api(app, '/health')).status).toBe(503);
  });
});
