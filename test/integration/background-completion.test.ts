/**
 * Completion that cannot time out: a file over INLINE_COMPLETE_MAX_BYTES is put together by the
 * complete-upload job while the routes answer 202 `completing` at once. The local S3 holds the
 * file's CompleteMultipartUpload (the marker object of scripts/local/s3rver-s3-rules.ts) until
 * the test lets it go, so the completion outlasts every request made meanwhile, whatever the
 * machine's speed: no timing is assumed anywhere.
 */
import zlib from 'node:zlib';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import type { LocalApp } from '../../scripts/local/app';
import { localS3Client } from '../../scripts/local/s3';
import { HOLD_COMPLETE_KEY } from '../../scripts/local/s3rver-s3-rules';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { INLINE_COMPLETE_MAX_BYTES } from '../../functions/domain/upload';
import { api, stackBuckets, startTestApp } from '../helpers/local-app';
import { readZip } from '../helpers/read-zip';
import {
  bearer,
  completeFile,
  completeTransfer,
  createUser,
  fetchBytes,
  fileRecordOf,
  json,
  mailsTo,
  randomData,
  sha256,
  uploadPart,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let user: TestUser;
let s3: S3Client;
let bucket: string;

beforeAll(async () => {
  app = await startTestApp();
  user = await createUser(app, 'big.sender@example.com');
  s3 = localS3Client(app.stack.urls.s3);
  bucket = stackBuckets(app.stack).bucket;
});

afterAll(async () => {
  if (s3) {
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: HOLD_COMPLETE_KEY })).catch(() => undefined);
    s3.destroy();
  }
  await app?.stop();
});

const holdCompletes = () => s3.send(new PutObjectCommand({ Bucket: bucket, Key: HOLD_COMPLETE_KEY, Body: 'hold' }));
const releaseCompletes = () => s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: HOLD_COMPLETE_KEY }));

const uploadState = (t: CreateTransferResponse) =>
  api(app, `/transfers/${t.id}/upload-state`, { headers: { 'x-upload-token': t.uploadToken } });

/** Asks again until the answer is no longer 202, as clients do (Retry-After is read, not slept: the test polls fast). */
async function pollUntilDone(call: () => ReturnType<typeof api>) {
  for (let i = 0; ; i += 1) {
    const res = await call();
    if (res.status !== 202) return res;
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    if (i > 3000) throw new Error('still completing after 3000 polls');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a file too large to put together within a request', () => {
  const big = randomData(INLINE_COMPLETE_MAX_BYTES + 3 * 1024 * 1024);
  const small = randomData(2000);
  const recipient = 'big.recipient@example.com';
  let t: CreateTransferResponse;

  it('answers 202 completing at once while S3 is still putting it together, and the same again', async () => {
    const create = await api(
      app,
      '/me/transfers',
      json(
        {
          sendAs: 'email',
          emailTo: [{ email: recipient }],
          message: 'a big one',
          fileObjects: [
            { fileName: 'notes.txt', size: small.length },
            { fileName: 'big.bin', size: big.length },
          ],
        },
        bearer(user),
      ),
    );
    expect(create.status, create.text).toBe(201);
    t = create.json as CreateTransferResponse;
    const [notes, f] = t.files as [CreateTransferResponse['files'][0], CreateTransferResponse['files'][0]];
    expect(f).toMatchObject({ mode: 'multipart', partCount: 21 });

    const put = await fetch(notes.url!, { method: 'PUT', body: new Uint8Array(small) });
    expect(put.status).toBe(200);
    expect((await completeFile(app, t, notes.fileId)).status).toBe(200);
    for (let n = 1; n <= f.partCount!; n += 1) await uploadPart(app, t, f, big, n);

    await holdCompletes();
    const first = await completeFile(app, t, f.fileId);
    expect(first.status, first.text).toBe(202);
    expect(first.json).toMatchObject({ fileId: f.fileId, size: big.length, state: 'completing' });
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const again = await completeFile(app, t, f.fileId);
    expect(again.status, again.text).toBe(202);
    expect(again.json).toMatchObject({ state: 'completing' });

    // no more bytes for a file being put together
    const sign = await api(
      app,
      `/transfers/${t.id}/sign`,
      json({ fileId: f.fileId, partNumbers: [1] }, { 'x-upload-token': t.uploadToken }),
    );
    expect(sign.status).toBe(409);
    expect(sign.json.error.code).toBe('file_completing');
  });

  it('the transfer answers 202 completing too, and upload-state reports both states', async () => {
    const done = await completeTransfer(app, t);
    expect(done.status, done.text).toBe(202);
    expect(done.json).toMatchObject({ id: t.id, state: 'completing', completing: [t.files[1]!.fileId] });
    expect(done.headers.get('retry-after')).toMatch(/^\d+$/);
    const repeat = await completeTransfer(app, t);
    expect(repeat.status).toBe(202);

    const state = await uploadState(t);
    expect(state.status).toBe(200);
    expect(state.json).toMatchObject({ status: 'uploading', state: 'completing' });
    const states = new Map(state.json.files.map((x: { fileId: string; state: string }) => [x.fileId, x.state]));
    expect(states).toEqual(
      new Map([
        [t.files[0]!.fileId, 'complete'],
        [t.files[1]!.fileId, 'completing'],
      ]),
    );
    // nothing was sent while the file is not in
    expect(await mailsTo(app, recipient)).toHaveLength(0);
  });

  it('once S3 finishes, the job marks the file complete and sends the transfer once', async () => {
    await releaseCompletes();
    const file = await pollUntilDone(() => completeFile(app, t, t.files[1]!.fileId));
    expect(file.status, file.text).toBe(200);
    expect(file.json).toMatchObject({ state: 'complete', size: big.length });
    // the job sent it by itself; a later complete answers the final state
    await waitForMail(app, recipient, new RegExp(`/downloads/${t.id}/`));
    await app.gateway.idle();
    const sent = await pollUntilDone(() => completeTransfer(app, t));
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json).toMatchObject({ id: t.id, state: 'complete', recipients: [recipient] });
    expect(await mailsTo(app, recipient)).toHaveLength(1);

    const state = await uploadState(t);
    expect(state.json).toMatchObject({ status: 'ready', state: 'complete' });
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: `t/${t.id}/${t.files[1]!.fileId}` }));
    expect(head.ContentLength).toBe(big.length);
    // the job joined the 21 parts' CRC-32s; the single file was completed without one
    expect(await fileRecordOf(app, t.id, t.files[1]!.fileId)).toMatchObject({ crc32: zlib.crc32(big) });
    expect(await fileRecordOf(app, t.id, t.files[0]!.fileId)).not.toHaveProperty('crc32');
  });

  it('is downloadable, the file and its ZIP byte-exact', async () => {
    const view = await pollUntilDone(() => api(app, '/getDownload', json({ id: t.id })));
    expect(view.status, view.text).toBe(200);
    const file = await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[1]!.fileId }));
    expect(file.status, file.text).toBe(200);
    expect(sha256((await fetchBytes(file.json.url as string)).bytes)).toBe(sha256(big));

    let zip = await api(app, '/zip', json({ id: t.id }));
    for (let i = 0; zip.status !== 200 && i < 600; i += 1) {
      expect([202, 409], zip.text).toContain(zip.status);
      await app.gateway.idle();
      await new Promise((r) => setTimeout(r, 100));
      zip = await api(app, '/zip', json({ id: t.id }));
    }
    expect(zip.status, zip.text).toBe(200);
    const entries = new Map(
      (await readZip((await fetchBytes(zip.json.url as string)).bytes)).map((e) => [e.name, e.data]),
    );
    expect(sha256(entries.get('big.bin')!)).toBe(sha256(big));
    expect(sha256(entries.get('notes.txt')!)).toBe(sha256(small));
  });
});

