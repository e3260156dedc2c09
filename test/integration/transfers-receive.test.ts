import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { routes, API_PREFIX } from '../../functions/routes';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { PURGE_GRACE_SECONDS } from '../../functions/domain/expiry';
import { TEXTS } from '../../functions/domain/texts';
import { readZip } from '../helpers/read-zip';
import { api, stackBuckets, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  fetchBytes,
  json,
  randomData,
  sha256,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let owner: TestUser;
/** the owner's API key (every scope), for the public API v1 routes */
let ownerKey: string;

beforeAll(async () => {
  app = await startTestApp();
  owner = await createUser(app, 'sender@example.com');
  ownerKey = (
    await api(
      app,
      '/me/api-keys',
      json({ name: 'malformed input', scopes: ['send', 'transfers:read', 'requests', 'webhooks'] }, bearer(owner)),
    )
  ).json.key as string;
});

afterAll(async () => {
  await app?.stop();
});

const DAY = 86_400_000;

async function send(
  files: Record<string, Buffer>,
  extra: Record<string, unknown> = {},
): Promise<CreateTransferResponse> {
  const res = await api(
    app,
    '/me/transfers',
    json(
      {
        sendAs: 'link',
        fileObjects: Object.entries(files).map(([p, d]) => ({
          fileName: p.split('/').pop()!,
          itemPath: p,
          size: d.length,
        })),
        ...extra,
      },
      bearer(owner),
    ),
  );
  expect(res.status, res.text).toBe(201);
  const t = res.json as CreateTransferResponse;
  await uploadAll(app, t, new Map(Object.entries(files)));
  expect((await completeTransfer(app, t)).status).toBe(200);
  return t;
}

async function setExpiry(id: string, expiryDate: number) {
  await dynamo().send(
    new UpdateCommand({
      TableName: app.stack.env.TABLE_NAME,
      Key: keys.transfer(id),
      UpdateExpression: 'SET expiryDate = :x, sweepDueAt = :x, gsi2sk = :s',
      ExpressionAttributeValues: { ':x': expiryDate, ':s': keys.sweepIndex(expiryDate, id).gsi2sk },
    }),
  );
}

async function unzipAll(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Map((await readZip(buf)).map((e) => [e.name, e.data]));
}

describe('download all as one ZIP', () => {
  it('answers 202 while the job builds it, then 200 with a ZIP whose files match byte for byte', async () => {
    const files = {
      'a.txt': randomData(1000),
      'docs/b.bin': randomData(6 * 1024 * 1024 + 7),
      'docs/c.bin': randomData(10),
    };
    const t = await send(files);
    const first = await api(app, '/zip', json({ id: t.id }));
    expect(first.status, first.text).toBe(202);
    expect(first.json).toEqual({ status: 'building' });
    await app.gateway.idle();
    const ready = await api(app, '/zip', json({ id: t.id }));
    expect(ready.status, ready.text).toBe(200);
    expect(ready.json.status).toBe('ready');
    const zip = await fetchBytes(ready.json.url as string);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toContain('.zip');
    expect(zip.bytes.length).toBe(ready.json.size);
    const entries = await unzipAll(zip.bytes);
    expect([...entries.keys()].sort()).toEqual(Object.keys(files).sort());
    for (const [name, data] of Object.entries(files)) expect(sha256(entries.get(name)!), name).toBe(sha256(data));
  });
});

describe('expiry, extension and the sweep', () => {
  let t: CreateTransferResponse;
  const data = randomData(4096);

  it('answers 410 with how long ago it expired', async () => {
    t = await send({ 'report.pdf': data });
    await setExpiry(t.id, Date.now() - 3 * DAY - 60_000);
    const res = await api(app, '/getDownload', json({ id: t.id }));
    expect(res.status).toBe(410);
    expect(res.json.error.message).toBe('Sorry, this download expired 3 days ago.');
    expect(res.json.error.details.extendable).toBe(true);
    expect((await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId }))).status).toBe(410);
  });

  it('the sweep marks it expired and keeps the files for the grace period', async () => {
    const result = (await app.gateway.runJob('expiry-sweep')) as { expired: number; purged: number };
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(result.purged).toBe(0);
    expect((await api(app, '/getDownload', json({ id: t.id }))).json.error.details.extendable).toBe(true);
  });

  it('a recipient asks for an extension; the sender approves by the mailed link; the recipient is told', async () => {
    const req = await api(app, '/extension/request', json({ id: t.id, email: 'late@example.com', lang: 'de' }));
    expect(req.status, req.text).toBe(202);
    const mail = await waitForMail(app, owner.email, /\/extension\/[A-Za-z0-9_-]{43}/);
    const token = /\/extension\/([A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!;
    const approved = await api(app, '/checkExtension', json({ token }));
    expect(approved.status, approved.text).toBe(200);
    const expiry = approved.json.expiryDate as number;
    expect(Math.abs(expiry - (Date.now() + 2 * DAY))).toBeLessThan(60_000);
    // A second click (or React StrictMode) answers the same date.
    expect((await api(app, '/checkExtension', json({ token }))).json.expiryDate).toBe(expiry);
    await waitForMail(app, 'late@example.com', new RegExp(`/downloads/${t.id}`));
    const view = await api(app, '/getDownload', json({ id: t.id }));
    expect(view.status).toBe(200);
    expect(view.json.expiryDate).toBe(expiry);
  });

  it('an unknown or malformed extension token says Link expired', async () => {
    const unknown = await api(app, '/checkExtension', json({ token: 'x'.repeat(43) }));
    expect(unknown.status).toBe(410);
    expect(unknown.json.error.message).toBe(TEXTS.linkExpired);
    expect((await api(app, '/checkExtension', json({ token: 'short' }))).status).toBe(400);
  });

  it('an extension is refused while the transfer is live', async () => {
    expect((await api(app, '/extension/request', json({ id: t.id, email: 'late@example.com' }))).status).toBe(409);
  });

  it('after the grace period the sweep deletes the objects, idempotently, and the page still says 410', async () => {
    await setExpiry(t.id, Date.now() - PURGE_GRACE_SECONDS * 1000 - 2 * DAY);
    await app.gateway.runJob('expiry-sweep'); // ready -> expired
    const purge = (await app.gateway.runJob('expiry-sweep')) as { purged: number; objectsDeleted: number };
    expect(purge.purged).toBe(1);
    expect(purge.objectsDeleted).toBeGreaterThanOrEqual(1);
    const again = (await app.gateway.runJob('expiry-sweep')) as { purged: number };
    expect(again.purged).toBe(0);
    const s3 = new S3Client({
      endpoint: app.stack.urls.s3,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const left = await s3.send(
      new ListObjectsV2Command({ Bucket: stackBuckets(app.stack).bucket, Prefix: `t/${t.id}/` }),
    );
    expect(left.KeyCount ?? 0).toBe(0);
    s3.destroy();
    const res = await api(app, '/getDownload', json({ id: t.id }));
    expect(res.status).toBe(410);
    expect(res.json.error.details.extendable).toBe(false);
    const ext = await api(app, '/extension/request', json({ id: t.id, email: 'late@example.com' }));
    expect(ext.status).toBe(410);
  });

  it('the sweep cancels and cleans an upload nobody finished within the resume window', async () => {
    const res = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'left.bin', size: 3 }] }, bearer(owner)),
    );
    const abandoned = res.json as CreateTransferResponse;
    await fetch(abandoned.files[0]!.url!, { method: 'PUT', body: 'abc' });
    await setExpiry(abandoned.id, Date.now() - 1000); // sweepDueAt in the past
    const result = (await app.gateway.runJob('expiry-sweep')) as { abandoned: number };
    expect(result.abandoned).toBe(1);
    // a link send is shared at its start: abandoned, its link says it was withdrawn (docs/decisions/0074)
    const gone = await api(app, '/getDownload', json({ id: abandoned.id }));
    expect([gone.status, gone.json.error?.code]).toEqual([410, 'transfer_withdrawn']);
  });
});

