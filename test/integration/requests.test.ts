/**
 * File requests end to end (contract functions/domain/requests-api.ts), against the
 * local emulators: a requester creates a request; a visitor proves an address with the mailed
 * code and uploads through the public link with the transfer upload engine; the requester is
 * told (bell and mail), lists and downloads the uploads (files and ZIP, byte for byte), deletes
 * one (storage comes back), closes and reopens. Refusals happen on the server: closed, past due
 * and unknown requests, the requester's full storage (also when two uploads race), the request's
 * rules, another user's tries, hostile file names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { NotificationsResponse } from '../../functions/domain/dashboard-api';
import {
  REQUEST_UPLOAD_LIMITS,
  type ListRequestsResponse,
  type PublicRequestResponse,
  type RequestDetailResponse,
  type RequestSummary,
} from '../../functions/domain/requests-api';
import { limitsFor } from '../../functions/domain/plans';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  fetchBytes,
  guestToken,
  json,
  mailsTo,
  randomData,
  sha256,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';
import { readZip } from '../helpers/read-zip';

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;
let visitorToken: string;
const VISITOR = 'visitor.one@example.com';
const DAY = 24 * 3600 * 1000;
const table = () => app.stack.env.TABLE_NAME!;

beforeAll(async () => {
  app = await startTestApp();
  alice = await createUser(app, 'alice.requester@example.com', 'pro');
  bob = await createUser(app, 'bob.nosy@example.com', 'pro');
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.userProfile(alice.sub),
      UpdateExpression: 'SET fullName = :n',
      ExpressionAttributeValues: { ':n': 'Alice Archer' },
    }),
  );
  visitorToken = await guestToken(app, VISITOR);
});

afterAll(async () => {
  await app?.stop();
});

async function createRequest(user: TestUser, body: Record<string, unknown>): Promise<RequestSummary> {
  const res = await api(app, '/requests', json(body, bearer(user)));
  expect(res.status, res.text).toBe(201);
  return res.json as RequestSummary;
}

function startUpload(
  id: string,
  files: { fileName: string; size: number; itemPath?: string }[],
  opts: { token?: string | null; email?: string; name?: string } = {},
) {
  const token = opts.token === undefined ? visitorToken : opts.token;
  return api(
    app,
    `/r/${id}/uploads`,
    json(
      {
        senderName: opts.name ?? 'Vera Visitor',
        senderEmail: opts.email ?? VISITOR,
        message: 'Here you go',
        fileObjects: files,
        lang: 'en',
      },
      token ? { 'x-sender-token': token } : {},
    ),
  );
}

/** A visitor's whole upload: start, upload every file, complete. */
async function uploadTo(id: string, contents: Record<string, Buffer>): Promise<CreateTransferResponse> {
  const files = Object.entries(contents).map(([path, d]) => ({
    fileName: path.split('/').pop()!,
    ...(path.includes('/') ? { itemPath: path } : {}),
    size: d.length,
  }));
  const res = await startUpload(id, files);
  expect(res.status, res.text).toBe(201);
  const t = res.json as CreateTransferResponse;
  await uploadAll(app, t, new Map(Object.entries(contents)));
  const done = await completeTransfer(app, t);
  expect(done.status, done.text).toBe(200);
  expect(done.json.recipients).toEqual([]);
  return t;
}

async function detail(user: TestUser, id: string) {
  return api(app, `/requests?slug=${id}`, { headers: bearer(user) });
}

async function storageUsed(user: TestUser): Promise<number> {
  const res = await api(app, '/folderSize', json({}, bearer(user)));
  expect(res.status, res.text).toBe(200);
  return Number(res.json.size);
}

async function setRequest(id: string, set: string, values: Record<string, unknown>) {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.request(id),
      UpdateExpression: `SET ${set}`,
      ExpressionAttributeValues: values,
    }),
  );
}

