/**
 * The transfers list (GET /getQs) and the modal's read (GET /getQs?slug=), against the
 * emulators: every filter and count across active, expired (swept and not yet swept), unseen and
 * expiring-soon transfers; paging by `skip`; search; POST /deleteTransfer (storage released,
 * link 404, a second delete refused); per-recipient attribution; another user's slug refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { ListFilter, TransferDetail, TransferListResponse } from '../../functions/domain/dashboard-api';
import { LIST_PAGE_SIZE } from '../../functions/domain/dashboard-api';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { TEXTS } from '../../functions/domain/texts';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  json,
  randomData,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function send(
  user: TestUser,
  fileName: string,
  extra: Record<string, unknown> = {},
  size = 64,
): Promise<CreateTransferResponse> {
  const data = randomData(size);
  const res = await api(
    app,
    '/me/transfers',
    json({ sendAs: 'link', fileObjects: [{ fileName, size }], ...extra }, bearer(user)),
  );
  expect(res.status, res.text).toBe(201);
  const t = res.json as CreateTransferResponse;
  await uploadAll(app, t, new Map(t.files.map((f) => [f.itemPath ?? f.fileName, data])));
  expect((await completeTransfer(app, t)).status).toBe(200);
  return t;
}

async function list(
  user: TestUser,
  query: { filter?: ListFilter; skip?: number; q?: string } = {},
): Promise<TransferListResponse> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await api(app, `/getQs?${qs}`, { headers: bearer(user) });
  expect(res.status, res.text).toBe(200);
  return res.json as TransferListResponse;
}

/** Every row of a filter, page by page. */
async function listAll(user: TestUser, filter: ListFilter, q?: string): Promise<string[]> {
  const slugs: string[] = [];
  for (let skip = 0; ; skip += LIST_PAGE_SIZE) {
    const page = await list(user, { filter, skip, ...(q ? { q } : {}) });
    slugs.push(...page.allDocs.map((r) => r.slug));
    if (!page.hasMore) return slugs;
  }
}

async function detail(user: TestUser, slug: string) {
  return api(app, `/getQs?slug=${slug}`, { headers: bearer(user) });
}

/** Moves a sent transfer's expiry as if time had passed: the item and its index keys, as a send with that expiry would have written them. */
async function moveExpiry(slug: string, expiryDate: number) {
  const item = (
    await dynamo().send(
      new QueryCommand({
        TableName: app.stack.env.TABLE_NAME,
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': `TRANSFER#${slug}`, ':sk': 'META' },
      }),
    )
  ).Items![0]!;
  const bound = `${String(expiryDate).padStart(15, '0')}#${slug}`;
  await dynamo().send(
    new UpdateCommand({
      TableName: app.stack.env.TABLE_NAME,
      Key: keys.transfer(slug),
      UpdateExpression: `SET expiryDate = :x, sweepDueAt = :x, gsi2sk = :s, gsi3sk = :b${item.gsi4pk ? ', gsi4sk = :b' : ''}`,
      ExpressionAttributeValues: { ':x': expiryDate, ':s': keys.sweepIndex(expiryDate, slug).gsi2sk, ':b': bound },
    }),
  );
}

async function storageUsed(user: TestUser): Promise<number> {
  const res = await api(app, '/folderSize', json({}, bearer(user)));
  expect(res.status, res.text).toBe(200);
  return Number(res.json.size);
}

function expectConsistent(r: TransferListResponse) {
  expect(r.activeCount + r.expiredCount).toBe(r.allCount);
  expect(r.sharedCount).toBe(0);
}

let a: CreateTransferResponse; // link, will be deleted
let b: CreateTransferResponse; // email to two recipients
let c: CreateTransferResponse; // downloaded from Germany
let d: CreateTransferResponse; // expiring soon
let e: CreateTransferResponse; // expired

beforeAll(async () => {
  app = await startTestApp();
  alice = await createUser(app, 'alice.lists@example.com');
  bob = await createUser(app, 'bob.lists@example.com');
  a = await send(alice, 'alpha-report.pdf', {}, 1000);
  b = await send(alice, 'beta-cut.mov', {
    sendAs: 'email',
    emailTo: [{ email: 'carol@example.com' }, { email: 'dave@example.com' }],
  });
  c = await send(alice, 'gamma.txt');
  d = await send(alice, 'delta.zip');
  e = await send(alice, 'epsilon.jpg', {
    fileObjects: [{ fileName: 'epsilon.jpg', itemPath: 'photos/epsilon.jpg', size: 64 }],
  });
  await send(bob, 'bobs-own.txt');
});

