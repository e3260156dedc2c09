import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyFragment, keyFromPassphrase, newTransferKey, toBase64url } from '@domain/e2e-format';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { localS3Client } from '../../scripts/local/s3';
import { getFreePort, launchBrowser, newContext, seriousAxeViolations } from '../helpers/browser';
import { closePage } from '../helpers/browser-stack';
import { api, stackBuckets, startTestApp, startTestWeb } from '../helpers/local-app';
import { recordWebm } from '../helpers/record-webm';
import { sendSealed, type Fixture, type Sealed } from '../helpers/sealed-transfers';
import { tinyPdf } from '../helpers/tiny-pdf';
import { createUser, fileRecordOf, json, randomData, sha256, type TestUser } from '../helpers/transfers';

/**
 * The recipient's page of an end-to-end encrypted transfer, in Chromium on the built app under
 * its CSP. The transfers are sealed here with the format's reference module, as the send form
 * and the CLI seal them, and uploaded through the API with the sender's sealed thumbnails; the
 * page opens them with the key from the link's fragment or a passphrase: decrypted previews,
 * each file and the ZIP saved SHA-256-equal through the download worker, a wrong or missing key
 * and a wrong passphrase refused before anything downloads, a changed stored byte failing the
 * download with the tamper message and no finished file, and the key in no request.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let s3: S3Client;
let bucket: string;
let context: BrowserContext | undefined;
let scratch: string;

const MiB = 1024 * 1024;

let photo: Fixture;
let pdf: Fixture;
let video: Fixture;

/** Seals and uploads `files` as an encrypted send by link, or by passphrase when given. */
const sealedSend = (files: readonly Fixture[], passphrase?: string) => sendSealed(app, owner, files, passphrase);

/** A page whose every request is kept, to prove none of them carries the key. */
async function openPage(options: Parameters<typeof newContext>[1] = {}): Promise<{ page: Page; requests: string[] }> {
  context = await newContext(browser, options);
  const page = await context.newPage();
  const requests: string[] = [];
  context.on('request', (request) => {
    requests.push(`${request.url()} ${request.postData() ?? ''} ${JSON.stringify(request.headers())}`);
  });
  return { page, requests };
}

async function saved(download: Download): Promise<Buffer> {
  const file = await download.path();
  return readFileSync(file);
}

async function downloadOf(page: Page, fileName: string): Promise<Download> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.locator(`[data-testid="download-file"][data-file-name="${fileName}"]`).click(),
  ]);
  return download;
}

async function expectNoSeriousAxe(page: Page): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

beforeAll(async () => {
  const port = await getFreePort();
  app = await startTestApp(`http://127.0.0.1:${port}`);
  web = await startTestWeb(port, app);
  browser = await launchBrowser(['--autoplay-policy=no-user-gesture-required']);
  owner = await createUser(app, 'e2e.sealed.recipient@example.com');
  s3 = localS3Client(app.stack.urls.s3);
  bucket = stackBuckets(app.stack).bucket;
  scratch = mkdtempSync(path.join(tmpdir(), 'sealed-download-'));
  const jpeg = await sharp(Buffer.from(Array.from({ length: 900 * 600 * 3 }, (_, i) => (i * 31) % 256)), {
    raw: { width: 900, height: 600, channels: 3 },
  })
    .jpeg()
    .toBuffer();
  const webp = (input: Buffer | { width: number; height: number }) =>
    (Buffer.isBuffer(input)
      ? sharp(input).resize(400, 400, { fit: 'inside' })
      : sharp({ create: { ...input, channels: 3, background: '#4a6' } })
    )
      .webp()
      .toBuffer();
  photo = { fileName: 'holiday.jpg', itemPath: 'trip/holiday.jpg', bytes: jpeg, thumbnail: await webp(jpeg) };
  pdf = { fileName: 'plan.pdf', bytes: tinyPdf(), thumbnail: await webp({ width: 200, height: 200 }) };
  video = {
    fileName: 'clip.webm',
    bytes: await recordWebm(browser, 'video'),
    thumbnail: await webp({ width: 320, height: 240 }),
  };
}, 300_000);

afterEach(async () => {
  await closePage(context);
  context = undefined;
});