describe('a request, a visitor upload, the requester told and downloading', () => {
  const FILES = { 'contract-signed.pdf': randomData(2000), 'photos/site-visit.jpg': randomData(6 * 1024 * 1024 + 5) };
  let req: RequestSummary;
  let upload: CreateTransferResponse;
  let usedBefore: number;

  it('creates a request with a public link; the public page shows only what the visitor needs', async () => {
    req = await createRequest(alice, {
      title: 'Signed contract and photos',
      message: 'Please send the signed contract.',
      rules: { maxFiles: 5 },
    });
    expect(req).toMatchObject({
      title: 'Signed contract and photos',
      state: 'open',
      uploadCount: 0,
      totalBytes: 0,
      lastUploadAt: null,
      dueDate: null,
      rules: { maxFiles: 5 },
    });
    expect(req.id).toMatch(/^[A-Za-z0-9]{8}$/u);
    expect(req.link).toMatch(new RegExp(`/r/${req.id}$`));
    const page = await api(app, `/r/${req.id}`);
    expect(page.status, page.text).toBe(200);
    const view = page.json as PublicRequestResponse;
    expect(Object.keys(view).sort()).toEqual([
      'branding',
      'dueDate',
      'id',
      'logoUrl',
      'maxBytes',
      'maxFiles',
      'message',
      'requesterName',
      'rules',
      'title',
    ]);
    expect(view).toMatchObject({
      id: req.id,
      title: req.title,
      message: req.message,
      requesterName: 'Alice Archer',
      logoUrl: null,
      maxFiles: 5,
      maxBytes: limitsFor('pro').uploadLimit,
    });
    expect(page.text).not.toContain(alice.email);
    expect(page.text).not.toContain(alice.sub);
  });

  it('a verified visitor uploads two files (one multipart, one in a folder); it counts against the requester', async () => {
    usedBefore = await storageUsed(alice);
    upload = await uploadTo(req.id, FILES);
    expect(await storageUsed(alice)).toBe(usedBefore + 2000 + 6 * 1024 * 1024 + 5);
    // Never one of the requester's sends.
    const sends = await api(app, '/getQs', { headers: bearer(alice) });
    expect(sends.json.allCount).toBe(0);
    const item = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.transfer(upload.id) }));
    expect(item.Item).toMatchObject({
      requestId: req.id,
      storageOwner: alice.sub,
      senderEmail: VISITOR,
      status: 'ready',
      anon: false,
    });
    expect(item.Item!.senderId).toBeUndefined();
  });

  it('the requester gets a bell notification and a mail', async () => {
    const bell = await api(app, '/notifications', json({}, bearer(alice)));
    expect(bell.status, bell.text).toBe(200);
    const { notifications, unreadCount } = bell.json as NotificationsResponse;
    expect(unreadCount).toBe(1);
    expect(notifications[0]).toMatchObject({
      kind: 'request-upload',
      slug: upload.id,
      read: false,
      request: {
        requestId: req.id,
        requestTitle: req.title,
        senderName: 'Vera Visitor',
        senderEmail: VISITOR,
        fileCount: 2,
        totalBytes: 2000 + 6 * 1024 * 1024 + 5,
      },
    });
    const mail = await waitForMail(app, alice.email, new RegExp(`/dash/requests/${req.id}`));
    expect(mail.subject).toBe(`${VISITOR} uploaded 2 files to “${req.title}”`);
    expect(mail.body.text).toContain('Here you go');
    expect(mail.body.text).toContain('contract-signed.pdf');
  });

  it('a repeated completion (a lost answer retried) counts, lists and notifies once', async () => {
    const again = await completeTransfer(app, upload);
    expect(again.status, again.text).toBe(200);
    const both = await Promise.all([completeTransfer(app, upload), completeTransfer(app, upload)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const d = (await detail(alice, req.id)).json as RequestDetailResponse;
    expect(d.request.uploadCount).toBe(1);
    expect(d.uploads).toHaveLength(1);
    const bell = (await api(app, '/notifications', json({}, bearer(alice)))).json as NotificationsResponse;
    expect(bell.notifications).toHaveLength(1);
  });

  it('lists the request with its counters and the upload with its files', async () => {
    const list = await api(app, `/requests?userid=${alice.sub}`, { headers: bearer(alice) });
    expect(list.status, list.text).toBe(200);
    const [summary] = (list.json as ListRequestsResponse).requests;
    expect(summary).toMatchObject({
      id: req.id,
      uploadCount: 1,
      totalBytes: 2000 + 6 * 1024 * 1024 + 5,
      state: 'open',
    });
    expect(summary!.lastUploadAt).toEqual(expect.any(Number));
    const res = await detail(alice, req.id);
    expect(res.status, res.text).toBe(200);
    const d = res.json as RequestDetailResponse;
    expect(d.uploads).toHaveLength(1);
    expect(d.uploads[0]).toMatchObject({
      slug: upload.id,
      senderName: 'Vera Visitor',
      senderEmail: VISITOR,
      message: 'Here you go',
      fileCount: 2,
    });
    expect(d.uploads[0]!.files.map((f) => f.itemPath ?? f.fileName).sort()).toEqual(Object.keys(FILES).sort());
  });

  it('downloads each file and the ZIP byte for byte; the visitor gets no download notice', async () => {
    const d = (await detail(alice, req.id)).json as RequestDetailResponse;
    for (const f of d.uploads[0]!.files) {
      const res = await api(app, '/getDownload/file', json({ id: upload.id, fileId: f.fileId }));
      expect(res.status, res.text).toBe(200);
      const got = await fetchBytes(res.json.url as string);
      expect(got.headers.get('content-disposition')).toContain('attachment');
      expect(sha256(got.bytes)).toBe(sha256(FILES[(f.itemPath ?? f.fileName) as keyof typeof FILES]));
    }
    expect((await api(app, '/zip', json({ id: upload.id }))).status).toBe(202);
    await app.gateway.idle();
    const ready = await api(app, '/zip', json({ id: upload.id }));
    expect(ready.status, ready.text).toBe(200);
    const zip = await fetchBytes(ready.json.url as string);
    const entries = new Map((await readZip(zip.bytes)).map((e) => [e.name, e.data]));
    expect([...entries.keys()].sort()).toEqual(Object.keys(FILES).sort());
    for (const [name, data] of Object.entries(FILES)) expect(sha256(entries.get(name)!), name).toBe(sha256(data));
    expect((await mailsTo(app, VISITOR)).filter((m) => /download/i.test(m.subject))).toEqual([]);
  });

  it('another user can neither read, close, nor delete in it; listing someone else is 403', async () => {
    const peek = await detail(bob, req.id);
    expect(peek.status, peek.text).toBe(404);
    expect(peek.json.error.code).toBe('request_not_found');
    const others = await api(app, `/requests?userid=${alice.sub}`, { headers: bearer(bob) });
    expect(others.status, others.text).toBe(403);
    expect(others.json.error.code).toBe('not_your_requests');
    const close = await api(app, `/requests/${req.id}`, json({ state: 'closed' }, bearer(bob), 'PATCH'));
    expect(close.status, close.text).toBe(404);
    const del = await api(app, `/requests/${req.id}/uploads/${upload.id}`, { method: 'DELETE', headers: bearer(bob) });
    expect(del.status, del.text).toBe(404);
    for (const r of [peek, others, close, del]) expect(r.text).not.toContain(VISITOR);
    // The visitor's upload token cannot delete it either, and the transfer routes see no owner in Bob.
    expect((await api(app, `/transfers/${upload.id}`, { method: 'DELETE', headers: bearer(bob) })).status).toBe(403);
    expect((await detail(alice, req.id)).json.uploads).toHaveLength(1);
    expect((await api(app, `/requests?userid=${bob.sub}`, { headers: bearer(bob) })).json).toEqual({ requests: [] });
  });

  it('the requester deletes the upload: files gone, storage and counters back', async () => {
    const del = await api(app, `/requests/${req.id}/uploads/${upload.id}`, {
      method: 'DELETE',
      headers: bearer(alice),
    });
    expect(del.status, del.text).toBe(200);
    expect(await storageUsed(alice)).toBe(usedBefore);
    const d = (await detail(alice, req.id)).json as RequestDetailResponse;
    expect(d.uploads).toEqual([]);
    expect(d.request).toMatchObject({ uploadCount: 0, totalBytes: 0 });
    expect((await api(app, '/getDownload', json({ id: upload.id }))).status).toBe(404);
    const again = await api(app, `/requests/${req.id}/uploads/${upload.id}`, {
      method: 'DELETE',
      headers: bearer(alice),
    });
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe('upload_not_found');
    expect(await storageUsed(alice)).toBe(usedBefore);
  });
});

