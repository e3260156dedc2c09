/**
 * A link that works while the upload runs (docs/decisions/0074), against the local emulators:
 * the download page of a transfer still uploading lists complete files only and serves them,
 * counts the rest with the bytes of recorded parts and a time left, refuses the ZIP; "Mail me
 * when it's complete" (bad input 400, one mail per address, 409 once complete, the gate of the
 * page: password) mails at completion; an email send mailed at its start is not mailed again;
 * a cancel withdraws the transfer (410) and mails everyone waiting and every recipient mailed.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse, DownloadView, PlannedFile } from '../../functions/domain/transfer-api';
import { crc32Portable } from '../../functions/domain/crc32';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeFile,
  completeTransfer,
  createUser,
  fetchBytes,
  json,
  mailsTo,
  randomData,
  recipientIdsOf,
  sha256,
  uploadPart,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let owner: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  owner = await createUser(app, 'live.sender@example.com');
});

afterAll(async () => {
  await app?.stop();
});

const MiB = 1024 * 1024;

async function create(
  files: Record<string, Uint8Array>,
  extra: Record<string, unknown>,
): Promise<CreateTransferResponse> {
  const fileObjects = Object.entries(files).map(([fileName, d]) => ({ fileName, size: d.length }));
  const res = await api(app, '/me/transfers', json({ fileObjects, ...extra }, bearer(owner)));
  expect(res.status, res.text).toBe(201);
  return res.json as CreateTransferResponse;
}

function planned(t: CreateTransferResponse, name: string): PlannedFile {
  const f = t.files.find((p) => p.fileName === name);
  if (!f) throw new Error(`no plan for ${name}`);
  return f;
}

/** PUTs a single file and completes it, as the upload engine does. */
async function putAndComplete(t: CreateTransferResponse, name: string, data: Uint8Array): Promise<void> {
  const f = planned(t, name);
  const put = await fetch(f.url!, { method: 'PUT', body: data as unknown as BodyInit });
  expect(put.status).toBe(200);
  const done = await completeFile(app, t, f.fileId, crc32Portable(data));
  expect(done.status, done.text).toBe(200);
}

async function view(id: string, extra: Record<string, unknown> = {}) {
  return api(app, '/getDownload', json({ id, ...extra }));
}