afterAll(async () => {
  s3?.destroy();
  await browser?.close();
  await web?.close();
  await app?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('an end-to-end encrypted transfer by link', () => {
  let sent: Sealed;

  beforeAll(async () => {
    sent = await sealedSend([photo, pdf, video]);
  }, 120_000);

  it('shows the decrypted previews: the thumbnails, the photo and the PDF in the viewer, the video playing', async () => {
    const { page, requests } = await openPage();
    await page.goto(`${web.url}${sent.path}#${keyFragment(sent.key)}`);
    await expect(page.getByTestId('sealed-notice').textContent()).resolves.toMatch(/not scanned for malware/);
    // the unscanned mark is the notice's, not a warning on every file
    expect(await page.getByTestId('download-file-note').count()).toBe(0);
    expect(await page.getByTestId('sealed-preview-limit').textContent()).toContain('256 MB');

    await page.waitForFunction(
      () => {
        const thumbs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="preview-thumbnail"]')];
        return thumbs.length === 2 && thumbs.every((img) => img.complete && img.naturalWidth > 0);
      },
      undefined,
      { polling: 100, timeout: 60_000 },
    );
    const thumb = await page
      .locator('[data-testid="preview-tile"][data-file-name="holiday.jpg"] [data-testid="preview-thumbnail"]')
      .evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, src: img.src }));
    expect(thumb.width).toBe(400);
    expect(thumb.src).toMatch(/^blob:/);

    await page
      .locator('[data-testid="preview-tile"][data-file-name="holiday.jpg"] [data-testid="preview-open"]')
      .click();
    const full = page.getByTestId('preview-full-image');
    await full.waitFor();
    await page.waitForFunction(
      () => (document.querySelector<HTMLImageElement>('[data-testid="preview-full-image"]')?.naturalWidth ?? 0) > 0,
    );
    expect(await full.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(900);
    await page.getByTestId('preview-close').click();

    await page.locator('[data-testid="preview-tile"][data-file-name="plan.pdf"] [data-testid="preview-open"]').click();
    const frame = page.getByTestId('preview-pdf');
    await frame.waitFor();
    const pdfDigest = await frame.evaluate(async (el: HTMLIFrameElement) => {
      const bytes = await (await fetch(el.src)).arrayBuffer();
      const digest = await crypto.subtle.digest('SHA-256', bytes);
      return { src: el.src, hex: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('') };
    });
    expect(pdfDigest.src).toMatch(/^blob:/);
    expect(pdfDigest.hex).toBe(sha256(pdf.bytes));
    await page.getByTestId('preview-close').click();

    await page.locator('[data-testid="sealed-player"][data-file-name="clip.webm"] [data-testid="sealed-play"]').click();
    const player = page.locator('[data-testid="preview-player"][data-file-name="clip.webm"] video');
    await player.waitFor();
    await page.waitForFunction(
      () => (document.querySelector<HTMLVideoElement>('[data-testid="preview-player"] video')?.readyState ?? 0) >= 1,
    );
    const media = await player.evaluate((v: HTMLVideoElement) => ({ src: v.src, width: v.videoWidth }));
    expect(media.src).toMatch(/^blob:/);
    expect(media.width).toBeGreaterThan(0);

    await expectNoSeriousAxe(page);
    // the key is in the address bar as it came, and in no request the page made
    expect(new URL(page.url()).hash).toBe(`#${keyFragment(sent.key)}`);
    const encoded = toBase64url(sent.key);
    expect(requests.filter((r) => r.includes(encoded))).toEqual([]);
  });

  it('saves each file decrypted, SHA-256-equal to what was sent', async () => {
    const { page, requests } = await openPage();
    await page.goto(`${web.url}${sent.path}#${keyFragment(sent.key)}`);
    for (const f of [photo, pdf, video]) {
      const download = await downloadOf(page, f.fileName);
      expect(download.suggestedFilename()).toBe(f.fileName);
      expect(sha256(await saved(download))).toBe(sha256(f.bytes));
    }
    await page.getByTestId('download-started').waitFor();
    expect(requests.filter((r) => r.includes(toBase64url(sent.key)))).toEqual([]);
  });

  it('"Download all" builds the ZIP here: every entry SHA-256-equal, the folders kept', async () => {
    const { page } = await openPage();
    await page.goto(`${web.url}${sent.path}#${keyFragment(sent.key)}`);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('download-all').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`SendBridge-${sent.t.id}.zip`);
    const zip = path.join(scratch, 'all.zip');
    await download.saveAs(zip);
    const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(names).toEqual(['clip.webm', 'plan.pdf', 'trip/holiday.jpg']);
    for (const f of [photo, pdf, video]) {
      const entry = execFileSync('unzip', ['-p', zip, f.itemPath ?? f.fileName], { maxBuffer: 64 * MiB });
      expect(sha256(entry), f.fileName).toBe(sha256(f.bytes));
    }
    // the archive's own checks (CRC-32 of every entry) pass too
    expect(execFileSync('unzip', ['-tq', zip], { encoding: 'utf8' })).toMatch(/No errors detected/);
  });

  it('a link without its key, or with a damaged or wrong one, says so and offers nothing to download', async () => {
    const { page } = await openPage();
    const cases: [string, RegExp][] = [
      ['', /missing its key/],
      ['#k=not-a-key', /key is damaged/],
      [`#${keyFragment(newTransferKey())}`, /key is damaged/],
    ];
    for (const [hash, text] of cases) {
      await page.goto(`${web.url}${sent.path}${hash}`);
      const problem = page.getByTestId('sealed-key-problem');
      await problem.waitFor();
      expect(await problem.textContent(), hash).toMatch(text);
      expect(await page.getByTestId('download-file').count()).toBe(0);
      expect(await page.getByTestId('previews').count()).toBe(0);
    }
    await expectNoSeriousAxe(page);
  });
});

