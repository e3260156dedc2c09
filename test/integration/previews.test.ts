/**
 * Previews through the local gateway against the emulators: the rules of the download
 * page (401 / 404 / 410 before any URL), inline URLs served with the kind's type, the thumbnails
 * job on sharp (made once, stored beside the image, counted as the transfer's, gone with it) and
 * the TransferModal's route for its readers only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { FilePreview, PreviewsResponse } from '../../functions/domain/previews';
import { THUMBNAIL_MAX_PX, thumbnailKeyOf } from '../../functions/domain/previews';
import { IMAGE_PREVIEW_MAX_BYTES } from '../../functions/domain/upload';
import { PURGE_GRACE_SECONDS } from '../../functions/domain/expiry';
import { keys } from '../../functions/data/keys';
import { makeThumbnail, ImageTooLargeError } from '../../functions/adapters/thumbnails';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { localS3Client } from '../../scripts/local/s3';
import { api, stackBuckets, startTestApp } from '../helpers/local-app';
import { bearer, completeTransfer, createUser, fetchBytes, json, uploadAll, type TestUser } from '../helpers/transfers';
import { tinyPdf } from '../helpers/tiny-pdf';

/** this file's transfer bucket of the default region (set once the stack runs) */
let BUCKET = '';
const DAY = 86_400_000;
const PASSWORD = 'open sesame 16';

let app: LocalApp;
let owner: TestUser;
let stranger: TestUser;
let s3: S3Client;
let photo: Buffer;

interface Sent extends CreateTransferResponse {
  readonly byName: ReadonlyMap<string, string>;
}

async function send(
  files: Record<string, Buffer>,
  extra: { voiceMemo?: Record<string, Buffer>; recordedVideos?: Record<string, Buffer>; password?: string } = {},
): Promise<Sent> {
  const entries = (m: Record<string, Buffer> | undefined) =>
    Object.entries(m ?? {}).map(([fileName, d]) => ({ fileName, size: d.length }));
  const res = await api(
    app,
    '/me/transfers',
    json(
      {
        sendAs: 'link',
        fileObjects: entries(files),
        ...(extra.voiceMemo ? { voiceMemo: entries(extra.voiceMemo) } : {}),
        ...(extra.recordedVideos ? { recordedVideos: entries(extra.recordedVideos) } : {}),
        ...(extra.password ? { password: extra.password } : {}),
      },
      bearer(owner),
    ),
  );
  expect(res.status, res.text).toBe(201);
  const t = res.json as CreateTransferResponse;
  await uploadAll(app, t, new Map(Object.entries({ ...files, ...extra.voiceMemo, ...extra.recordedVideos })));
  expect((await completeTransfer(app, t)).status).toBe(200);
  return { ...t, byName: new Map(t.files.map((f) => [f.fileName, f.fileId])) };
}

async function previews(id: string, password?: string) {
  return api(app, '/getDownload/previews', json({ id, ...(password ? { password } : {}) }));
}

function fileOf(body: PreviewsResponse, fileId: string): FilePreview {
  const f = body.files.find((x) => x.fileId === fileId);
  if (!f) throw new Error(`no preview for ${fileId}`);
  return f;
}

async function fileItem(slug: string, fileId: string): Promise<Record<string, any>> {
  const out = await dynamo().send(
    new GetCommand({ TableName: app.stack.env.TABLE_NAME, Key: keys.transferFile(slug, fileId) }),
  );
  return out.Item!;
}

async function transferItem(slug: string): Promise<Record<string, any>> {
  const out = await dynamo().send(new GetCommand({ TableName: app.stack.env.TABLE_NAME, Key: keys.transfer(slug) }));
  return out.Item!;
}

async function storageUsed(user: TestUser): Promise<number> {
  const out = await dynamo().send(
    new GetCommand({ TableName: app.stack.env.TABLE_NAME, Key: keys.userProfile(user.sub) }),
  );
  return Number(out.Item?.storageUsed ?? 0);
}

async function keysUnder(prefix: string): Promise<string[]> {
  const out = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!);
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