describe('a link send, readable while it uploads', () => {
  const files = { 'one.bin': randomData(3000), 'two.bin': randomData(4000), 'three.bin': randomData(5000) };
  let t: CreateTransferResponse;

  beforeAll(async () => {
    t = await create(files, { sendAs: 'link' });
  });

  it('answers before any file is in: no files, 0 of 3', async () => {
    const res = await view(t.id);
    expect(res.status, res.text).toBe(200);
    const v = res.json as unknown as DownloadView;
    expect(v.files).toEqual([]);
    expect(v.upload).toMatchObject({ fileCount: 3, filesDone: 0, totalBytes: 12_000, bytesDone: 0 });
  });

  it('lists and serves a file as soon as it is complete; the others are neither listed nor served', async () => {
    await putAndComplete(t, 'one.bin', files['one.bin']);
    const v = (await view(t.id)).json as unknown as DownloadView;
    expect(v.files.map((f) => f.fileName)).toEqual(['one.bin']);
    expect(v.upload).toMatchObject({ fileCount: 3, filesDone: 1, bytesDone: 3000 });
    const got = await api(app, '/getDownload/file', json({ id: t.id, fileId: planned(t, 'one.bin').fileId }));
    expect(got.status, got.text).toBe(200);
    const bytes = await fetchBytes(got.json.url as string);
    expect(sha256(bytes.bytes)).toBe(sha256(files['one.bin']));
    const early = await api(app, '/getDownload/file', json({ id: t.id, fileId: planned(t, 'two.bin').fileId }));
    expect([early.status, early.json.error]).toEqual([404, expect.objectContaining({ code: 'file_not_found' })]);
    // the download was counted, as for a complete transfer
    expect(((await view(t.id)).json as unknown as DownloadView).totalDownloads).toBe(1);
  });

  it('refuses "Download all" while files are still coming', async () => {
    const zip = await api(app, '/zip', json({ id: t.id }));
    expect([zip.status, zip.json.error]).toEqual([409, expect.objectContaining({ code: 'transfer_uploading' })]);
  });

  it("'Mail me when it's complete': 400 for a bad address, 202 twice for one address", async () => {
    const bad = await api(app, '/getDownload/notify', json({ id: t.id, email: 'not-an-address' }));
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: expect.any(String) });
    for (let i = 0; i < 2; i += 1) {
      const ok = await api(
        app,
        '/getDownload/notify',
        json({ id: t.id, email: 'Waiting.One@example.com', lang: 'en' }),
      );
      expect(ok.status, ok.text).toBe(202);
    }
    const unknown = await api(app, '/getDownload/notify', json({ id: 'Zq9Xw2K', email: 'w@example.com' }));
    expect(unknown.status).toBe(404);
  });

  it('completes: every file listed, no upload left, the waiting address mailed once, then 409 for more', async () => {
    await putAndComplete(t, 'two.bin', files['two.bin']);
    await putAndComplete(t, 'three.bin', files['three.bin']);
    const done = await completeTransfer(app, t);
    expect(done.status, done.text).toBe(200);
    const v = (await view(t.id)).json as unknown as DownloadView;
    expect(v.upload).toBeUndefined();
    expect(v.files.map((f) => f.fileName).sort()).toEqual(['one.bin', 'three.bin', 'two.bin']);
    // the transfer mail, every file in, with the download page's link
    const mail = await waitForMail(app, 'waiting.one@example.com', new RegExp(`/w/${t.id}`));
    expect(mail.subject).toContain('sent you');
    for (const name of ['one.bin', 'two.bin', 'three.bin']) expect(mail.body.text).toContain(name);
    expect(await mailsTo(app, 'waiting.one@example.com')).toHaveLength(1);
    const late = await api(app, '/getDownload/notify', json({ id: t.id, email: 'late@example.com' }));
    expect([late.status, late.json.error]).toEqual([409, expect.objectContaining({ code: 'transfer_complete' })]);
    const zip = await api(app, '/zip', json({ id: t.id }));
    expect(zip.status).toBe(202);
  });
});

describe('an email send mailed at its start', () => {
  const files = { 'report.pdf': randomData(2000) };

  it('mails the recipients at creation, their link works while uploading, and completion does not mail them again', async () => {
    const to = 'early.recipient@example.com';
    const t = await create(files, { sendAs: 'email', emailTo: [{ email: to }], mailNow: true });
    const first = await waitForMail(app, to, /report\.pdf/);
    const recipient = (await recipientIdsOf(app, t.id)).get(to)!;
    expect(first.body.text).toContain(`/downloads/${t.id}/${recipient}`);
    const early = await view(t.id, { recipient });
    expect(early.status, early.text).toBe(200);
    expect(early.json).toMatchObject({ recipientEmail: to, upload: { fileCount: 1, filesDone: 0 } });

    await putAndComplete(t, 'report.pdf', files['report.pdf']);
    expect((await completeTransfer(app, t)).status).toBe(200);
    // the sender's confirmation comes from the same completion, after the recipients' mail would have
    await waitForMail(app, owner.email, /early\.recipient@example\.com/);
    expect(await mailsTo(app, to)).toHaveLength(1);
  });

  it('an email send not mailed at its start stays unreadable until complete, as before', async () => {
    const t = await create(files, { sendAs: 'email', emailTo: [{ email: 'later.recipient@example.com' }] });
    expect((await view(t.id)).status).toBe(404);
    expect((await api(app, '/getDownload/notify', json({ id: t.id, email: 'w@example.com' }))).status).toBe(404);
    expect(await mailsTo(app, 'later.recipient@example.com')).toHaveLength(0);
  });
});

