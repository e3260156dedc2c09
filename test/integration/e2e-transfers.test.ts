/**
 * End-to-end encrypted transfers on the server's side, against the local emulators: the server
 * takes sealed files (docs/e2e-format.md) and their public parameters only, plans their parts on
 * the plaintext, stores ciphertext, never scans or thumbnails what it cannot read, stores the
 * sender's sealed thumbnail, builds no ZIP, and hands the recipient what opening needs, but the key.
 * The client here is the format's reference module, sealing as the browser and the CLI will.
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  E2eTamperError,
  cipherSizeOf,
  fileKeyOf,
  keyCheckOf,
  keyFragment,
  keyFromPassphrase,
  newFileParams,
  newPassphraseParams,
  newTransferKey,
  openingStream,
  sealRange,
  sealedPartSize,
} from '../../functions/domain/e2e-format';
import { partSizeFor } from '../../functions/domain/upload';
import type { CreateTransferResponse, DownloadView } from '../../functions/domain/transfer-api';
import type { PreviewsResponse } from '../../functions/domain/previews';
import type { LocalApp } from '../../scripts/local/app';
import { localS3Client } from '../../scripts/local/s3';
import { api, stackBuckets, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  fileRecordOf,
  guestToken,
  json,
  randomData,
  sha256,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let owner: TestUser;
let s3: S3Client;
let bucket: string;

beforeAll(async () => {
  app = await startTestApp();
  owner = await createUser(app, 'sealed.sender@example.com');
  s3 = localS3Client(app.stack.urls.s3);
  bucket = stackBuckets(app.stack).bucket;
});

afterAll(async () => {
  s3?.destroy();
  await app?.stop();
});

const MiB = 1024 * 1024;
const key = newTransferKey();

async function seal(plain: Uint8Array, salt: string): Promise<Uint8Array> {
  return sealRange(await fileKeyOf(key, salt), plain.length, 0, plain);
}

async function open(sealed: Uint8Array, salt: string, plainSize: number): Promise<Buffer> {
  const source = new Blob([sealed as BlobPart])
    .stream()
    .pipeThrough(openingStream(await fileKeyOf(key, salt), plainSize));
  const parts: Uint8Array[] = [];
  for await (const p of source as unknown as AsyncIterable<Uint8Array>) parts.push(p);
  return Buffer.concat(parts);
}

async function stored(objectKey: string): Promise<Buffer> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/** A sealed file as a send lists it: stored size, salt and plaintext size. */
function entry(fileName: string, plain: Uint8Array, salt: string) {
  return { fileName, size: cipherSizeOf(plain.length), e2e: { salt, plainSize: plain.length } };
}