describe('malformed input on every route', () => {
  const bodies: [string, RequestInit][] = [
    ['invalid JSON', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": ' }],
    ['an array', json([1, 2])],
    [
      'wrong types',
      json({ id: 5, fileId: [], email: 7, code: {}, token: null, slug: 1, fileObjects: 'x', partNumber: 'one' }),
    ],
    ['a huge string', json({ id: 'a'.repeat(200_000), email: `${'a'.repeat(300)}@x.com` })],
    ['hostile names', json({ fileObjects: [{ fileName: '../../etc/passwd\u0000<script>', size: -1 }] })],
  ];
  const targets = routes.filter((r) => !['/health', '/me/claims'].includes(r.path));
  /** Routes that read no body: with a valid session they may answer 200 whatever is sent. */
  const bodyless = new Set([
    'GET /logout',
    'GET /me',
    'GET /refreshToken',
    'POST /folderSize',
    'POST /quicksend2',
    'POST /notifications',
    'GET /canny/changelog',
    'GET /getQs',
    'GET /contacts',
    'GET /contacts/export',
    'GET /regions',
    'GET /billing/config',
    'GET /getStripeData',
    'POST /billing/setup-intent',
    'POST /billing/refund',
    'GET /billing/invoices',
    'GET /branding/me',
    'GET /teams',
    'GET /domains',
    'DELETE /domains/custom',
    'DELETE /domains/email',
    'GET /webhooks',
    'GET /me/api-keys',
    'GET /v1/openapi.json',
    'GET /v1/transfers',
    'GET /v1/requests',
    'GET /v1/webhooks',
    'GET /receipts/keys',
  ]);
  /** Every field optional and unknown keys ignored: only unparseable bodies are refused. */
  const allOptional = new Set(['POST /v1/updateProfile', 'PATCH /branding/me']);

  it.each(targets.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers 4xx for bad input, never 5xx',
    async (name, route) => {
      const path = route.path.replace('{id}', 'AAAAAAA').replace('{fileId}', 'BBBBBBBBBB');
      for (const [label, init] of bodies) {
        const res = await api(app, path, {
          ...init,
          method: route.method,
          headers: {
            ...(init.headers as Record<string, string>),
            ...(route.auth === 'jwt' ? bearer(owner) : {}),
            ...(route.auth === 'key' ? { authorization: `Bearer ${ownerKey}` } : {}),
            'x-upload-token': 'nope',
            'x-sender-token': 'nope',
          },
          ...(route.method === 'GET' ? { body: undefined } : {}),
        });
        const mustRefuse =
          !bodyless.has(name) && (!allOptional.has(name) || label === 'invalid JSON' || label === 'an array');
        if (mustRefuse)
          expect(
            res.status,
            `${route.method} ${API_PREFIX}${route.path} with ${label}: ${res.text}`,
          ).toBeGreaterThanOrEqual(400);
        expect(res.status, `${route.method} ${API_PREFIX}${route.path} with ${label}: ${res.text}`).toBeLessThan(500);
        expect(res.text).not.toMatch(/at .*\.ts:\d+/);
      }
    },
  );
});