afterAll(async () => {
  await app?.stop();
});

describe('GET /getQs: the list', () => {
  it("lists the sender's sent transfers newest first with the row fields and the counts", async () => {
    const r = await list(alice);
    expect(r.allDocs.map((x) => x.slug)).toEqual([e.id, d.id, c.id, b.id, a.id]);
    expect(r).toMatchObject({
      filter: 'all',
      skip: 0,
      hasMore: false,
      allCount: 5,
      activeCount: 5,
      expiredCount: 0,
      thisMonthsTransfers: 5,
      sharedCount: 0,
    });
    const rowB = r.allDocs.find((x) => x.slug === b.id)!;
    expect(rowB).toMatchObject({
      _id: b.id,
      fileName: 'beta-cut.mov',
      fileCount: 1,
      size: 64,
      sendAs: 'email',
      recipients: ['carol@example.com', 'dave@example.com'],
      state: 'active',
      total_downloads: 0,
      hasPassword: false,
    });
    expect(rowB.expiryDate - rowB.dateSent).toBe(604_800_000);
    expect(r.allDocs.find((x) => x.slug === a.id)).toMatchObject({ sendAs: 'link', recipients: [], size: 1000 });
  });

  it("does not list an upload in progress, nor another user's transfers", async () => {
    const res = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'unfinished.bin', size: 10 }] }, bearer(alice)),
    );
    expect(res.status).toBe(201);
    const all = await listAll(alice, 'all');
    expect(all).not.toContain((res.json as CreateTransferResponse).id);
    expect(all).toHaveLength(5);
    expect((await list(bob)).allCount).toBe(1);
  });

  it('a download takes a transfer out of "unseen", and the modal shows it from Germany', async () => {
    expect(await listAll(alice, 'unseen')).toEqual([e.id, d.id, c.id, b.id, a.id]);
    const dl = await api(
      app,
      '/getDownload/file',
      json({ id: c.id, fileId: c.files[0]!.fileId }, { 'cloudfront-viewer-country': 'DE' }),
    );
    expect(dl.status, dl.text).toBe(200);
    expect(await listAll(alice, 'unseen')).toEqual([e.id, d.id, b.id, a.id]);
    expect((await list(alice)).unseenCount).toBe(4);
    const res = await detail(alice, c.id);
    expect(res.status, res.text).toBe(200);
    const t = res.json as TransferDetail;
    expect(t.total_downloads).toBe(1);
    expect(t.downloads).toEqual([
      expect.objectContaining({ country_name: 'Germany', countryCode: 'DE', fileName: 'gamma.txt', dlOrigin: 'file' }),
    ]);
  });

  it('"expiring soon" holds transfers with under 2.2 days left, soonest first', async () => {
    await moveExpiry(d.id, Date.now() + 2 * DAY);
    await moveExpiry(c.id, Date.now() + 1 * DAY);
    expect(await listAll(alice, 'expiring')).toEqual([c.id, d.id]);
    expect(await listAll(alice, 'active')).toHaveLength(5);
    expect(await list(alice, { filter: 'active' })).toMatchObject({ expiringCount: 2, unseenCount: 4 });
  });

  it('a transfer past its expiry is expired at once, before and after the sweep marks it, and counted once', async () => {
    await moveExpiry(e.id, Date.now() - HOUR);
    const before = await list(alice, { filter: 'expired' });
    expect(before.allDocs.map((x) => x.slug)).toEqual([e.id]);
    expect(before.allDocs[0]!.state).toBe('expired');
    expect(before).toMatchObject({ allCount: 5, activeCount: 4, expiredCount: 1 });
    expect(await listAll(alice, 'unseen')).not.toContain(e.id);

    const swept = (await app.gateway.runJob('expiry-sweep')) as { expired: number };
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    const after = await list(alice, { filter: 'expired' });
    expect(after.allDocs.map((x) => x.slug)).toEqual([e.id]);
    expect(after).toMatchObject({ allCount: 5, activeCount: 4, expiredCount: 1 });
    expect(await listAll(alice, 'active')).not.toContain(e.id);
    expectConsistent(after);
  });

  it('an approved extension brings an expired transfer back to active (and unseen), counts follow', async () => {
    const ask = await api(app, '/extension/request', json({ id: e.id, email: 'someone@example.com', lang: 'en' }));
    expect(ask.status, ask.text).toBe(202);
    const mail = await waitForMail(app, alice.email, /\/extension\/[A-Za-z0-9_-]{43}/);
    const token = /\/extension\/([A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!;
    const ok = await api(app, '/checkExtension', json({ token }));
    expect(ok.status, ok.text).toBe(200);
    const r = await list(alice, { filter: 'active' });
    expect(r.allDocs.map((x) => x.slug)).toContain(e.id);
    expect(r).toMatchObject({ allCount: 5, activeCount: 5, expiredCount: 0 });
    expect(await listAll(alice, 'unseen')).toContain(e.id);
    expect(await listAll(alice, 'expired')).toEqual([]);
  });

  it('searches file names, folders and recipient addresses, case-insensitively', async () => {
    expect(await listAll(alice, 'all', 'BETA')).toEqual([b.id]);
    expect(await listAll(alice, 'all', 'dave@')).toEqual([b.id]);
    expect(await listAll(alice, 'all', 'photos/')).toEqual([e.id]);
    expect(await listAll(alice, 'active', 'gamma')).toEqual([c.id]);
    expect(await listAll(alice, 'all', 'nothing-like-this')).toEqual([]);
  });

  it('refuses bad query strings with 400 and a code', async () => {
    for (const qs of ['filter=bogus', 'skip=-1', 'skip=abc', 'skip=999999', `q=${'x'.repeat(101)}`, 'slug=../../etc']) {
      const res = await api(app, `/getQs?${qs}`, { headers: bearer(alice) });
      expect(res.status, `${qs}: ${res.text}`).toBe(400);
      expect(typeof res.json.error.code).toBe('string');
    }
    expect((await api(app, '/getQs')).status).toBe(401);
  });
});