describe('an end-to-end encrypted link send', () => {
  const video = randomData(60 * MiB + 12_345);
  const photo = randomData(90_001);
  const videoParams = newFileParams(video.length);
  const photoParams = newFileParams(photo.length);
  let t: CreateTransferResponse;
  let check: string;

  it('is planned on the plaintext: sealed whole-chunk parts that add up to the sealed object', async () => {
    check = await keyCheckOf(key);
    const res = await api(
      app,
      '/me/transfers',
      json(
        {
          sendAs: 'link',
          e2e: { v: 1, mode: 'link', check },
          fileObjects: [entry('clip.mp4', video, videoParams.salt), entry('photo.jpg', photo, photoParams.salt)],
        },
        bearer(owner),
      ),
    );
    expect(res.status, res.text).toBe(201);
    t = res.json as CreateTransferResponse;
    const clip = t.files.find((f) => f.fileName === 'clip.mp4')!;
    expect(clip.mode).toBe('multipart');
    expect(clip.size).toBe(cipherSizeOf(video.length));
    expect(clip.partSize).toBe(sealedPartSize(partSizeFor(video.length)));
    expect(clip.partCount).toBe(Math.ceil(video.length / partSizeFor(video.length)));
    expect(clip.e2e).toEqual({ salt: videoParams.salt, plainSize: video.length });
    // the link the sender shares carries the key in its fragment, which no request sends
    expect(JSON.stringify(res.json)).not.toContain(keyFragment(key).slice(2));
  });

  it('stores ciphertext that opens to the plaintext with the key, and only with it', async () => {
    const sealedVideo = await seal(video, videoParams.salt);
    const sealedPhoto = await seal(photo, photoParams.salt);
    await uploadAll(
      app,
      t,
      new Map([
        ['clip.mp4', sealedVideo],
        ['photo.jpg', sealedPhoto],
      ]),
    );
    const done = await completeTransfer(app, t);
    expect(done.status, done.text).toBe(200);

    const clip = t.files.find((f) => f.fileName === 'clip.mp4')!;
    const record = await fileRecordOf(app, t.id, clip.fileId);
    const raw = await stored(record!.key);
    expect(raw.length).toBe(cipherSizeOf(video.length));
    expect(sha256(raw)).not.toBe(sha256(video));
    // no 4 KiB run of the plaintext appears in the stored object
    expect(raw.includes(video.subarray(MiB, MiB + 4096))).toBe(false);
    expect(sha256(await open(raw, videoParams.salt, video.length))).toBe(sha256(video));
  });

  it('is not scanned, says why, and stays downloadable', async () => {
    for (const f of t.files) {
      const record = await fileRecordOf(app, t.id, f.fileId);
      expect(record?.scanStatus).toBe('unscanned');
      expect(record?.scanFinding).toBe('end-to-end encrypted');
    }
    const res = await api(app, '/getDownload', json({ id: t.id }));
    expect(res.status, res.text).toBe(200);
    const view = res.json as DownloadView;
    expect(view.e2e).toEqual({ v: 1, mode: 'link', check });
    expect(view.files.map((f) => f.scan)).toEqual(['unscanned', 'unscanned']);
    expect(view.files.find((f) => f.fileName === 'photo.jpg')?.e2e).toEqual({
      salt: photoParams.salt,
      plainSize: photo.length,
    });
    const file = await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId }));
    expect(file.status, file.text).toBe(200);
  });

  it("takes the sender's sealed thumbnail and serves it in the previews; never a thumbnail job", async () => {
    const photoFile = t.files.find((f) => f.fileName === 'photo.jpg')!;
    const webp = randomData(20_000);
    const sealedThumb = await sealRange(await fileKeyOf(key, photoParams.salt, 'thumbnail'), webp.length, 0, webp);
    const headers = { 'x-upload-token': t.uploadToken };
    const signed = await api(
      app,
      `/transfers/${t.id}/files/${photoFile.fileId}/thumbnail`,
      json({ size: sealedThumb.length }, headers),
    );
    expect(signed.status, signed.text).toBe(200);
    const put = await fetch((signed.json as { url: string }).url, {
      method: 'PUT',
      body: sealedThumb as BodyInit,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.status).toBe(200);
    const done = await api(app, `/transfers/${t.id}/files/${photoFile.fileId}/thumbnail/complete`, {
      method: 'POST',
      headers,
    });
    expect(done.status, done.text).toBe(200);

    const previews = await api(app, '/getDownload/previews', json({ id: t.id }));
    expect(previews.status, previews.text).toBe(200);
    const photoPreview = (previews.json as PreviewsResponse).files.find((p) => p.fileId === photoFile.fileId)!;
    expect(photoPreview.thumbnail?.status).toBe('ready');
    const thumbBytes = Buffer.from(await (await fetch((photoPreview.thumbnail as { url: string }).url)).arrayBuffer());
    const opened = await (async () => {
      const source = new Blob([thumbBytes as BlobPart])
        .stream()
        .pipeThrough(openingStream(await fileKeyOf(key, photoParams.salt, 'thumbnail'), webp.length));
      const parts: Uint8Array[] = [];
      for await (const p of source as unknown as AsyncIterable<Uint8Array>) parts.push(p);
      return Buffer.concat(parts);
    })();
    expect(opened.equals(webp)).toBe(true);
    // the video has no thumbnail, and the server never claimed one to build
    const clip = (previews.json as PreviewsResponse).files.find((p) => p.fileId !== photoFile.fileId)!;
    expect(clip.thumbnail).toBeUndefined();
    expect((await fileRecordOf(app, t.id, clip.fileId))?.thumbStatus).toBeUndefined();
    // too large a thumbnail is refused before any URL
    const big = await api(
      app,
      `/transfers/${t.id}/files/${photoFile.fileId}/thumbnail`,
      json({ size: 10 * MiB }, headers),
    );
    expect(big.status).toBe(400);
    expect((big.json as { error: { code: string } }).error.code).toBe('thumbnail_too_large');
  });

  it('builds no ZIP: the browser builds it from the opened files', async () => {
    const res = await api(app, '/zip', json({ id: t.id }));
    expect(res.status).toBe(409);
    expect((res.json as { error: { code: string } }).error.code).toBe('encrypted_zip_in_browser');
  });

  it('fails to open once one stored byte is flipped', async () => {
    const clip = t.files.find((f) => f.fileName === 'clip.mp4')!;
    const record = await fileRecordOf(app, t.id, clip.fileId);
    const raw = await stored(record!.key);
    raw[5 * MiB + 77] = (raw[5 * MiB + 77] ?? 0) ^ 0x01;
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: record!.key, Body: raw }));
    await expect(open(await stored(record!.key), videoParams.salt, video.length)).rejects.toBeInstanceOf(
      E2eTamperError,
    );
  });
});