describe('an end-to-end encrypted transfer by passphrase', () => {
  const passphrase = 'correct horse battery staple';

  it('a wrong passphrase does not open it; the right one does, and the file saves whole', async () => {
    const sent = await sealedSend([pdf], passphrase);
    const { page, requests } = await openPage();
    await page.goto(`${web.url}${sent.path}`);
    const field = page.getByTestId('sealed-passphrase');
    await field.waitFor();
    await expectNoSeriousAxe(page);

    await field.fill('incorrect horse');
    await page.getByTestId('sealed-open').click();
    const error = page.getByTestId('sealed-passphrase-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('This passphrase does not open the transfer.');
    expect(await page.getByTestId('download-file').count()).toBe(0);

    await field.fill(passphrase);
    await page.getByTestId('sealed-open').click();
    await page.getByTestId('sealed-notice').waitFor();
    expect(await page.getByTestId('sealed-notice').textContent()).toMatch(/with the passphrase/);
    const download = await downloadOf(page, 'plan.pdf');
    expect(sha256(await saved(download))).toBe(sha256(pdf.bytes));
    // neither the passphrase nor the key it gives is in any request
    const key = toBase64url(await keyFromPassphrase(passphrase, (await viewOf(sent.t.id)).kdf));
    expect(requests.filter((r) => r.includes(key) || r.includes(encodeURIComponent(passphrase)))).toEqual([]);
    expect(requests.filter((r) => r.includes(passphrase))).toEqual([]);
  });
});

async function viewOf(id: string) {
  const res = await api(app, '/getDownload', json({ id }));
  return (res.json as { e2e: { kdf: Parameters<typeof keyFromPassphrase>[1] } }).e2e;
}

describe('a stored object changed after it was sent', () => {
  it('fails the download with the tamper message, and no finished file is saved', async () => {
    const big: Fixture = { fileName: 'data.bin', bytes: randomData(3 * MiB + 4321) };
    const sent = await sealedSend([big, pdf]);
    const record = await fileRecordOf(app, sent.t.id, sent.t.files.find((f) => f.fileName === 'data.bin')!.fileId);
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: record!.key }));
    const raw = Buffer.from(await out.Body!.transformToByteArray());
    // a byte of the third chunk: the download is under way when it is met
    raw[2 * (MiB + 16) + 99] = (raw[2 * (MiB + 16) + 99] ?? 0) ^ 0x01;
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: record!.key, Body: raw }));

    const { page } = await openPage();
    await page.goto(`${web.url}${sent.path}#${keyFragment(sent.key)}`);
    const download = await downloadOf(page, 'data.bin');
    expect(await download.failure()).not.toBeNull();
    await expect(download.path()).rejects.toThrow();
    const error = page.getByTestId('download-action-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^This file was changed after it was sent/);
    await expectNoSeriousAxe(page);

    // the ZIP of a transfer with that file fails alike
    const [zip] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('download-all').click(),
    ]);
    expect(await zip.failure()).not.toBeNull();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="download-action-error"]')?.textContent?.includes('changed after'),
    );
  });
});

describe('a browser where no download worker can run', () => {
  it('saves a file from memory, whole, and saves nothing of a changed one', async () => {
    const big: Fixture = { fileName: 'data.bin', bytes: randomData(2 * MiB + 777) };
    const sent = await sealedSend([big, pdf]);
    // no service worker, and no File System Access API (as in Firefox or Safari)
    const { page } = await openPage();
    await page.addInitScript(() => {
      delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker;
      delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    });
    await page.goto(`${web.url}${sent.path}#${keyFragment(sent.key)}`);
    const download = await downloadOf(page, 'data.bin');
    expect(download.url()).toMatch(/^blob:/);
    expect(sha256(await saved(download))).toBe(sha256(big.bytes));

    const record = await fileRecordOf(app, sent.t.id, sent.t.files.find((f) => f.fileName === 'data.bin')!.fileId);
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: record!.key }));
    const raw = Buffer.from(await out.Body!.transformToByteArray());
    raw[MiB + 16 + 5] = (raw[MiB + 16 + 5] ?? 0) ^ 0x01;
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: record!.key, Body: raw }));
    const downloads: Download[] = [];
    page.on('download', (d) => downloads.push(d));
    await page.locator('[data-testid="download-file"][data-file-name="data.bin"]').click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="download-action-error"]')?.textContent?.startsWith('This file was changed'),
    );
    // the file was opened in memory and refused there: the browser was handed nothing to save
    expect(downloads).toEqual([]);
  });
});