describe('a password-protected link send while it uploads', () => {
  it('keeps its password for the page and for the waiting list', async () => {
    const t = await create({ 'secret.bin': randomData(100) }, { sendAs: 'link', password: 'Blue-Lagoon-93' });
    expect((await view(t.id)).status).toBe(401);
    expect((await view(t.id, { password: 'wrong-one-1' })).status).toBe(401);
    expect((await view(t.id, { password: 'Blue-Lagoon-93' })).status).toBe(200);
    const noPassword = await api(app, '/getDownload/notify', json({ id: t.id, email: 'w@example.com' }));
    expect(noPassword.status).toBe(401);
    const withPassword = await api(
      app,
      '/getDownload/notify',
      json({ id: t.id, email: 'w@example.com', password: 'Blue-Lagoon-93' }),
    );
    expect(withPassword.status).toBe(202);
  });
});

describe('a transfer shared at its start and cancelled', () => {
  it('counts recorded parts with a time left, then is withdrawn: 410, and everyone who knew of it is mailed', async () => {
    const big = randomData(50 * MiB + 1);
    const to = 'withdrawn.recipient@example.com';
    const t = await create({ 'big.bin': big }, { sendAs: 'email', emailTo: [{ email: to }], mailNow: true });
    const f = planned(t, 'big.bin');
    expect(f.mode).toBe('multipart');
    await uploadPart(app, t, f, big, 1);
    await uploadPart(app, t, f, big, 2);
    const during = (await view(t.id)).json as unknown as DownloadView;
    expect(during.files).toEqual([]);
    expect(during.upload).toMatchObject({ fileCount: 1, filesDone: 0, bytesDone: 2 * f.partSize! });
    expect(during.upload?.secondsLeft).toBeGreaterThan(0);
    expect((await api(app, '/getDownload/notify', json({ id: t.id, email: 'watcher@example.com' }))).status).toBe(202);
    await waitForMail(app, to, /big\.bin/);

    const cancelled = await api(app, `/transfers/${t.id}/cancel`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    const gone = await view(t.id);
    expect([gone.status, gone.json.error]).toEqual([410, expect.objectContaining({ code: 'transfer_withdrawn' })]);
    const file = await api(app, '/getDownload/file', json({ id: t.id, fileId: f.fileId }));
    expect(file.status).toBe(410);
    for (const who of [to, 'watcher@example.com']) {
      const mail = await waitForMail(app, who, /stopped the upload of “big\.bin”/);
      expect(mail.subject).toBe('“big.bin” was withdrawn');
    }
    // the recipient got the transfer mail at the start and the withdrawal, nothing more
    expect(await mailsTo(app, to)).toHaveLength(2);
  });
});

describe('a transfer shared at its start that nobody finishes', () => {
  it('is withdrawn by the sweep once its resume window is over, and everyone who knew of it is mailed once', async () => {
    const big = randomData(50 * MiB + 1);
    const to = 'abandoned.recipient@example.com';
    const t = await create({ 'left.bin': big }, { sendAs: 'email', emailTo: [{ email: to }], mailNow: true });
    const f = planned(t, 'left.bin');
    await uploadPart(app, t, f, big, 1);
    expect((await api(app, '/getDownload/notify', json({ id: t.id, email: 'waiting@example.com' }))).status).toBe(202);
    await waitForMail(app, to, /left\.bin/);

    // the resume window is over: the sweep is due now
    const due = Date.now() - 1000;
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transfer(t.id),
        UpdateExpression: 'SET sweepDueAt = :x, gsi2sk = :s',
        ExpressionAttributeValues: { ':x': due, ':s': keys.sweepIndex(due, t.id).gsi2sk },
      }),
    );
    const result = (await app.gateway.runJob('expiry-sweep')) as { abandoned: number };
    expect(result.abandoned).toBeGreaterThanOrEqual(1);
    await app.gateway.idle();
    const gone = await view(t.id);
    expect([gone.status, gone.json.error]).toEqual([410, expect.objectContaining({ code: 'transfer_withdrawn' })]);
    for (const who of [to, 'waiting@example.com']) {
      const mail = await waitForMail(app, who, /stopped the upload of “left\.bin”/);
      expect(mail.subject).toBe('“left.bin” was withdrawn');
    }
    // a second sweep finds nothing due: no second mail
    await app.gateway.runJob('expiry-sweep');
    await app.gateway.idle();
    expect(await mailsTo(app, to)).toHaveLength(2);
    expect(await mailsTo(app, 'waiting@example.com')).toHaveLength(1);
  });
});
