import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import {
  cipherSizeOf,
  fileKeyOf,
  keyFromFragment,
  keyFromPassphrase,
  keyMatches,
  openingStream,
  plainSizeOf,
  toBase64url,
} from '../../functions/domain/e2e-format';
import type { E2eTransferParams } from '../../functions/domain/e2e-params';
import { MULTIPART_THRESHOLD_BYTES } from '../../functions/domain/upload';
import { thumbnailKeyOf } from '../../functions/domain/previews';
import type { FileRecord } from '../../functions/data/transfers';
import { keys } from '../../functions/data/keys';
import type { LocalApp } from '../../scripts/local/app';
import { localS3Client } from '../../scripts/local/s3';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { stackBuckets } from '../helpers/local-app';
import { recordWebm } from '../helpers/record-webm';
import { createUser, fileRecordsOf, randomData, sha256, waitForMail, type TestUser } from '../helpers/transfers';

/**
 * The sender's browser side of end-to-end encrypted sends (docs/e2e-format.md), in the built app
 * under its CSP: a signed-in pro user sends a folder (an image, a PDF, a video) encrypted by link,
 * and by email with a passphrase. The bucket is read raw: every stored object is ciphertext that
 * opens, with the key from the shown link's fragment (or the passphrase), to the bytes picked, and
 * each previewable file has a sealed WebP thumbnail the browser made. No request the browser sent
 * carries the key or the passphrase.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let sender: TestUser;
let s3: S3Client;
let bucket: string;
let dir: string;
let context: BrowserContext;
let page: Page;
/** every request the page sent: its URL, headers and body */
let sent: string[];

/** relative path in the picked folder -> bytes */
const album = new Map<string, Buffer>();

async function pdfWithText(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const pageOne = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  pageOne.drawRectangle({ x: 40, y: 600, width: 300, height: 200, color: rgb(0.1, 0.4, 0.8) });
  pageOne.drawText('Sealed quarterly report', { x: 50, y: 560, size: 24, font });
  doc.addPage([595, 842]).drawText('Page two', { x: 50, y: 700, size: 18, font });
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  sender = await createUser(app, 'e2e.sealed.sender@example.com', 'pro');
  s3 = localS3Client(app.stack.urls.s3);
  bucket = stackBuckets(app.stack).bucket;
  dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-e2e-send-'));
  const noise = randomData(320 * 240 * 3);
  album.set(
    'album/photo.png',
    await sharp(noise, { raw: { width: 320, height: 240, channels: 3 } })
      .png()
      .toBuffer(),
  );
  album.set('album/report.pdf', await pdfWithText());
  album.set('album/clip.webm', await recordWebm(browser, 'video', 2500));
  for (const [rel, data] of album) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), data);
  }
}, 300_000);

afterAll(async () => {
  s3?.destroy();
  await stopBrowserStack({ app, web, browser });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  ({ context, page } = await openPage(browser));
  sent = [];
  context.on('request', (request) => {
    sent.push(`${request.url()}\n${JSON.stringify(request.headers())}\n${request.postData() ?? ''}`);
  });
});
afterEach(() => closePage(context));

async function stored(key: string): Promise<Buffer> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/** A stored object opened as the recipient's browser will, through the format's reference stream. */
async function opened(sealed: Buffer, key: Uint8Array, salt: string, plainSize: number, purpose: 'file' | 'thumbnail') {
  const source = new Blob([sealed as BlobPart])
    .stream()
    .pipeThrough(openingStream(await fileKeyOf(key, salt, purpose), plainSize));
  const parts: Uint8Array[] = [];
  for await (const p of source as unknown as AsyncIterable<Uint8Array>) parts.push(p);
  return Buffer.concat(parts);
}

async function transferE2e(slug: string): Promise<E2eTransferParams | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: app.stack.env.TABLE_NAME, Key: keys.transfer(slug) }));
  return (out.Item as { e2e?: E2eTransferParams } | undefined)?.e2e;
}

