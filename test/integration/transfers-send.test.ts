import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse, PlannedFile } from '../../functions/domain/transfer-api';
import { GB, MB } from '../../functions/domain/units';
import { guestStorageUsed } from '../../functions/data/users';
import { partRange } from '../../functions/domain/upload';
import { TEXTS, removedFileText } from '../../functions/domain/texts';
import { api, stackBuckets, startTestApp, viaCloudFront } from '../helpers/local-app';
import {
  bearer,
  completeFile,
  completeTransfer,
  createUser,
  fetchBytes,
  fileRecordOf,
  guestToken,
  json,
  mailsTo,
  randomData,
  sha256,
  sign,
  uploadAll,
  uploadPart,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  owner = await createUser(app, 'owner@example.com');
  stranger = await createUser(app, 'stranger@example.com');
});

afterAll(async () => {
  await app?.stop();
});

async function downloadFile(id: string, fileId: string, extra: Record<string, unknown> = {}) {
  const res = await api(app, '/getDownload/file', json({ id, fileId, ...extra }));
  expect(res.status, res.text).toBe(200);
  return fetchBytes(res.json.url as string);
}

describe('a guest sends by email', () => {
  const sender = 'guest.sender@example.com';
  const small = randomData(1500);
  const big = randomData(60 * MB);
  let token: string;
  let t: CreateTransferResponse;

  it('verifies the sender address with the mailed 5-digit code', async () => {
    token = await guestToken(app, sender);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('creates the transfer with a PUT for the small file and a multipart plan for the 60 MB one', async () => {
    const res = await api(
      app,
      '/transfers',
      json(
        {
          sendAs: 'email',
          senderEmail: sender,
          emailTo: [{ email: 'Recipient.One@example.com' }, { email: 'two@example.com' }],
          message: 'Here are the files',
          fileObjects: [
            { fileName: 'notes.txt', size: small.length, itemPath: 'notes.txt' },
            { fileName: 'video.bin', size: big.length, itemPath: 'folder/video.bin' },
          ],
        },
        { 'x-sender-token': token },
      ),
    );
    expect(res.status, res.text).toBe(201);
    t = res.json as CreateTransferResponse;
    expect(t.id).toMatch(/^[A-Za-z0-9]{7}$/);
    const [f1, f2] = t.files;
    expect(f1).toMatchObject({ mode: 'single', size: 1500 });
    expect(f1!.url).toContain(`/${stackBuckets(app.stack).anonBucket}/`);
    expect(f2).toMatchObject({ mode: 'multipart', partSize: 5 * 1024 * 1024, partCount: 12 });
  });

  it('uploads real bytes straight to storage, completes, and mails each recipient their link', async () => {
    await uploadAll(
      app,
      t,
      new Map([
        ['notes.txt', small],
        ['folder/video.bin', big],
      ]),
    );
    const done = await completeTransfer(app, t);
    expect(done.status, done.text).toBe(200);
    expect(done.json.recipients).toEqual(['recipient.one@example.com', 'two@example.com']);
    const mail = await waitForMail(app, 'recipient.one@example.com', new RegExp(`/downloads/${t.id}/`));
    expect(mail.body.text).toContain('Here are the files');
    expect(mail.body.text).toContain('notes.txt');
    await waitForMail(app, 'two@example.com', new RegExp(`/downloads/${t.id}/`));
    await waitForMail(app, sender, new RegExp(`/w/${t.id}`));
  });

  it("records each file's CRC-32 as computed while uploading: the single PUT's, and the 12 parts' joined", async () => {
    const [single, multi] = t.files;
    expect(await fileRecordOf(app, t.id, single!.fileId)).toMatchObject({
      status: 'uploaded',
      crc32: zlib.crc32(small),
    });
    expect(await fileRecordOf(app, t.id, multi!.fileId)).toMatchObject({
      status: 'uploaded',
      crc32: zlib.crc32(big),
    });
  });

  it('a second complete sends no second mail', async () => {
    const before = (await mailsTo(app, 'two@example.com')).length;
    const again = await completeTransfer(app, t);
    expect(again.status).toBe(200);
    expect((await mailsTo(app, 'two@example.com')).length).toBe(before);
  });

  it('downloads both files with their sha256 intact, as attachments with their names', async () => {
    const view = await api(app, '/getDownload', json({ id: t.id }));
    expect(view.status, view.text).toBe(200);
    expect(view.json).toMatchObject({
      id: t.id,
      fileCount: 2,
      totalBytes: small.length + big.length,
      message: 'Here are the files',
      title: '2 files',
    });
    const byName = new Map(
      (view.json.files as { fileId: string; fileName: string }[]).map((f) => [f.fileName, f.fileId]),
    );
    const a = await downloadFile(t.id, byName.get('notes.txt')!);
    expect(sha256(a.bytes)).toBe(sha256(small));
    expect(a.headers.get('content-disposition')).toContain('attachment; filename="notes.txt"');
    const b = await downloadFile(t.id, byName.get('video.bin')!);
    expect(b.bytes.length).toBe(big.length);
    expect(sha256(b.bytes)).toBe(sha256(big));
  });

  it('counts the downloads and tells the sender by mail, with the country from CloudFront', async () => {
    const view = await api(app, '/getDownload', json({ id: t.id }));
    const fileId = view.json.files[0].fileId as string;
    const link = (await waitForMail(app, 'two@example.com', /\/downloads\//)).body.text;
    const recipient = new RegExp(`/downloads/${t.id}/([A-Za-z0-9]{8})`).exec(link)![1]!;
    const asTwo = await api(app, '/getDownload', json({ id: t.id, recipient }));
    expect(asTwo.json.recipientEmail).toBe('two@example.com');
    const res = await api(app, '/getDownload/file', {
      ...json({ id: t.id, fileId, recipient }),
      headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': 'DE' },
    });
    expect(res.status).toBe(200);
    const after = await api(app, '/getDownload', json({ id: t.id }));
    expect(after.json.totalDownloads).toBe(3);
    const notice = await waitForMail(app, sender, /two@example\.com[\s\S]*Germany|Germany[\s\S]*two@example\.com/);
    expect(notice.subject).not.toBe('');
  });

  it('refuses a guest send without a verified address, or for another address', async () => {
    const body = {
      sendAs: 'email',
      senderEmail: 'other@example.com',
      emailTo: [{ email: 'x@example.com' }],
      fileObjects: [{ fileName: 'a.txt', size: 1 }],
    };
    expect((await api(app, '/transfers', json(body))).status).toBe(403);
    expect((await api(app, '/transfers', json(body, { 'x-sender-token': token }))).status).toBe(403);
  });

  it('refuses link mode and html files for guests with the spec texts', async () => {
    const base = {
      senderEmail: sender,
      emailTo: [{ email: 'x@example.com' }],
      fileObjects: [{ fileName: 'a.txt', size: 1 }],
    };
    const link = await api(app, '/transfers', json({ ...base, sendAs: 'link' }, { 'x-sender-token': token }));
    expect(link.status).toBe(400);
    expect(link.json.error).toMatchObject({ code: 'links_reserved', message: TEXTS.linksReserved });
    const html = await api(
      app,
      '/transfers',
      json({ ...base, fileObjects: [{ fileName: 'page.html', size: 10 }] }, { 'x-sender-token': token }),
    );
    expect(html.status).toBe(400);
    expect(html.json.error.code).toBe('file_not_allowed');
    const tooMany = await api(
      app,
      '/transfers',
      json(
        { ...base, emailTo: Array.from({ length: 7 }, (_, i) => ({ email: `r${i}@example.com` })) },
        { 'x-sender-token': token },
      ),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.code).toBe('too_many_recipients');
  });
});

describe('guest verification codes', () => {
  it('answers 403 with the spec text for a wrong code and bounds the attempts', async () => {
    const email = 'tries@example.com';
    expect((await api(app, '/verifyEmail', json({ email }))).status).toBe(202);
    const mail = await waitForMail(app, email, /\b\d{5}\b/);
    const code = /\b(\d{5})\b/.exec(mail.body.text)![1]!;
    const wrong = code === '00000' ? '11111' : '00000';
    const first = await api(app, '/checkVerifyEmail', json({ email, code: wrong }));
    expect(first.status).toBe(403);
    expect(first.json.error.message).toBe(TEXTS.incorrectCode);
    for (let i = 0; i < 4; i += 1) await api(app, '/checkVerifyEmail', json({ email, code: wrong }));
    // The right code no longer works once the attempts are used up.
    expect((await api(app, '/checkVerifyEmail', json({ email, code }))).status).toBe(429);
  });

  it('rate-limits code sends per address', async () => {
    const email = 'flood@example.com';
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await api(app, '/verifyEmail', json({ email }))).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

describe('guessing cannot lock anyone else out', () => {
  const viewer = (address: string) => viaCloudFront(app, address, 52000);

  it("a client's wrong codes make it wait but leave the owner's code working from their own client", async () => {
    const email = 'code-owner@example.com';
    expect((await api(app, '/verifyEmail', json({ email }, viewer('198.51.100.41')))).status).toBe(202);
    const code = /\b(\d{5})\b/.exec((await waitForMail(app, email, /\b\d{5}\b/)).body.text)![1]!;
    const wrong = code === '00000' ? '11111' : '00000';
    const attacker = viewer('203.0.113.66');
    const statuses = [];
    for (let i = 0; i < 7; i += 1)
      statuses.push((await api(app, '/checkVerifyEmail', json({ email, code: wrong }, attacker))).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429, 429]);
    const owner = await api(app, '/checkVerifyEmail', json({ email, code }, viewer('198.51.100.41')));
    expect(owner.status, owner.text).toBe(200);
  });

  it("one client asking for someone's codes uses up only its own share", async () => {
    const email = 'code-flood@example.com';
    const attacker = viewer('203.0.113.67');
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await api(app, '/verifyEmail', json({ email }, attacker))).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect((await api(app, '/verifyEmail', json({ email }, viewer('198.51.100.42')))).status).toBe(202);
  });

  it("a client's wrong download passwords make it wait, while the right one opens the transfer for another client", async () => {
    const create = await api(
      app,
      '/me/transfers',
      json(
        { sendAs: 'link', password: 'right horse', fileObjects: [{ fileName: 'locked.txt', size: 4 }] },
        bearer(owner),
      ),
    );
    const t = create.json as CreateTransferResponse;
    await uploadAll(app, t, new Map([['locked.txt', new TextEncoder().encode('data')]]));
    expect((await completeTransfer(app, t)).status).toBe(200);
    const attacker = viewer('203.0.113.68');
    const statuses = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push((await api(app, '/getDownload', json({ id: t.id, password: `guess-${i}` }, attacker))).status);
    expect(statuses.slice(0, 10).every((st) => st === 401)).toBe(true);
    const waiting = await api(app, '/getDownload', json({ id: t.id, password: 'right horse' }, attacker));
    expect(statuses[10]).toBe(429);
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(30);
    expect(
      (await api(app, '/getDownload', json({ id: t.id, password: 'right horse' }, viewer('198.51.100.43')))).status,
    ).toBe(200);
  });
});

describe('guest limits', () => {
  const viewer = (address: string) => viaCloudFront(app, address, 51000);
  const send = (
    token: string,
    email: string,
    size: number,
    client: string,
    emailTo = [{ email: 'limits-to@example.com' }],
  ) =>
    api(
      app,
      '/transfers',
      json(
        { sendAs: 'email', senderEmail: email, emailTo, fileObjects: [{ fileName: 'big.bin', size }] },
        { 'x-sender-token': token, ...viewer(client) },
      ),
    );

  it("reserve the anon plan's 5 GB of storage per verified address, and give it back on cancel", async () => {
    const email = 'guest-storage@example.com';
    const token = await guestToken(app, email);
    const first = await send(token, email, 3 * GB, '203.0.113.31');
    expect(first.status, first.text).toBe(201);
    const second = await send(token, email, 3 * GB, '203.0.113.31');
    expect(second.status, second.text).toBe(403);
    expect(second.json.error).toMatchObject({ code: 'guest_storage_full', details: { allowance: '5 GB' } });
    const t = first.json as CreateTransferResponse;
    expect(
      (await api(app, `/transfers/${t.id}/cancel`, { method: 'POST', headers: { 'x-upload-token': t.uploadToken } }))
        .status,
    ).toBeLessThan(300);
    expect(await guestStorageUsed(email)).toBe(0);
    expect((await send(token, email, 3 * GB, '203.0.113.31')).status).toBe(201);
  });

  it('let exactly 5 of 20 parallel 1 GB sends of one address through, never past 5 GB', async () => {
    const email = 'guest-parallel@example.com';
    const token = await guestToken(app, email);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(token, email, 1 * GB, `198.51.100.${100 + i}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    for (const r of results.filter((x) => x.status !== 201))
      expect(['guest_storage_full', 'guest_daily_limit'], r.text).toContain(r.json.error.code);
    expect(await guestStorageUsed(email)).toBe(5 * GB);
  });

  it('bound the recipients mailed a day for one address, with Retry-After', async () => {
    const email = 'guest-mailer@example.com';
    const token = await guestToken(app, email);
    const six = (n: number) => Array.from({ length: 6 }, (_, i) => ({ email: `r${n}-${i}@example.com` }));
    for (let n = 0; n < 5; n += 1) expect((await send(token, email, 10, '203.0.113.32', six(n))).status).toBe(201);
    const refused = await send(token, email, 10, '203.0.113.32', six(5));
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.code).toBe('guest_daily_limit');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('hostile file names and paths', () => {
  const guestSend = async (token: string, fileObjects: unknown[]) =>
    api(
      app,
      '/transfers',
      json(
        {
          sendAs: 'email',
          senderEmail: 'names@example.com',
          emailTo: [{ email: 'names-to@example.com' }],
          fileObjects,
        },
        { 'x-sender-token': token },
      ),
    );

  it('refuses guest files whose normalised name is one guests may not send', async () => {
    const token = await guestToken(app, 'names@example.com');
    for (const fileName of ['evil.exe\u200B', 'evil.html::$DATA', 'setup.exe:Zone.Identifier', 'invoice.pdf.scr']) {
      const res = await guestSend(token, [{ fileName, size: 3 }]);
      expect(res.status, `${JSON.stringify(fileName)}: ${res.text}`).toBe(400);
      expect(res.json.error.code).toBe('file_not_allowed');
    }
  });

  it('stores a path that cannot climb out and whose last segment is the checked name', async () => {
    const token = await guestToken(app, 'names@example.com');
    const res = await guestSend(token, [
      { fileName: 'ok.txt', size: 3, itemPath: 'dir/evil.html' },
      { fileName: 'run.txt', size: 3, itemPath: 'x/../../run.txt' },
    ]);
    expect(res.status, res.text).toBe(201);
    const t = res.json as CreateTransferResponse;
    expect(t.files.map((f) => f.itemPath).sort()).toEqual(['dir/ok.txt', 'x/run.txt']);
    const state = await api(app, `/transfers/${t.id}/upload-state`, { headers: { 'x-upload-token': t.uploadToken } });
    expect(state.json.files.map((f: { itemPath: string }) => f.itemPath).sort()).toEqual(['dir/ok.txt', 'x/run.txt']);
  });
});

describe('guest file rules over every kind of file a send carries', () => {
  const sender = 'recorder@example.com';
  const base = { sendAs: 'email', senderEmail: sender, emailTo: [{ email: 'recorder-to@example.com' }] };

  it('refuses recorded videos and voice memos a guest may not send, with the spec text and the entry named', async () => {
    const token = await guestToken(app, sender);
    const cases: [string, string][] = [
      ['recordedVideos', 'evil.html'],
      ['recordedVideos', 'setup.exe'],
      ['recordedVideos', 'Show.S01E01.1080p.WEB-DL.mkv'],
      ['voiceMemo', 'evil.html'],
      ['voiceMemo', 'setup.exe'],
      ['voiceMemo', 'Show.S01E01.1080p.WEB-DL.mkv'],
    ];
    for (const [field, fileName] of cases) {
      const res = await api(
        app,
        '/transfers',
        json(
          {
            ...base,
            fileObjects: [{ fileName: 'ok.txt', size: 3 }],
            [field]: [
              { fileName: 'fine.webm', size: 3 },
              { fileName, size: 3 },
            ],
          },
          { 'x-sender-token': token },
        ),
      );
      expect(res.status, `${field} ${fileName}: ${res.text}`).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'file_not_allowed', message: removedFileText(fileName) });
      expect(res.json.error.details.issues).toContainEqual({
        code: 'file_not_allowed',
        field: `${field}.1`,
        message: removedFileText(fileName),
      });
    }
    // a recording alone (no fileObjects) is checked as well
    const only = await api(
      app,
      '/transfers',
      json({ ...base, voiceMemo: [{ fileName: 'memo.exe', size: 3 }] }, { 'x-sender-token': token }),
    );
    expect(only.status, only.text).toBe(400);
    expect(only.json.error.code).toBe('file_not_allowed');
  });

  it("accepts the send form's own recordings, and a signed-in sender's renamed ones (the rule is the guests')", async () => {
    const token = await guestToken(app, sender);
    const ok = await api(
      app,
      '/transfers',
      json(
        {
          ...base,
          recordedVideos: [{ fileName: 'video-2026-11-26T01-00-00.webm', size: 3 }],
          voiceMemo: [{ fileName: 'voice-memo-2026-11-26T01-00-00.webm', size: 3 }],
        },
        { 'x-sender-token': token },
      ),
    );
    expect(ok.status, ok.text).toBe(201);
    expect((ok.json as CreateTransferResponse).files).toHaveLength(2);
    const member = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', recordedVideos: [{ fileName: 'page.html', size: 3 }] }, bearer(owner)),
    );
    expect(member.status, member.text).toBe(201);
  });
});

describe('mail language of each recipient', () => {
  it("uses the recipient's own language when the address has an account with one, the sender's otherwise", async () => {
    await createUser(app, 'deutsch@example.com', 'free', 'de');
    const create = await api(
      app,
      '/me/transfers',
      json(
        {
          sendAs: 'email',
          lang: 'fr',
          emailTo: [{ email: 'deutsch@example.com' }, { email: 'sans-compte@example.com' }],
          fileObjects: [{ fileName: 'plan.txt', size: 5 }],
        },
        bearer(owner),
      ),
    );
    expect(create.status, create.text).toBe(201);
    const t = create.json as CreateTransferResponse;
    await uploadAll(app, t, new Map([['plan.txt', new TextEncoder().encode('hello')]]));
    expect((await completeTransfer(app, t)).status).toBe(200);
    const german = await waitForMail(app, 'deutsch@example.com', new RegExp(t.id));
    expect(german.subject).toContain('hat Ihnen');
    const french = await waitForMail(app, 'sans-compte@example.com', new RegExp(t.id));
    expect(french.subject).toContain('vous a envoyé');
  });
});

describe("part size from the sender's measured speed", () => {
  it('plans larger parts for a fast sender, signs and records them by that size, and refuses a speed that is none', async () => {
    const size = 1024 * 1024 * 1024 + 1000;
    const create = await api(
      app,
      '/me/transfers',
      json(
        { sendAs: 'link', fileObjects: [{ fileName: 'fast.bin', size }], uploadBytesPerSecond: 100 * 1024 * 1024 },
        bearer(owner),
      ),
    );
    expect(create.status, create.text).toBe(201);
    const t = create.json as CreateTransferResponse;
    const f = t.files[0]!;
    // 25 MiB/s a slot for 4 s is 100 MiB, held to 64 MiB so each of the 4 slots has 4 parts
    expect(f).toMatchObject({ mode: 'multipart', partSize: 64 * 1024 * 1024, partCount: 17 });
    const data = randomData(1000);
    const { parts } = await sign(app, t.id, t.uploadToken, f.fileId, [17]);
    expect((await fetch(parts![0]!.url, { method: 'PUT', body: new Uint8Array(data) })).status).toBe(200);
    const wrong = await api(
      app,
      `/transfers/${t.id}/parts`,
      json(
        { fileId: f.fileId, partNumber: 17, etag: '"x"', size: 5 * 1024 * 1024 },
        { 'x-upload-token': t.uploadToken },
      ),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.code).toBe('part_size_mismatch');
    const state = await api(app, `/transfers/${t.id}/upload-state`, { headers: { 'x-upload-token': t.uploadToken } });
    expect(state.json.files[0]).toMatchObject({ partSize: 64 * 1024 * 1024, partCount: 17 });
    await api(app, `/transfers/${t.id}/cancel`, { method: 'POST', headers: { 'x-upload-token': t.uploadToken } });

    for (const uploadBytesPerSecond of [0, -5, 1e12 * 1e3, 'fast']) {
      const bad = await api(
        app,
        '/me/transfers',
        json({ sendAs: 'link', fileObjects: [{ fileName: 'x.bin', size: 60e6 }], uploadBytesPerSecond }, bearer(owner)),
      );
      expect(bad.status, bad.text).toBe(400);
      expect(bad.json.error.code).toBeTruthy();
    }
  });
});

/** A link send of one multipart file with every part but the last uploaded and recorded; the last part's URL and range. */
async function allButTheLastPart(fileName: string, data: Uint8Array) {
  const create = await api(
    app,
    '/me/transfers',
    json({ sendAs: 'link', fileObjects: [{ fileName, size: data.length }] }, bearer(owner)),
  );
  expect(create.status, create.text).toBe(201);
  const t = create.json as CreateTransferResponse;
  const f = t.files[0]!;
  for (let n = 1; n < f.partCount!; n += 1) await uploadPart(app, t, f, data, n);
  const last = f.partCount!;
  const { parts } = await sign(app, t.id, t.uploadToken, f.fileId, [last]);
  return { t, f, last, url: parts![0]!.url, ...partRange(f.size, last, f.partSize) };
}

describe('a multipart file stored with another size than announced', () => {
  it('is deleted and reset with a 409, never a 5xx on a repeated complete, and uploads again from scratch', async () => {
    const data = randomData(52 * MB);
    const { t, f, last, url: lastUrl, start, end } = await allButTheLastPart('short.bin', data);
    // The last part's body is 1,000 bytes short, but it is recorded with its announced size.
    const put = await fetch(lastUrl, { method: 'PUT', body: new Uint8Array(data.subarray(start, end - 1000)) });
    expect(put.status).toBe(200);
    const recorded = await api(
      app,
      `/transfers/${t.id}/parts`,
      json(
        { fileId: f.fileId, partNumber: last, etag: put.headers.get('etag'), size: end - start },
        { 'x-upload-token': t.uploadToken },
      ),
    );
    expect(recorded.status).toBe(200);

    const first = await completeFile(app, t, f.fileId);
    expect(first.status).toBe(409);
    expect(first.json.error).toMatchObject({ code: 'size_mismatch', details: { fileId: f.fileId, reset: true } });
    for (let i = 0; i < 2; i += 1) {
      const again = await completeFile(app, t, f.fileId);
      expect(again.status, again.text).toBe(409);
      expect(again.json.error.code).toBe('parts_missing');
    }
    const state = await api(app, `/transfers/${t.id}/upload-state`, { headers: { 'x-upload-token': t.uploadToken } });
    expect(state.json.files[0]).toMatchObject({ fileId: f.fileId, uploaded: false, partsDone: [] });

    for (let n = 1; n <= f.partCount!; n += 1) await uploadPart(app, t, f, data, n);
    expect((await completeFile(app, t, f.fileId)).status).toBe(200);
    expect((await completeTransfer(app, t)).status).toBe(200);
    const view = await api(app, '/getDownload', json({ id: t.id }));
    expect(sha256((await downloadFile(t.id, view.json.files[0].fileId)).bytes)).toBe(sha256(data));
  });
});

describe('a client that sends no CRC-32', () => {
  it('still completes its files, with none recorded; a CRC-32 out of range is 400 invalid_request', async () => {
    const data = randomData(3000);
    const create = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'old.bin', size: data.length }] }, bearer(owner)),
    );
    expect(create.status, create.text).toBe(201);
    const t = create.json as CreateTransferResponse;
    const f = t.files[0]!;
    expect((await fetch(f.url!, { method: 'PUT', body: new Uint8Array(data) })).status).toBe(200);
    const refused = await completeFile(app, t, f.fileId, 2 ** 32);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error.code).toBe('invalid_request');
    const done = await completeFile(app, t, f.fileId);
    expect(done.status, done.text).toBe(200);
    const record = await fileRecordOf(app, t.id, f.fileId);
    expect(record?.status).toBe('uploaded');
    expect(record).not.toHaveProperty('crc32');
  });
});

describe("S3's full-object CRC-32", () => {
  it('refuses parts whose recorded CRC-32s do not match their bytes: 409 checksum_mismatch, the upload reset', async () => {
    const data = randomData(52 * MB);
    const { t, f, last, url: lastUrl, start, end } = await allButTheLastPart('flipped.bin', data);
    // The last part's bytes arrive with a CRC-32 of other bytes, as a bit flipped on the way would.
    const bytes = data.subarray(start, end);
    const put = await fetch(lastUrl, { method: 'PUT', body: new Uint8Array(bytes) });
    expect(put.status).toBe(200);
    const recorded = await api(
      app,
      `/transfers/${t.id}/parts`,
      json(
        {
          fileId: f.fileId,
          partNumber: last,
          etag: put.headers.get('etag'),
          size: end - start,
          crc32: (zlib.crc32(bytes) ^ 1) >>> 0,
        },
        { 'x-upload-token': t.uploadToken },
      ),
    );
    expect(recorded.status, recorded.text).toBe(200);
    const refused = await completeFile(app, t, f.fileId);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.error).toMatchObject({ code: 'checksum_mismatch', details: { fileId: f.fileId, reset: true } });
    const state = await api(app, `/transfers/${t.id}/upload-state`, { headers: { 'x-upload-token': t.uploadToken } });
    expect(state.json.files[0]).toMatchObject({ fileId: f.fileId, uploaded: false, partsDone: [] });

    // Sent again with the right CRC-32s, S3 takes it.
    for (let n = 1; n <= f.partCount!; n += 1) await uploadPart(app, t, f, data, n);
    expect((await completeFile(app, t, f.fileId)).status).toBe(200);
    expect(await fileRecordOf(app, t.id, f.fileId)).toMatchObject({ status: 'uploaded', crc32: zlib.crc32(data) });
  });
});

describe('resume after the connection drops mid-part', () => {
  it('keeps the finished parts, skips them, and completes byte-exact', async () => {
    const data = randomData(52 * MB);
    const create = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'resume.bin', size: data.length }] }, bearer(owner)),
    );
    expect(create.status, create.text).toBe(201);
    const t = create.json as CreateTransferResponse;
    const f = t.files[0]!;
    expect(f.partCount).toBe(10);
    for (let n = 1; n <= 4; n += 1) await uploadPart(app, t, f, data, n);

    // Part 5: the body stream dies half way, like a dropped connection.
    const { parts } = await sign(app, t.id, t.uploadToken, f.fileId, [5]);
    const { start, end } = partRange(f.size, 5, f.partSize);
    const half = data.subarray(start, start + (end - start) / 2);
    const dying = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(half));
        setTimeout(() => controller.error(new Error('connection lost')), 50);
      },
    });
    await expect(
      fetch(parts![0]!.url, { method: 'PUT', body: dying, duplex: 'half' } as RequestInit),
    ).rejects.toThrow();

    const state = await api(app, `/transfers/${t.id}/upload-state`, { headers: { 'x-upload-token': t.uploadToken } });
    expect(state.status).toBe(200);
    expect(state.json.files[0]).toMatchObject({ fileId: f.fileId, uploaded: false, partsDone: [1, 2, 3, 4] });

    expect((await completeFile(app, t, f.fileId)).json.error.code).toBe('parts_missing');
    for (let n = 5; n <= 10; n += 1) await uploadPart(app, t, f, data, n);
    expect((await completeFile(app, t, f.fileId)).status).toBe(200);
    const done = await completeTransfer(app, t);
    expect(done.status).toBe(200);
    expect(done.json.link).toMatch(new RegExp(`/w/${t.id}$`));
    const view = await api(app, '/getDownload', json({ id: t.id }));
    const got = await downloadFile(t.id, view.json.files[0].fileId);
    expect(sha256(got.bytes)).toBe(sha256(data));
  });

  it('refuses a part of the wrong size and an upload without its token', async () => {
    const create = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'x.bin', size: 60 * MB }] }, bearer(owner)),
    );
    const t = create.json as CreateTransferResponse;
    const fileId = t.files[0]!.fileId;
    const wrongSize = await api(
      app,
      `/transfers/${t.id}/parts`,
      json({ fileId, partNumber: 1, etag: '"x"', size: 100 }, { 'x-upload-token': t.uploadToken }),
    );
    expect(wrongSize.status).toBe(400);
    expect(wrongSize.json.error.code).toBe('part_size_mismatch');
    const noToken = await api(app, `/transfers/${t.id}/sign`, json({ fileId, partNumbers: [1] }));
    expect(noToken.status).toBe(403);
    const cancel = await api(app, `/transfers/${t.id}/cancel`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
    });
    expect(cancel.status).toBe(200);
    expect(
      (
        await api(
          app,
          `/transfers/${t.id}/sign`,
          json({ fileId, partNumbers: [1] }, { 'x-upload-token': t.uploadToken }),
        )
      ).status,
    ).toBe(410);
    // a link send is shared at its start: cancelled, its link says it was withdrawn (docs/decisions/0074)
    const gone = await api(app, '/getDownload', json({ id: t.id }));
    expect([gone.status, gone.json.error?.code]).toEqual([410, 'transfer_withdrawn']);
  });
});

describe('signed-in transfers and other people', () => {
  let t: CreateTransferResponse;
  const content = randomData(2048);

  it('a user sends a protected link transfer', async () => {
    const res = await api(
      app,
      '/me/transfers',
      json(
        { sendAs: 'link', password: 'open sesame', fileObjects: [{ fileName: 'secret.pdf', size: content.length }] },
        bearer(owner),
      ),
    );
    expect(res.status, res.text).toBe(201);
    t = res.json as CreateTransferResponse;
    expect(t.files[0]!.url).not.toContain('-anon');
    await uploadAll(app, t, new Map([['secret.pdf', content]]));
    expect((await completeTransfer(app, t)).status).toBe(200);
  });

  it('answers 401 with the spec text without or with a wrong password, and opens with the right one', async () => {
    const none = await api(app, '/getDownload', json({ id: t.id }));
    expect(none.status).toBe(401);
    expect(none.json.error).toMatchObject({ code: 'password_required', message: TEXTS.download401 });
    const wrong = await api(app, '/getDownload', json({ id: t.id, password: 'nope' }));
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('wrong_password');
    const right = await api(app, '/getDownload', json({ id: t.id, password: 'open sesame' }));
    expect(right.status).toBe(200);
    const fileId = right.json.files[0].fileId as string;
    expect((await api(app, '/getDownload/file', json({ id: t.id, fileId }))).status).toBe(401);
    const got = await downloadFile(t.id, fileId, { password: 'open sesame' });
    expect(sha256(got.bytes)).toBe(sha256(content));
    expect((await api(app, '/zip', json({ id: t.id, password: 'wrong' }))).status).toBe(401);
  });

  it('another user cannot add files to it or delete it', async () => {
    const add = await api(
      app,
      '/transfers/addFiles',
      json({ slug: t.id, fileObjects: [{ fileName: 'more.txt', size: 3 }] }, bearer(stranger), 'PATCH'),
    );
    expect(add.status).toBe(403);
    const del = await api(app, `/transfers/${t.id}`, { method: 'DELETE', headers: bearer(stranger) });
    expect(del.status).toBe(403);
    expect((await api(app, `/transfers/${t.id}`, { method: 'DELETE' })).status).toBe(401);
    expect((await api(app, '/getDownload', json({ id: t.id, password: 'open sesame' }))).status).toBe(200);
  });

  it('the owner adds files, and the page shows them once uploaded', async () => {
    const extra = randomData(10);
    const add = await api(
      app,
      '/transfers/addFiles',
      json({ slug: t.id, fileObjects: [{ fileName: 'more.txt', size: extra.length }] }, bearer(owner), 'PATCH'),
    );
    expect(add.status, add.text).toBe(200);
    const plan = add.json as CreateTransferResponse;
    expect((await api(app, '/getDownload', json({ id: t.id, password: 'open sesame' }))).json.fileCount).toBe(1);
    await uploadAll(app, plan, new Map([['more.txt', extra]]));
    expect((await completeTransfer(app, plan)).status).toBe(200);
    const view = await api(app, '/getDownload', json({ id: t.id, password: 'open sesame' }));
    expect(view.json.fileCount).toBe(2);
  });

  it('the owner deletes it; the link then answers 404 with the spec text', async () => {
    const del = await api(app, `/transfers/${t.id}`, { method: 'DELETE', headers: bearer(owner) });
    expect(del.status).toBe(200);
    const gone = await api(app, '/getDownload', json({ id: t.id, password: 'open sesame' }));
    expect(gone.status).toBe(404);
    expect(gone.json.error.message).toBe(TEXTS.download404);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await api(app, '/getDownload', json({ id: 'ZZZZZZZ' }))).status).toBe(404);
    expect((await api(app, '/getDownload', json({ id: '../../etc' }))).status).toBe(400);
  });
});

describe('several parts in one record call', () => {
  it('records the parts of two files at once, all or none, refuses a part named twice and more than 100', async () => {
    const create = await api(
      app,
      '/me/transfers',
      json(
        {
          sendAs: 'link',
          fileObjects: [
            { fileName: 'a.bin', size: 60 * MB },
            { fileName: 'b.bin', size: 61 * MB },
          ],
        },
        bearer(owner),
      ),
    );
    expect(create.status, create.text).toBe(201);
    const t = create.json as CreateTransferResponse;
    const [fa, fb] = t.files as [PlannedFile, PlannedFile];
    const headers = { 'x-upload-token': t.uploadToken };
    const part = (f: PlannedFile, partNumber: number) => {
      const { start, end } = partRange(f.size, partNumber, f.partSize);
      return { fileId: f.fileId, partNumber, etag: `"e${partNumber}"`, size: end - start, crc32: partNumber };
    };
    // each file's recorded parts, in the order the transfer was created with (the state lists files in its own)
    const partsDone = async () => {
      const state = await api(app, `/transfers/${t.id}/upload-state`, { headers });
      const files = state.json.files as { fileId: string; partsDone: number[] }[];
      return [fa, fb].map((p) => [...files.find((f) => f.fileId === p.fileId)!.partsDone].sort((x, y) => x - y));
    };

    // one part of the batch is out of range: nothing of it is written
    const refused = await api(
      app,
      `/transfers/${t.id}/parts`,
      json({ parts: [part(fa, 1), part(fb, 1), { ...part(fb, 2), partNumber: 10_000 }] }, headers),
    );
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.error.code).toBe('part_out_of_range');
    expect(await partsDone()).toEqual([[], []]);

    const twice = await api(app, `/transfers/${t.id}/parts`, json({ parts: [part(fa, 1), part(fa, 1)] }, headers));
    expect(twice.status, twice.text).toBe(400);
    expect(twice.json.error.code).toBe('duplicate_part');

    const tooMany = await api(
      app,
      `/transfers/${t.id}/parts`,
      json({ parts: Array.from({ length: 101 }, (_, i) => part(fa, (i % fa.partCount!) + 1)) }, headers),
    );
    expect(tooMany.status, tooMany.text).toBe(400);
    expect(tooMany.json.error.code).toBe('invalid_request');

    const batch = [
      ...Array.from({ length: fa.partCount! }, (_, i) => part(fa, i + 1)),
      part(fb, 1),
      part(fb, fb.partCount!),
    ];
    const recorded = await api(app, `/transfers/${t.id}/parts`, json({ parts: batch }, headers));
    expect(recorded.status, recorded.text).toBe(200);
    expect(await partsDone()).toEqual([Array.from({ length: fa.partCount! }, (_, i) => i + 1), [1, fb.partCount!]]);
    // the same batch again is a no-op, not an error (a retried call whose answer was lost)
    expect((await api(app, `/transfers/${t.id}/parts`, json({ parts: batch }, headers))).status).toBe(200);
  });
});