describe("GET /getQs?slug=: the TransferModal's read", () => {
  it('shows files, recipients with their own links, and attributes each download to its recipient', async () => {
    const first = (await detail(alice, b.id)).json as TransferDetail;
    expect(first.recipientsDetail.map((r) => [r.email, r.downloads])).toEqual([
      ['carol@example.com', 0],
      ['dave@example.com', 0],
    ]);
    const carol = first.recipientsDetail[0]!;
    const recipient = carol.link.split('/').pop()!;
    expect(carol.link).toMatch(new RegExp(`/downloads/${b.id}/${recipient}$`));
    const dl = await api(
      app,
      '/getDownload/file',
      json({ id: b.id, fileId: b.files[0]!.fileId, recipient }, { 'cloudfront-viewer-country': 'JP' }),
    );
    expect(dl.status, dl.text).toBe(200);
    const t = (await detail(alice, b.id)).json as TransferDetail;
    expect(t).toMatchObject({
      slug: b.id,
      message: '',
      senderEmail: alice.email,
      sendAs: 'email',
      total_downloads: 1,
      purged: false,
      hasPassword: false,
    });
    expect(t.link).toMatch(new RegExp(`/w/${b.id}$`));
    expect(t.files).toEqual([{ fileId: b.files[0]!.fileId, fileName: 'beta-cut.mov', size: 64 }]);
    expect(t.recipientsDetail.map((r) => [r.email, r.downloads])).toEqual([
      ['carol@example.com', 1],
      ['dave@example.com', 0],
    ]);
    expect(t.downloads).toEqual([
      expect.objectContaining({ receiverEmail: 'carol@example.com', country_name: 'Japan' }),
    ]);
    const e1 = (await detail(alice, e.id)).json as TransferDetail;
    expect(e1.files).toEqual([expect.objectContaining({ fileName: 'epsilon.jpg', itemPath: 'photos/epsilon.jpg' })]);
  });

  it('serves only the owner: another user, no token and a forged slug get no data', async () => {
    const byBob = await detail(bob, b.id);
    expect([403, 404]).toContain(byBob.status);
    expect(byBob.text).not.toContain('beta-cut.mov');
    expect((await api(app, `/getQs?slug=${b.id}`)).status).toBe(401);
    expect((await detail(alice, 'Zq9Xw2K')).status).toBe(404);
  });
});