/** Each record's stored object is ciphertext that opens to the picked bytes. */
async function expectSealedFiles(records: FileRecord[], key: Uint8Array, picked: Map<string, Buffer>) {
  expect(records).toHaveLength(picked.size);
  for (const record of records) {
    const name = record.itemPath ?? record.fileName;
    const plain = picked.get(name)!;
    expect(record.e2e, name).toEqual({ salt: expect.any(String), plainSize: plain.length });
    expect(record.size, name).toBe(cipherSizeOf(plain.length));
    expect(record.scanStatus, name).toBe('unscanned');
    const raw = await stored(record.key);
    expect(raw.length, name).toBe(cipherSizeOf(plain.length));
    // ciphertext: no run of the plaintext is in the bucket
    expect(raw.includes(plain.subarray(0, 64)), name).toBe(false);
    expect(sha256(await opened(raw, key, record.e2e!.salt, plain.length, 'file')), name).toBe(sha256(plain));
  }
}

function expectNoSecretSent(secrets: string[]) {
  expect(sent.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    const carrying = sent.filter((r) => r.includes(secret) || r.includes(encodeURIComponent(secret)));
    expect(carrying, secret).toEqual([]);
  }
}

describe('an end-to-end encrypted send', () => {
  it('by link: a folder with an image, a PDF and a video, stored sealed with sealed thumbnails; the key only in the link', async () => {
    await logIn(page, web.url, sender.email);
    await page.getByTestId('folder-input').setInputFiles(path.join(dir, 'album'));
    await page.getByText('clip.webm').first().waitFor();
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByLabel('Get a link to share myself').check();
    await page.getByTestId('send-e2e').check();
    expect(await page.getByTestId('e2e-option').textContent()).toContain(
      'The key is in the link; our server never sees it.',
    );
    await page.getByTestId('send-submit').click();
    await page.getByTestId('done-link').waitFor({ timeout: 120_000 });

    const link = new URL(await page.getByTestId('done-link').inputValue());
    const key = keyFromFragment(link.hash);
    expect(key, link.href).not.toBeNull();
    expect(await page.getByTestId('done-e2e-note').textContent()).toContain('The key is in this link');
    const slug = link.pathname.split('/').pop()!;

    const params = await transferE2e(slug);
    expect(params).toMatchObject({ v: 1, mode: 'link' });
    expect(params?.kdf).toBeUndefined();
    expect(await keyMatches(key!, params!.check)).toBe(true);

    const records = await fileRecordsOf(app, slug);
    await expectSealedFiles(records, key!, album);

    for (const record of records) {
      const name = record.itemPath ?? record.fileName;
      expect(record.thumbStatus, name).toBe('ready');
      const sealedThumb = await stored(thumbnailKeyOf(record.key));
      const webp = await opened(sealedThumb, key!, record.e2e!.salt, plainSizeOf(sealedThumb.length), 'thumbnail');
      expect(webp.subarray(0, 4).toString('latin1'), name).toBe('RIFF');
      expect(webp.subarray(8, 12).toString('latin1'), name).toBe('WEBP');
      const meta = await sharp(webp).metadata();
      expect(meta.format, name).toBe('webp');
      expect(Math.max(meta.width ?? 0, meta.height ?? 0), name).toBeLessThanOrEqual(400);
      expect(Math.max(meta.width ?? 0, meta.height ?? 0), name).toBeGreaterThan(0);
    }

    expectNoSecretSent([toBase64url(key!)]);
  }, 300_000);

  it('by email: a passphrase (12 characters at least, typed twice) the mail never carries', async () => {
    const recipient = 'e2e.sealed.friend@example.com';
    const passphrase = 'correct horse battery staple';
    const picked = new Map([['notes.txt', randomData(40_000)]]);
    await logIn(page, web.url, sender.email);
    await page.getByTestId('file-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: picked.get('notes.txt')!,
    });
    await page.getByTestId('recipients-input').fill(recipient);
    await page.getByTestId('recipients-input').press('Enter');
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByTestId('send-e2e').check();
    await page.getByTestId('send-e2e-passphrase').fill('too short');
    // blocked (aria-disabled): the click still arrives and points at the field
    await page.getByTestId('send-submit').click({ force: true });
    await expect
      .poll(() => page.getByTestId('send-e2e-problem').textContent())
      .toBe('The passphrase needs at least 12 characters');
    await page.getByTestId('send-e2e-passphrase').fill(passphrase);
    await page.getByTestId('send-e2e-confirm').fill(`${passphrase}!`);
    await expect
      .poll(() => page.getByTestId('send-e2e-problem').textContent())
      .toBe('The two passphrases are not the same');
    await page.getByTestId('send-e2e-confirm').fill(passphrase);
    // the server-side password adds nothing to an encrypted send
    await page.getByRole('tab', { name: 'Password' }).click();
    await page.getByTestId('password-not-needed').waitFor();
    await page.getByTestId('send-submit').click();
    await page.getByTestId('sent-to').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('done-e2e-note').textContent()).toContain('Recipients need the passphrase');

    const mail = await waitForMail(app, recipient, /\/downloads\/[A-Za-z0-9]{7}\//u);
    expect(mail.body.text).not.toContain(passphrase);
    const slug = /\/downloads\/([A-Za-z0-9]{7})\//u.exec(mail.body.text)![1]!;
    const params = await transferE2e(slug);
    expect(params).toMatchObject({ v: 1, mode: 'passphrase', kdf: { alg: 'argon2id' } });
    const key = await keyFromPassphrase(passphrase, params!.kdf!);
    expect(await keyMatches(key, params!.check)).toBe(true);
    await expectSealedFiles(await fileRecordsOf(app, slug), key, picked);

    expectNoSecretSent([passphrase, toBase64url(key)]);
  }, 300_000);

  it('resumes after the page went away mid-upload: the same key and salts, and the object opens whole', async () => {
    // over the multipart threshold (50 MB): parts of 5 MiB
    const big = randomData(MULTIPART_THRESHOLD_BYTES + 321);
    const file = path.join(dir, 'footage.bin');
    writeFileSync(file, big);
    // an account of its own: the sender's third sign-in would open the feedback prompt over the form
    const resumer = await createUser(app, 'e2e.sealed.resumer@example.com', 'pro');
    await logIn(page, web.url, resumer.email);
    // two part PUTs reach storage; the rest hang, as on a line that dropped
    let parts = 0;
    await context.route(
      (url) => url.searchParams.has('partNumber') || url.searchParams.has('uploadId'),
      async (route) => {
        if (route.request().method() !== 'PUT') return route.continue();
        parts++;
        if (parts <= 2) return route.continue();
        await new Promise(() => undefined);
      },
    );
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByLabel('Get a link to share myself').check();
    await page.getByTestId('send-e2e').check();
    await page.getByTestId('send-submit').click();
    await expect
      .poll(() => parts, { timeout: 60_000 })
      .toBeGreaterThan(2)
      .catch((e: unknown) => {
        throw new Error(
          `${String(e)}\n${sent
            .filter((r) => r.startsWith('http'))
            .map((r) => r.split('\n')[0])
            .join('\n')}`,
        );
      });
    const checkpoints = await page.evaluate(() => localStorage.getItem('sendbridge.upload-checkpoints'));
    const kept = JSON.parse(checkpoints ?? '[]') as { e2eKey?: string; files: { e2e?: { salt: string } }[] }[];
    expect(kept).toHaveLength(1);
    expect(kept[0]!.e2eKey).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    // the page goes away with the upload half done; this browser keeps the checkpoint
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await page.goto(`${web.url}/dash`);
    await page.getByTestId('file-input').setInputFiles(file);
    await page.getByTestId('resume-button').click();
    await page.getByTestId('done-link').waitFor({ timeout: 120_000 });

    const link = new URL(await page.getByTestId('done-link').inputValue());
    const key = keyFromFragment(link.hash)!;
    expect(toBase64url(key)).toBe(kept[0]!.e2eKey);
    const records = await fileRecordsOf(app, link.pathname.split('/').pop()!);
    expect(records.map((r) => r.e2e?.salt)).toEqual([kept[0]!.files[0]!.e2e?.salt]);
    await expectSealedFiles(records, key, new Map([['footage.bin', big]]));
    expectNoSecretSent([toBase64url(key)]);
  }, 300_000);
});