/** The previews until the image's thumbnail is ready (the job runs in the gateway, in-process). */
async function readyThumbnail(
  id: string,
  fileId: string,
  password?: string,
): Promise<{ body: PreviewsResponse; url: string }> {
  await app.gateway.idle();
  const res = await previews(id, password);
  expect(res.status, res.text).toBe(200);
  const thumb = fileOf(res.json as PreviewsResponse, fileId).thumbnail;
  expect(thumb?.status, JSON.stringify(thumb)).toBe('ready');
  return { body: res.json as PreviewsResponse, url: (thumb as { url: string }).url };
}

beforeAll(async () => {
  app = await startTestApp();
  BUCKET = stackBuckets(app.stack).bucket;
  owner = await createUser(app, 'preview-sender@example.com');
  stranger = await createUser(app, 'preview-stranger@example.com');
  s3 = localS3Client(app.stack.urls.s3);
  // 1600 x 1200, noise: large enough that the thumbnail is a real reduction
  photo = await sharp(Buffer.from(Array.from({ length: 1600 * 1200 * 3 }, (_, i) => (i * 7919) % 251)), {
    raw: { width: 1600, height: 1200, channels: 3 },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
});

afterAll(async () => {
  s3?.destroy();
  await app?.stop();
});

describe('previews of a transfer', () => {
  let t: Sent;
  const memo = Buffer.from('1a45dfa3 pretend webm voice memo bytes');
  const video = Buffer.from('1a45dfa3 pretend webm video bytes');
  const files = () => ({
    'photo.jpg': photo,
    'report.pdf': tinyPdf(),
    'notes.txt': Buffer.from('hello, previews\n'),
    'logo.svg': Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    'page.html': Buffer.from('<script>alert(1)</script>'),
    'bundle.zip': Buffer.from('PK\u0003\u0004 not really'),
  });

  beforeAll(async () => {
    t = await send(files(), {
      voiceMemo: { 'voice-memo-2026-11-26T01-00-00.webm': memo },
      recordedVideos: { 'video-2026-11-26T01-00-00.webm': video },
    });
  });

  it('names each file kind, labels the recordings, and hands inline URLs only for the safe kinds', async () => {
    const res = await previews(t.id);
    expect(res.status, res.text).toBe(200);
    const body = res.json as PreviewsResponse;
    expect(body.expiresIn).toBe(600);
    const of = (name: string) => fileOf(body, t.byName.get(name)!);
    expect(of('photo.jpg')).toMatchObject({ kind: 'image', icon: 'image', thumbnail: { status: 'pending' } });
    expect(of('report.pdf')).toMatchObject({ kind: 'pdf', icon: 'pdf' });
    expect(of('notes.txt')).toMatchObject({ kind: 'text', icon: 'text' });
    expect(of('voice-memo-2026-11-26T01-00-00.webm')).toMatchObject({ kind: 'audio', recording: 'voice' });
    expect(of('video-2026-11-26T01-00-00.webm')).toMatchObject({ kind: 'video', recording: 'video' });
    for (const name of ['logo.svg', 'page.html', 'bundle.zip']) {
      expect(of(name).kind, name).toBe('none');
      expect(of(name).url, name).toBeUndefined();
    }
    expect(of('logo.svg').icon).toBe('image');
    expect(of('page.html').icon).toBe('code');
    expect(of('bundle.zip').icon).toBe('archive');

    const served = async (name: string) => {
      const r = await fetchBytes(of(name).url!);
      expect(r.status, name).toBe(200);
      return r;
    };
    const pdf = await served('report.pdf');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^inline; filename="report\.pdf"/u);
    expect((await served('notes.txt')).headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const memoAnswer = await served('voice-memo-2026-11-26T01-00-00.webm');
    expect(memoAnswer.headers.get('content-type')).toBe('audio/webm');
    expect(memoAnswer.bytes.equals(memo)).toBe(true);
    expect(new URL(of('photo.jpg').url!).searchParams.get('X-Amz-Expires')).toBe('600');
  });

  it('makes the thumbnail once, beside the image, at most 400 px, and counts it as the transfer’s', async () => {
    const fileId = t.byName.get('photo.jpg')!;
    const storageBefore = await storageUsed(owner);
    const reservedBefore = Number((await transferItem(t.id)).reservedBytes);
    const { url } = await readyThumbnail(t.id, fileId);
    const thumb = await fetchBytes(url);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(thumb.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBe(THUMBNAIL_MAX_PX);
    expect(thumb.bytes.length).toBeLessThan(photo.length / 5);

    const key = thumbnailKeyOf(`t/${t.id}/${fileId}`);
    expect(await keysUnder(`t/${t.id}/`)).toContain(key);
    const item = await fileItem(t.id, fileId);
    expect(item).toMatchObject({ thumbStatus: 'ready', thumbBytes: thumb.bytes.length });
    expect(Number((await transferItem(t.id)).reservedBytes)).toBe(reservedBefore + thumb.bytes.length);
    expect(await storageUsed(owner)).toBe(storageBefore + thumb.bytes.length);

    // Once: later calls and a stray job run change nothing.
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    await readyThumbnail(t.id, fileId);
    const stray = (await app.gateway.runJob('thumbnails', {
      slug: t.id,
      fileIds: [fileId],
      claimedAt: Date.now(),
    })) as { made: number; failed: number };
    expect(stray).toEqual({ made: 0, failed: 0 });
    await app.gateway.idle();
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).ETag).toBe(head.ETag);
    expect(await fileItem(t.id, fileId)).toMatchObject({ thumbStatus: 'ready', thumbStartedAt: item.thumbStartedAt });
    expect(await storageUsed(owner)).toBe(storageBefore + thumb.bytes.length);
  });

  it('the TransferModal route answers the sender and refuses another user', async () => {
    const mine = await api(app, `/transfers/${t.id}/previews`, { headers: bearer(owner) });
    expect(mine.status, mine.text).toBe(200);
    expect(fileOf(mine.json as PreviewsResponse, t.byName.get('photo.jpg')!).thumbnail?.status).toBe('ready');
    const theirs = await api(app, `/transfers/${t.id}/previews`, { headers: bearer(stranger) });
    expect(theirs.status).toBe(403);
    expect(theirs.json.error.code).toBe('not_owner');
    expect((await api(app, `/transfers/${t.id}/previews`)).status).toBe(401);
    const unknown = await api(app, '/transfers/ZZZZZZ9/previews', { headers: bearer(owner) });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('transfer_not_found');
  });
});

describe('what gets no preview', () => {
  it('a password-protected transfer: 401 until the right password, then previews', async () => {
    const t = await send(
      {
        'secret.png': await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0a0' } })
          .png()
          .toBuffer(),
      },
      { password: PASSWORD },
    );
    const none = await previews(t.id);
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe('password_required');
    expect(none.json.files).toBeUndefined();
    const wrong = await previews(t.id, 'not it');
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('wrong_password');
    // Nothing was claimed for a caller who may not see the files.
    expect((await fileItem(t.id, t.byName.get('secret.png')!)).thumbStatus).toBeUndefined();
    await previews(t.id, PASSWORD);
    const { url } = await readyThumbnail(t.id, t.byName.get('secret.png')!, PASSWORD);
    expect((await sharp((await fetchBytes(url)).bytes).metadata()).width).toBe(64);
  });

  it('an expired transfer: 410 on the download page and in the TransferModal', async () => {
    const t = await send({
      'old.png': await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00f' } })
        .png()
        .toBuffer(),
    });
    await setExpiry(t.id, Date.now() - DAY);
    const res = await previews(t.id);
    expect(res.status).toBe(410);
    expect(res.json.error.code).toBe('transfer_expired');
    const modal = await api(app, `/transfers/${t.id}/previews`, { headers: bearer(owner) });
    expect(modal.status).toBe(410);
    expect(modal.json.error.code).toBe('transfer_expired');
  });

  it('unknown ids: 404 with stable codes', async () => {
    const res = await previews('ZZZZZZ9');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('transfer_not_found');
    const bad = await api(app, '/getDownload/previews', json({ id: 'not a slug' }));
    expect(bad.status).toBe(400);
  });

  it('an image over 100 MB gets its icon, no viewer and no thumbnail job', async () => {
    const t = await send({ 'huge.jpg': photo });
    const fileId = t.byName.get('huge.jpg')!;
    // The record says what was uploaded; declaring 100 MB + 1 here spares the test a 100 MB upload.
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transferFile(t.id, fileId),
        UpdateExpression: 'SET size = :s',
        ExpressionAttributeValues: { ':s': IMAGE_PREVIEW_MAX_BYTES + 1 },
      }),
    );
    const res = await previews(t.id);
    expect(res.status).toBe(200);
    const f = fileOf(res.json as PreviewsResponse, fileId);
    expect(f).toEqual({ fileId, kind: 'none', icon: 'image' });
    await app.gateway.idle();
    expect((await fileItem(t.id, fileId)).thumbStatus).toBeUndefined();
    // Even a job told to make it refuses.
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transferFile(t.id, fileId),
        UpdateExpression: 'SET thumbStatus = :b, thumbStartedAt = :at',
        ExpressionAttributeValues: { ':b': 'building', ':at': 42 },
      }),
    );
    expect(await app.gateway.runJob('thumbnails', { slug: t.id, fileIds: [fileId], claimedAt: 42 })).toEqual({
      made: 0,
      failed: 0,
    });
    expect((await fileItem(t.id, fileId)).thumbStatus).toBe('failed');
    expect(await keysUnder(thumbnailKeyOf(`t/${t.id}/${fileId}`))).toEqual([]);
  });

  it('an image sharp cannot read is marked failed once and shows its icon', async () => {
    const t = await send({ 'broken.png': Buffer.from('this is not a PNG at all') });
    const fileId = t.byName.get('broken.png')!;
    expect(fileOf((await previews(t.id)).json as PreviewsResponse, fileId).thumbnail).toEqual({ status: 'pending' });
    await app.gateway.idle();
    expect(fileOf((await previews(t.id)).json as PreviewsResponse, fileId).thumbnail).toEqual({ status: 'failed' });
    expect(await keysUnder(thumbnailKeyOf(`t/${t.id}/${fileId}`))).toEqual([]);
  });

  it('the thumbnail maker stops reading an object larger than it may be', async () => {
    const t = await send({ 'big.jpg': photo });
    const ref = { regionId: 'hongkong' as const, anon: false, key: `t/${t.id}/${t.byName.get('big.jpg')!}` };
    await expect(makeThumbnail(ref, { ...ref, key: `${ref.key}.probe.webp` }, 1000)).rejects.toBeInstanceOf(
      ImageTooLargeError,
    );
  });
});