describe('paging by skip', () => {
  it('pages of 20 cover every transfer exactly once, newest first', async () => {
    const carla = await createUser(app, 'carla.pages@example.com');
    const sent: string[] = [];
    for (let i = 0; i < LIST_PAGE_SIZE + 3; i += 1) sent.unshift((await send(carla, `page-${i}.txt`)).id);
    const first = await list(carla, { skip: 0 });
    expect(first.allDocs).toHaveLength(LIST_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    const second = await list(carla, { skip: LIST_PAGE_SIZE });
    expect(second.allDocs).toHaveLength(3);
    expect(second.hasMore).toBe(false);
    expect([...first.allDocs, ...second.allDocs].map((x) => x.slug)).toEqual(sent);
    expect((await list(carla, { skip: 100 })).allDocs).toEqual([]);
    expect(first).toMatchObject({ allCount: LIST_PAGE_SIZE + 3, activeCount: LIST_PAGE_SIZE + 3, expiredCount: 0 });
  });
});

describe('POST /deleteTransfer', () => {
  it('deletes the files, releases the storage, the link answers 404, and a second delete is refused', async () => {
    const usedBefore = await storageUsed(alice);
    const res = await api(app, '/deleteTransfer', json({ slug: a.id }, bearer(alice)));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ deleted: true });
    expect(await storageUsed(alice)).toBe(usedBefore - 1000);
    const page = await api(app, '/getDownload', json({ id: a.id }));
    expect(page.status).toBe(404);
    expect(page.json.error.message).toBe(TEXTS.download404);
    const again = await api(app, '/deleteTransfer', json({ slug: a.id }, bearer(alice)));
    expect(again.status).toBe(404);
    const r = await list(alice);
    expect(r.allDocs.map((x) => x.slug)).not.toContain(a.id);
    expect(r).toMatchObject({ allCount: 4, activeCount: 4, expiredCount: 0 });
    expect((await detail(alice, a.id)).status).toBe(404);
  });

  it('deleting an expired transfer takes it off the expired count', async () => {
    await moveExpiry(d.id, Date.now() - HOUR);
    await app.gateway.runJob('expiry-sweep');
    expect(await list(alice)).toMatchObject({ allCount: 4, expiredCount: 1, activeCount: 3 });
    expect((await api(app, '/deleteTransfer', json({ slug: d.id }, bearer(alice)))).status).toBe(200);
    const r = await list(alice);
    expect(r).toMatchObject({ allCount: 3, expiredCount: 0, activeCount: 3 });
    expect(await listAll(alice, 'expired')).toEqual([]);
  });

  it('two deletes racing each other: one wins, the other is a 404, counts drop once', async () => {
    const [x, y] = await Promise.all([
      api(app, '/deleteTransfer', json({ slug: c.id }, bearer(alice))),
      api(app, '/deleteTransfer', json({ slug: c.id }, bearer(alice))),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 404]);
    const r = await list(alice);
    expect(r).toMatchObject({ allCount: 2, activeCount: 2, expiredCount: 0 });
    expectConsistent(r);
  });

  it('downloads racing a delete: each answers 200 or 404, never 5xx; storage is released once and the counts stay whole', async () => {
    const racer = await send(alice, 'race-me.bin', {}, 500);
    const usedBefore = await storageUsed(alice);
    const before = await list(alice);
    const download = () =>
      api(
        app,
        '/getDownload/file',
        json({ id: racer.id, fileId: racer.files[0]!.fileId }, { 'cloudfront-viewer-country': 'FR' }),
      );
    const answers = await Promise.all([
      download(),
      download(),
      api(app, '/deleteTransfer', json({ slug: racer.id }, bearer(alice))),
      download(),
      download(),
      download(),
    ]);
    for (const a of answers) expect([200, 404], a.text).toContain(a.status);
    expect(answers[2]!.status).toBe(200);
    expect((await api(app, '/getDownload', json({ id: racer.id }))).status).toBe(404);
    expect(await storageUsed(alice)).toBe(usedBefore - 500);
    const after = await list(alice);
    expect(after).toMatchObject({
      allCount: before.allCount - 1,
      activeCount: before.activeCount - 1,
      expiredCount: before.expiredCount,
    });
    expect(after.allDocs.map((x) => x.slug)).not.toContain(racer.id);
  });

  it("refuses another user's transfer, and the transfer stays", async () => {
    const res = await api(app, '/deleteTransfer', json({ slug: b.id }, bearer(bob)));
    expect([403, 404]).toContain(res.status);
    expect((await api(app, '/getDownload', json({ id: b.id }))).status).toBe(200);
  });
});
