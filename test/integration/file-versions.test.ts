/**
 * A new version of a file of a sent transfer, against the emulators: the owner plans it
 * (POST /transfers/{id}/files/{fileId}/versions), uploads it with the upload token the answer
 * carries (a multipart file, as the engine does), completes it; the download page, the single
 * download, the manifest and the ZIP then give the new version only, byte for byte, while the
 * modal lists both. Only the owner, only a sent and unexpired transfer, only the current version;
 * recipients are mailed only when asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse, DownloadView } from '../../functions/domain/transfer-api';
import type { TransferDetail } from '../../functions/domain/dashboard-api';
import { MB } from '../../functions/domain/units';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { readZip } from '../helpers/read-zip';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  fetchBytes,
  json,
  mailsTo,
  randomData,
  sendFiles,
  sha256,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  owner = await createUser(app, 'versions.owner@example.com');
  stranger = await createUser(app, 'versions.stranger@example.com');
});

afterAll(async () => {
  await app?.stop();
});

const versionsPath = (id: string, fileId: string) => `/transfers/${id}/files/${fileId}/versions`;

async function newVersion(t: { id: string }, fileId: string, body: Record<string, unknown>, user = owner) {
  return api(app, versionsPath(t.id, fileId), json(body, bearer(user)));
}

async function view(id: string): Promise<DownloadView> {
  const res = await api(app, '/getDownload', json({ id }));
  expect(res.status, res.text).toBe(200);
  return res.json as DownloadView;
}

async function zipEntries(id: string): Promise<Map<string, Buffer>> {
  let res = await api(app, '/zip', json({ id }));
  if (res.status === 202) {
    await app.gateway.idle();
    res = await api(app, '/zip', json({ id }));
  }
  expect(res.status, res.text).toBe(200);
  const zip = await fetchBytes(res.json.url as string);
  return new Map((await readZip(zip.bytes)).map((e) => [e.name, e.data]));
}

describe('a new version of a file of a sent transfer', () => {
  const logo = randomData(2000);
  const brief = randomData(300);
  // a multipart file: the version goes through the same parts, completion, scan and digest
  const logoV2 = randomData(50 * MB + 11);
  let t: CreateTransferResponse;
  let logoId: string;
  let v2: CreateTransferResponse;

  beforeAll(async () => {
    t = await sendFiles(
      app,
      owner,
      new Map([
        ['art/logo.png', logo],
        ['brief.txt', brief],
      ]),
    );
    logoId = t.files.find((f) => f.fileName === 'logo.png')!.fileId;
    await app.gateway.idle();
  });

  it('plans the version: one multipart file in the same folder, with a new upload token', async () => {
    const res = await newVersion(t, logoId, { fileName: 'logo-final.png', size: logoV2.length });
    expect(res.status, res.text).toBe(201);
    v2 = res.json as CreateTransferResponse;
    expect(v2.id).toBe(t.id);
    expect(v2.uploadToken).not.toBe(t.uploadToken);
    expect(v2.files).toHaveLength(1);
    expect(v2.files[0]).toMatchObject({
      fileName: 'logo-final.png',
      itemPath: 'art/logo-final.png',
      mode: 'multipart',
    });
    // until it is uploaded, recipients still get the first version
    expect((await view(t.id)).files.map((f) => f.fileName).sort()).toEqual(['brief.txt', 'logo.png']);
  });

  it('uploads and completes it; the page, a download, the manifest and the ZIP give v2 only, byte for byte', async () => {
    await uploadAll(app, v2, new Map([['art/logo-final.png', logoV2]]));
    const done = await completeTransfer(app, v2);
    expect(done.status, done.text).toBe(200);
    await app.gateway.idle();

    const page = await view(t.id);
    expect(page.fileCount).toBe(2);
    expect(page.totalBytes).toBe(logoV2.length + brief.length);
    const current = page.files.find((f) => f.fileName === 'logo-final.png')!;
    expect(current).toMatchObject({ version: 2, versionOf: logoId, itemPath: 'art/logo-final.png' });
    expect(page.files.some((f) => f.fileId === logoId)).toBe(false);

    const one = await api(app, '/getDownload/file', json({ id: t.id, fileId: current.fileId }));
    expect(one.status, one.text).toBe(200);
    expect(sha256((await fetchBytes(one.json.url as string)).bytes)).toBe(sha256(logoV2));
    // the replaced version is the sender's alone now
    const old = await api(app, '/getDownload/file', json({ id: t.id, fileId: logoId }));
    expect(old.status).toBe(404);

    const entries = await zipEntries(t.id);
    expect([...entries.keys()].sort()).toEqual(['art/logo-final.png', 'brief.txt']);
    expect(sha256(entries.get('art/logo-final.png')!)).toBe(sha256(logoV2));
    expect(sha256(entries.get('brief.txt')!)).toBe(sha256(brief));

    let manifest = await api(app, '/getDownload/manifest', json({ id: t.id }));
    if (!manifest.json.complete) {
      await app.gateway.idle();
      manifest = await api(app, '/getDownload/manifest', json({ id: t.id }));
    }
    expect(manifest.status, manifest.text).toBe(200);
    const paths = (manifest.json.files as { path: string; sha256: string }[]).map((f) => [f.path, f.sha256]);
    expect(paths.sort()).toEqual(
      [
        ['art/logo-final.png', sha256(logoV2)],
        ['brief.txt', sha256(brief)],
      ].sort(),
    );
  });

  it('the modal lists both versions, the transfer counts both in its bytes, and the previews the current one', async () => {
    const detail = await api(app, `/getQs?slug=${t.id}`, { headers: bearer(owner) });
    expect(detail.status, detail.text).toBe(200);
    const files = (detail.json as TransferDetail).files;
    expect(files.map((f) => [f.fileName, f.version ?? 1]).sort()).toEqual([
      ['brief.txt', 1],
      ['logo-final.png', 2],
      ['logo.png', 1],
    ]);
    expect((detail.json as TransferDetail).size).toBe(logo.length + brief.length + logoV2.length);
    const previews = await api(app, '/getDownload/previews', json({ id: t.id }));
    expect(previews.status, previews.text).toBe(200);
    const ids = (previews.json.files as { fileId: string }[]).map((f) => f.fileId);
    expect(ids).not.toContain(logoId);
    expect(ids).toContain(v2.files[0]!.fileId);
  });

  it('refuses a version of the replaced file (409 naming the current one), and an unknown file (404)', async () => {
    const stale = await newVersion(t, logoId, { fileName: 'logo.png', size: 10 });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.json.error).toMatchObject({
      code: 'not_current_version',
      details: { currentFileId: v2.files[0]!.fileId },
    });
    const unknown = await newVersion(t, 'ZZZZZZZZZZ', { fileName: 'x.txt', size: 10 });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('file_not_found');
  });

  it('answers bad input with a stable 4xx code', async () => {
    const badId = await api(app, versionsPath(t.id, 'short'), json({ fileName: 'a.txt', size: 1 }, bearer(owner)));
    expect(badId.status).toBe(400);
    expect(badId.json.error.code).toBe('invalid_request');
    const noSize = await newVersion(t, v2.files[0]!.fileId, { fileName: 'a.txt' });
    expect(noSize.status).toBe(400);
    const badName = await newVersion(t, v2.files[0]!.fileId, { fileName: '..', size: 3 });
    expect(badName.status).toBe(400);
    expect(badName.json.error.code).toBe('invalid_request');
    const tooBig = await newVersion(t, v2.files[0]!.fileId, { fileName: 'huge.bin', size: 10 ** 15 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.error.code).toBe('transfer_too_large');
  });

  it('only the owner: another user is refused, without a JWT 401', async () => {
    const other = await newVersion(t, v2.files[0]!.fileId, { fileName: 'bob.png', size: 5 }, stranger);
    expect([403, 404]).toContain(other.status);
    const anon = await api(app, versionsPath(t.id, v2.files[0]!.fileId), json({ fileName: 'x.png', size: 5 }));
    expect(anon.status).toBe(401);
    // the stranger's try left nothing behind
    expect((await view(t.id)).files.map((f) => f.fileName).sort()).toEqual(['brief.txt', 'logo-final.png']);
  });
});

describe('which transfers take a new version', () => {
  it('not one still uploading (409), nor an expired one (410), nor a deleted one (404)', async () => {
    const data = randomData(40);
    const res = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', fileObjects: [{ fileName: 'draft.txt', size: data.length }] }, bearer(owner)),
    );
    expect(res.status, res.text).toBe(201);
    const uploading = res.json as CreateTransferResponse;
    await uploadAll(app, uploading, new Map([['draft.txt', data]]));
    const fileId = uploading.files[0]!.fileId;
    const early = await newVersion(uploading, fileId, { fileName: 'draft2.txt', size: 3 });
    expect(early.status, early.text).toBe(409);
    expect(early.json.error.code).toBe('transfer_not_sent');

    expect((await completeTransfer(app, uploading)).status).toBe(200);
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transfer(uploading.id),
        UpdateExpression: 'SET expiryDate = :x',
        ExpressionAttributeValues: { ':x': Date.now() - 1000 },
      }),
    );
    const expired = await newVersion(uploading, fileId, { fileName: 'draft2.txt', size: 3 });
    expect(expired.status, expired.text).toBe(410);
    expect(expired.json.error.code).toBe('transfer_expired');

    const other = await sendFiles(app, owner, new Map([['gone.txt', randomData(20)]]));
    expect((await api(app, `/transfers/${other.id}`, { method: 'DELETE', headers: bearer(owner) })).status).toBe(200);
    const deleted = await newVersion(other, other.files[0]!.fileId, { fileName: 'gone2.txt', size: 3 });
    expect(deleted.status).toBe(404);
  });
});

describe('mailing the recipients', () => {
  it('mails nobody by default, and each recipient once with notify: true', async () => {
    const data = randomData(100);
    const res = await api(
      app,
      '/me/transfers',
      json(
        {
          sendAs: 'email',
          emailTo: [{ email: 'versions.recipient@example.com' }],
          fileObjects: [{ fileName: 'cut.mp4', size: data.length }],
        },
        bearer(owner),
      ),
    );
    expect(res.status, res.text).toBe(201);
    const t = res.json as CreateTransferResponse;
    await uploadAll(app, t, new Map([['cut.mp4', data]]));
    expect((await completeTransfer(app, t)).status).toBe(200);
    await waitForMail(app, 'versions.recipient@example.com', new RegExp(`/downloads/${t.id}/`));
    const mailed = async () => (await mailsTo(app, 'versions.recipient@example.com')).length;
    const before = await mailed();

    const quiet = (await newVersion(t, t.files[0]!.fileId, { fileName: 'cut-v2.mp4', size: 50 })).json;
    const bytes2 = randomData(50);
    await uploadAll(app, quiet as CreateTransferResponse, new Map([['cut-v2.mp4', bytes2]]));
    expect((await completeTransfer(app, quiet as CreateTransferResponse)).status).toBe(200);
    await app.gateway.idle();
    expect(await mailed()).toBe(before);

    const loud = await newVersion(t, (quiet as CreateTransferResponse).files[0]!.fileId, {
      fileName: 'cut-v3.mp4',
      size: 60,
      notify: true,
    });
    expect(loud.status, loud.text).toBe(201);
    const v3 = loud.json as CreateTransferResponse;
    await uploadAll(app, v3, new Map([['cut-v3.mp4', randomData(60)]]));
    expect((await completeTransfer(app, v3)).status).toBe(200);
    const mail = await waitForMail(app, 'versions.recipient@example.com', /new version of cut-v3\.mp4/);
    expect(mail.body.text).toContain(`/downloads/${t.id}/`);
    // a repeated completion mails nobody again
    expect((await completeTransfer(app, v3)).status).toBe(200);
    await app.gateway.idle();
    expect(await mailed()).toBe(before + 1);
  });
});