describe('thumbnails leave with their transfer', () => {
  it('deleting the transfer deletes the thumbnail and gives its bytes back', async () => {
    const before = await storageUsed(owner);
    const t = await send({ 'gone.jpg': photo });
    await previews(t.id);
    await readyThumbnail(t.id, t.byName.get('gone.jpg')!);
    expect((await keysUnder(`t/${t.id}/`)).some((k) => k.endsWith('.thumb.webp'))).toBe(true);
    const del = await api(app, `/transfers/${t.id}`, { method: 'DELETE', headers: bearer(owner) });
    expect(del.status, del.text).toBe(200);
    expect(await keysUnder(`t/${t.id}/`)).toEqual([]);
    expect(await storageUsed(owner)).toBe(before);
    const res = await previews(t.id);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('transfer_not_found');
  });

  it('the sweep’s purge deletes it with the files and releases its bytes', async () => {
    const before = await storageUsed(owner);
    const t = await send({ 'purged.jpg': photo });
    await previews(t.id);
    await readyThumbnail(t.id, t.byName.get('purged.jpg')!);
    await setExpiry(t.id, Date.now() - PURGE_GRACE_SECONDS * 1000 - 2 * DAY);
    await app.gateway.runJob('expiry-sweep'); // ready -> expired
    await app.gateway.runJob('expiry-sweep'); // expired -> purged
    expect(await keysUnder(`t/${t.id}/`)).toEqual([]);
    expect(await storageUsed(owner)).toBe(before);
  });
});