describe('closed, past due and unknown requests', () => {
  it('a closed request answers 410 and takes no upload; reopened, it does again', async () => {
    const req = await createRequest(alice, { title: 'Closing soon' });
    const closed = await api(app, `/requests/${req.id}`, json({ state: 'closed' }, bearer(alice), 'PATCH'));
    expect(closed.status, closed.text).toBe(200);
    expect(closed.json.state).toBe('closed');
    const page = await api(app, `/r/${req.id}`);
    expect(page.status).toBe(410);
    expect(page.json.error).toMatchObject({
      code: 'request_closed',
      details: { state: 'closed', title: 'Closing soon', requesterName: 'Alice Archer' },
    });
    const refused = await startUpload(req.id, [{ fileName: 'late.pdf', size: 10 }]);
    expect(refused.status, refused.text).toBe(410);
    expect(refused.json.error.code).toBe('request_closed');
    const reopened = await api(app, `/requests/${req.id}`, json({ state: 'open' }, bearer(alice), 'PATCH'));
    expect(reopened.json.state).toBe('open');
    expect((await api(app, `/r/${req.id}`)).status).toBe(200);
    await uploadTo(req.id, { 'late.pdf': randomData(10) });
  });

  it('a request past its due date answers 410 request_expired; reopening needs a new date or none', async () => {
    const req = await createRequest(alice, { title: 'Due tomorrow', dueDate: Date.now() + DAY });
    await setRequest(req.id, 'dueDate = :d', { ':d': Date.now() - 1000 });
    const page = await api(app, `/r/${req.id}`);
    expect(page.status).toBe(410);
    expect(page.json.error.code).toBe('request_expired');
    const refused = await startUpload(req.id, [{ fileName: 'x.pdf', size: 10 }]);
    expect(refused.status).toBe(410);
    expect(refused.json.error.code).toBe('request_expired');
    const listed = (await api(app, `/requests?userid=${alice.sub}`, { headers: bearer(alice) }))
      .json as ListRequestsResponse;
    expect(listed.requests.find((r) => r.id === req.id)!.state).toBe('expired');
    const stillPast = await api(app, `/requests/${req.id}`, json({ state: 'open' }, bearer(alice), 'PATCH'));
    expect(stillPast.status).toBe(400);
    expect(stillPast.json.error.code).toBe('due_date_past');
    const moved = await api(
      app,
      `/requests/${req.id}`,
      json({ state: 'open', dueDate: Date.now() + 2 * DAY }, bearer(alice), 'PATCH'),
    );
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.state).toBe('open');
    expect((await api(app, `/r/${req.id}`)).status).toBe(200);
  });

  it('an unknown request is 404; a malformed id is 400', async () => {
    for (const res of [
      await api(app, '/r/Zz9Zz9Zz'),
      await startUpload('Zz9Zz9Zz', [{ fileName: 'a.pdf', size: 1 }]),
    ]) {
      expect(res.status, res.text).toBe(404);
      expect(res.json.error.code).toBe('request_not_found');
    }
    expect((await api(app, '/r/short')).status).toBe(400);
  });
});