describe('what an encrypted send may not be', () => {
  const plain = randomData(1000);
  const salt = newFileParams(plain.length).salt;
  const codeOf = (res: { json: unknown }) => (res.json as { error: { code: string } }).error.code;
  let check: string;

  beforeAll(async () => {
    check = await keyCheckOf(key);
  });

  const send = (body: Record<string, unknown>) => api(app, '/me/transfers', json(body, bearer(owner)));

  it("a guest's (no account answers for files nobody could scan)", async () => {
    const sender = 'sealed.guest@example.com';
    const token = await guestToken(app, sender);
    const res = await api(
      app,
      '/transfers',
      json(
        {
          sendAs: 'email',
          senderEmail: sender,
          emailTo: [{ email: 'someone@example.com' }],
          e2e: { v: 1, mode: 'passphrase', kdf: newPassphraseParams(), check },
          fileObjects: [entry('a.bin', plain, salt)],
        },
        { 'x-sender-token': token },
      ),
    );
    expect(res.status).toBe(400);
    expect(codeOf(res)).toBe('encryption_needs_account');
  });

  it('an email send with the key in a link (a mail has no fragment): a passphrase is needed', async () => {
    const res = await send({
      sendAs: 'email',
      emailTo: [{ email: 'r@example.com' }],
      e2e: { v: 1, mode: 'link', check },
      fileObjects: [entry('a.bin', plain, salt)],
    });
    expect(res.status).toBe(400);
    expect(codeOf(res)).toBe('encryption_passphrase_required');
    const ok = await send({
      sendAs: 'email',
      emailTo: [{ email: 'r@example.com' }],
      e2e: { v: 1, mode: 'passphrase', kdf: newPassphraseParams(), check },
      fileObjects: [entry('a.bin', plain, salt)],
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('a file whose stored size is not its sealed size, an unsealed file in it, or a sealed file in a plain send', async () => {
    for (const body of [
      { e2e: { v: 1, mode: 'link', check }, fileObjects: [{ ...entry('a.bin', plain, salt), size: plain.length }] },
      {
        e2e: { v: 1, mode: 'link', check },
        fileObjects: [entry('a.bin', plain, salt), { fileName: 'b.bin', size: 10 }],
      },
      { fileObjects: [entry('a.bin', plain, salt)] },
      { e2e: { v: 1, mode: 'passphrase', check }, fileObjects: [entry('a.bin', plain, salt)] },
      {
        e2e: { v: 1, mode: 'passphrase', kdf: { ...newPassphraseParams(), memoryKiB: 1024 }, check },
        fileObjects: [entry('a.bin', plain, salt)],
      },
    ]) {
      const res = await send({ sendAs: 'link', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(codeOf(res)).toBe('invalid_encryption');
    }
    const v2 = await send({
      sendAs: 'link',
      e2e: { v: 2, mode: 'link', check },
      fileObjects: [entry('a.bin', plain, salt)],
    });
    expect(v2.status).toBe(400);
  });

  it('with a review, and, once sent, forwarded or given a new version on the dashboard (the server cannot read its files)', async () => {
    const reviewed = await send({
      sendAs: 'link',
      review: true,
      e2e: { v: 1, mode: 'link', check },
      fileObjects: [entry('a.bin', plain, salt)],
    });
    expect(reviewed.status).toBe(400);
    expect(codeOf(reviewed)).toBe('encrypted_review');

    const res = await send({
      sendAs: 'link',
      e2e: { v: 1, mode: 'link', check },
      fileObjects: [entry('a.bin', plain, salt)],
    });
    expect(res.status, res.text).toBe(201);
    const t = res.json as CreateTransferResponse;
    await uploadAll(app, t, new Map([['a.bin', await seal(plain, salt)]]));
    expect((await completeTransfer(app, t)).status).toBe(200);

    const forward = await api(app, '/transfers/forward', json({ slug: t.id, sendAs: 'link' }, bearer(owner)));
    expect(forward.status, forward.text).toBe(409);
    expect(codeOf(forward)).toBe('encrypted_forward');
    const version = await api(
      app,
      `/transfers/${t.id}/files/${t.files[0]!.fileId}/versions`,
      json({ fileName: 'a.bin', size: 2000 }, bearer(owner)),
    );
    expect(version.status, version.text).toBe(409);
    expect(codeOf(version)).toBe('encrypted_new_version');
  });

  it('a sender thumbnail for a plain file', async () => {
    const res = await send({ sendAs: 'link', fileObjects: [{ fileName: 'a.bin', size: plain.length }] });
    const t = res.json as CreateTransferResponse;
    const thumb = await api(
      app,
      `/transfers/${t.id}/files/${t.files[0]!.fileId}/thumbnail`,
      json({ size: 100 }, { 'x-upload-token': t.uploadToken }),
    );
    expect(thumb.status).toBe(409);
    expect(codeOf(thumb)).toBe('not_encrypted');
  });
});

describe('an end-to-end encrypted email send', () => {
  it("mails each recipient that a passphrase is needed, lists the files' own sizes, and carries no key", async () => {
    const passphrase = 'correct horse battery staple';
    const kdf = newPassphraseParams({ memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 });
    const sealedKey = await keyFromPassphrase(passphrase, kdf);
    const plain = randomData(950);
    const params = newFileParams(plain.length);
    const recipient = 'sealed.reader@example.com';
    const res = await api(
      app,
      '/me/transfers',
      json(
        {
          sendAs: 'email',
          emailTo: [{ email: recipient }],
          e2e: { v: 1, mode: 'passphrase', kdf, check: await keyCheckOf(sealedKey) },
          fileObjects: [entry('notes.txt', plain, params.salt)],
        },
        bearer(owner),
      ),
    );
    expect(res.status, res.text).toBe(201);
    const t = res.json as CreateTransferResponse;
    const sealed = await sealRange(await fileKeyOf(sealedKey, params.salt), plain.length, 0, plain);
    await uploadAll(app, t, new Map([['notes.txt', sealed]]));
    expect((await completeTransfer(app, t)).status).toBe(200);

    const mail = await waitForMail(app, recipient, /notes\.txt/u);
    for (const body of [mail.body.text, mail.body.html]) {
      expect(body).toContain('end-to-end encrypted');
      expect(body).toContain('another way, never by email');
      // 950 bytes are stored as 966: the recipient is told what they will get
      expect(body).toMatch(/notes\.txt[^\n]*950\sB/u);
      expect(body).not.toMatch(/966\sB/u);
      expect(body).not.toContain(passphrase);
      expect(body).not.toContain(keyFragment(sealedKey).slice(2));
    }
  });
});