describe('a completion whose job died', () => {
  const big = randomData(INLINE_COMPLETE_MAX_BYTES + 2 * 1024 * 1024);
  const recipient = 'late.recipient@example.com';

  it("is started again by the job's schedule, and the transfer is sent without the sender asking again", async () => {
    const create = await api(
      app,
      '/me/transfers',
      json(
        { sendAs: 'email', emailTo: [{ email: recipient }], fileObjects: [{ fileName: 'big.bin', size: big.length }] },
        bearer(user),
      ),
    );
    expect(create.status, create.text).toBe(201);
    const t = create.json as CreateTransferResponse;
    const f = t.files[0]!;
    for (let n = 1; n <= f.partCount!; n += 1) await uploadPart(app, t, f, big, n);
    await holdCompletes();
    expect((await completeFile(app, t, f.fileId)).status).toBe(202);
    expect((await completeTransfer(app, t)).status).toBe(202);

    // The claim's run dies: its lease runs out, nobody calls complete again. (Here it is the
    // lease that lapses; the held run itself finds its claim superseded once S3 lets it go.)
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transferFile(t.id, f.fileId),
        UpdateExpression: 'SET completeLeaseUntil = :z, gsi2sk = :gsk',
        ExpressionAttributeValues: { ':z': 0, ':gsk': keys.completingIndex(0, t.id, f.fileId).gsi2sk },
      }),
    );
    const swept = (await app.gateway.runJob('complete-upload')) as { restarted: number };
    expect(swept.restarted).toBeGreaterThanOrEqual(1);
    const claimed = await fileRecordOf(app, t.id, f.fileId);
    expect(claimed).toMatchObject({ status: 'completing', completeRestarts: 1 });
    expect(claimed?.completeLeaseUntil).toBeGreaterThan(Date.now());
    // a second run finds nothing of this file to restart: its new claim is alive
    await app.gateway.runJob('complete-upload');
    expect((await fileRecordOf(app, t.id, f.fileId))?.completeRestarts).toBe(1);

    await releaseCompletes();
    await waitForMail(app, recipient, new RegExp(`/downloads/${t.id}/`));
    await app.gateway.idle();
    const record = await fileRecordOf(app, t.id, f.fileId);
    expect(record).toMatchObject({ status: 'uploaded', crc32: zlib.crc32(big) });
    expect(record).not.toHaveProperty('gsi2pk');
    expect(await mailsTo(app, recipient)).toHaveLength(1);
    const view = await pollUntilDone(() => api(app, '/getDownload', json({ id: t.id })));
    expect(view.status, view.text).toBe(200);
  });
});