describe('the visitor proves the address they upload from', () => {
  it('no sender token, a forged one, or another address: 403 sender_not_verified', async () => {
    const req = await createRequest(alice, { title: 'Verified only' });
    for (const res of [
      await startUpload(req.id, [{ fileName: 'a.pdf', size: 1 }], { token: null }),
      await startUpload(req.id, [{ fileName: 'a.pdf', size: 1 }], { token: 'f'.repeat(43) }),
      await startUpload(req.id, [{ fileName: 'a.pdf', size: 1 }], { email: 'someone.else@example.com' }),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.json.error.code).toBe('sender_not_verified');
    }
  });
});

describe('rules and limits on the server', () => {
  it('refuses rules beyond the plan and a due date in the past', async () => {
    const plan = limitsFor('pro');
    for (const rules of [{ maxBytes: plan.uploadLimit + 1 }, { maxFiles: plan.files + 1 }]) {
      const res = await api(app, '/requests', json({ title: 'Too generous', rules }, bearer(alice)));
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('rules_exceed_plan');
    }
    const past = await api(app, '/requests', json({ title: 'Yesterday', dueDate: Date.now() - DAY }, bearer(alice)));
    expect(past.json.error.code).toBe('due_date_past');
    const bad = await api(
      app,
      '/requests',
      json({ title: 'Types', rules: { allowedTypes: ['p d f'] } }, bearer(alice)),
    );
    expect(bad.status).toBe(400);
  });

  it('size, count and type rules refuse an upload before anything is reserved', async () => {
    const req = await createRequest(alice, {
      title: 'Strict',
      rules: { maxBytes: 100, maxFiles: 2, allowedTypes: ['.PDF', 'jpg'] },
    });
    expect(req.rules).toEqual({ maxBytes: 100, maxFiles: 2, allowedTypes: ['pdf', 'jpg'] });
    const before = await storageUsed(alice);
    const cases: [{ fileName: string; size: number }[], string][] = [
      [[{ fileName: 'big.pdf', size: 101 }], 'request_too_large'],
      [
        [
          { fileName: 'a.pdf', size: 1 },
          { fileName: 'b.pdf', size: 1 },
          { fileName: 'c.pdf', size: 1 },
        ],
        'request_too_many_files',
      ],
      [
        [
          { fileName: 'a.pdf', size: 1 },
          { fileName: 'notes.txt', size: 1 },
        ],
        'request_file_type',
      ],
      [[{ fileName: 'noextension', size: 1 }], 'request_file_type'],
    ];
    for (const [files, code] of cases) {
      const res = await startUpload(req.id, files);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe(code);
    }
    expect(await storageUsed(alice)).toBe(before);
    const ok = await startUpload(req.id, [
      { fileName: 'scan.PDF', size: 50 },
      { fileName: 'photo.jpg', size: 50 },
    ]);
    expect(ok.status, ok.text).toBe(201);
  });

  it('a full storage refuses with the limit screen text; racing uploads never exceed it', async () => {
    const carol = await createUser(app, 'carol.full@example.com', 'free');
    const limit = limitsFor('free').storage;
    const req = await createRequest(carol, { title: 'Almost full' });
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.userProfile(carol.sub),
        UpdateExpression: 'SET storageUsed = :u',
        ExpressionAttributeValues: { ':u': limit - 150 },
      }),
    );
    const full = await startUpload(req.id, [{ fileName: 'too-much.pdf', size: 151 }]);
    expect(full.status, full.text).toBe(403);
    expect(full.json.error.code).toBe('storage_full');
    expect(full.json.error.message).toContain('Your storage is now full');
    const racing = await Promise.all(
      [1, 2, 3].map((n) => startUpload(req.id, [{ fileName: `part-${n}.pdf`, size: 100 }])),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    expect(await storageUsed(carol)).toBe(limit - 50);
  });

  it('one visitor cannot pile up unfinished uploads holding the requester storage: 429 after the day allowance', async () => {
    const req = await createRequest(alice, { title: 'Popular' });
    const results = [];
    for (let i = 0; i <= REQUEST_UPLOAD_LIMITS.perAddressAndRequest; i += 1)
      results.push((await startUpload(req.id, [{ fileName: `n${i}.pdf`, size: 1 }])).status);
    expect(results.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(results.at(-1)).toBe(429);
  });

  it('a visitor who cancels gives the storage back; the request never lists the upload', async () => {
    const req = await createRequest(alice, { title: 'Cancelled one' });
    const before = await storageUsed(alice);
    const res = await startUpload(req.id, [{ fileName: 'half.pdf', size: 4321 }]);
    expect(res.status, res.text).toBe(201);
    expect(await storageUsed(alice)).toBe(before + 4321);
    const t = res.json as CreateTransferResponse;
    const cancel = await api(app, `/transfers/${t.id}/cancel`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(await storageUsed(alice)).toBe(before);
    const d = (await detail(alice, req.id)).json as RequestDetailResponse;
    expect(d.uploads).toEqual([]);
    expect(d.request.uploadCount).toBe(0);
  });

  it("a requester whose paid plan is past due takes no uploads: the limit screen's code and text", async () => {
    const frank = await createUser(app, 'frank.pastdue@example.com', 'pro');
    const req = await createRequest(frank, { title: 'Unpaid bills' });
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.userProfile(frank.sub),
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'past_due' },
      }),
    );
    const res = await startUpload(req.id, [{ fileName: 'invoice.pdf', size: 10 }]);
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.code).toBe('past_due');
    expect(res.json.error.message).toContain('currently suspended');
    expect(await storageUsed(frank)).toBe(0);
  });

  it('guest rules apply to what visitors bring (insecure types refused)', async () => {
    const req = await createRequest(alice, { title: 'Anything' });
    const res = await startUpload(req.id, [{ fileName: 'invoice.pdf.scr', size: 3 }]);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('file_not_allowed');
  });
});

describe('hostile file names', () => {
  it('are stored normalised and downloaded with a safe Content-Disposition', async () => {
    const req = await createRequest(alice, { title: 'Names' });
    const nasty = 'rep"ort\r\n;name=evil.txt';
    const res = await startUpload(req.id, [
      { fileName: nasty, size: 4 },
      { fileName: 'climb.txt', size: 4, itemPath: '../../etc/climb.txt' },
    ]);
    expect(res.status, res.text).toBe(201);
    const t = res.json as CreateTransferResponse;
    const contents = new Map(t.files.map((f) => [f.itemPath ?? f.fileName, Buffer.from('data')]));
    await uploadAll(app, t, contents);
    expect((await completeTransfer(app, t)).status).toBe(200);
    const d = (await detail(alice, req.id)).json as RequestDetailResponse;
    const files = d.uploads[0]!.files;
    expect(files.map((f) => f.itemPath).filter(Boolean)).toEqual(['etc/climb.txt']);
    for (const f of files) {
      expect(f.fileName).not.toMatch(/[\r\n/\\]/u);
      const dl = await api(app, '/getDownload/file', json({ id: t.id, fileId: f.fileId }));
      const got = await fetchBytes(dl.json.url as string);
      const disposition = got.headers.get('content-disposition') ?? '';
      expect(disposition).toMatch(/^attachment; filename="[^"\r\n]*"/u);
      expect(disposition).not.toMatch(/[\r\n]/u);
    }
  });
});

describe('requestSettings.emailOnUpload and the sweep', () => {
  it('with emailOnUpload false the bell still rings but no mail goes', async () => {
    const dave = await createUser(app, 'dave.quiet@example.com', 'pro');
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.userProfile(dave.sub),
        UpdateExpression: 'SET requestSettings = :s',
        ExpressionAttributeValues: { ':s': { emailOnUpload: false } },
      }),
    );
    const req = await createRequest(dave, { title: 'Quiet one' });
    const t = await uploadTo(req.id, { 'q.pdf': randomData(5) });
    const bell = (await api(app, '/notifications', json({}, bearer(dave)))).json as NotificationsResponse;
    expect(bell.notifications.map((n) => n.slug)).toEqual([t.id]);
    expect((await mailsTo(app, dave.email)).filter((m) => m.subject.includes('Quiet one'))).toEqual([]);
  });

  it('an expired upload is purged by the sweep: storage back to the requester, off the request', async () => {
    const erin = await createUser(app, 'erin.sweep@example.com', 'pro');
    const req = await createRequest(erin, { title: 'Old stuff' });
    const t = await uploadTo(req.id, { 'old.pdf': randomData(77) });
    expect(await storageUsed(erin)).toBe(77);
    const past = Date.now() - 30 * DAY;
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.transfer(t.id),
        UpdateExpression: 'SET expiryDate = :x, sweepDueAt = :x, gsi2sk = :s',
        ExpressionAttributeValues: { ':x': past, ':s': keys.sweepIndex(past, t.id).gsi2sk },
      }),
    );
    await app.gateway.runJob('expiry-sweep');
    await app.gateway.runJob('expiry-sweep');
    expect(await storageUsed(erin)).toBe(0);
    const d = (await detail(erin, req.id)).json as RequestDetailResponse;
    expect(d.uploads).toEqual([]);
    expect(d.request).toMatchObject({ uploadCount: 0, totalBytes: 0 });
  });
});
