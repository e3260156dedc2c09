import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { BrowserContext, Download, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateApiKeyResponse } from '../../functions/domain/api-keys';
import {
  cipherSizeOf,
  fileKeyOf,
  keyFromFragment,
  keyFromPassphrase,
  openingStream,
} from '../../functions/domain/e2e-format';
import type { FileRecord } from '../../functions/data/transfers';
import { main as cliMain } from '../../packages/cli/src/main';
import { localS3Client } from '../../scripts/local/s3';
import {
  closePage,
  logIn,
  openPage,
  startBrowserStack,
  stopBrowserStack,
  type BrowserStack,
} from '../helpers/browser-stack';
import { LeakWatch, type Secret } from '../helpers/leak-watch';
import { api, stackBuckets } from '../helpers/local-app';
import { recordWebm } from '../helpers/record-webm';
import {
  bearer,
  createUser,
  fileRecordsOf,
  json,
  mailsTo,
  randomData,
  sha256,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

/**
 * End-to-end encryption tried as a new user would, as one story in Chromium on the built app
 * under its CSP, with the CLI beside it: a pro user sends a folder (an image, a PDF, a video)
 * encrypted by link from the send form; the bucket holds ciphertext; the recipient's page shows
 * the decrypted previews and saves every file and the browser-built ZIP SHA-256-equal; the same
 * link downloads with `sendbridge get`; a CLI-encrypted send opens in the browser; one flipped
 * stored byte fails the download with the tamper message; and an email send under a passphrase
 * opens with it. Every request both browsers and the CLI sent, every mail and every log line of
 * the run is searched for the keys and the passphrase.
 */
let stack: BrowserStack;
let sender: TestUser;
let apiKey: string;
let s3: S3Client;
let bucket: string;
let work: string;
let context: BrowserContext | undefined;
const watch = new LeakWatch();
/** every key and passphrase the story used, to be found nowhere */
const secrets: Secret[] = [];

const MiB = 1024 * 1024;
/** relative path in the picked folder -> bytes */
const album = new Map<string, Buffer>();

async function reportPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const first = doc.addPage([595, 842]);
  first.drawRectangle({ x: 40, y: 600, width: 300, height: 200, color: rgb(0.8, 0.3, 0.1) });
  first.drawText('Board pack, sealed', { x: 50, y: 560, size: 24, font });
  doc.addPage([595, 842]).drawText('Appendix', { x: 50, y: 700, size: 18, font });
  return Buffer.from(await doc.save());
}

/** The CLI in this process, its requests kept for the leak check. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const body = init?.body;
    watch.add(`CLI ${init?.method ?? 'GET'} ${url.slice(0, 120)}`, `${url}\n${JSON.stringify(init?.headers ?? {})}`);
    if (typeof body === 'string') watch.add(`CLI body of ${url.slice(0, 120)}`, body);
    else if (body instanceof Uint8Array)
      watch.add(`CLI body of ${url.slice(0, 120)}`, Buffer.from(body).toString('latin1'));
    return realFetch(input, init);
  }) as typeof fetch;
  try {
    const code = await cliMain([...args, '--api', stack.app.apiOrigin], {
      stdin: Readable.from([]),
      stdout,
      stderr,
      env: { SENDBRIDGE_API_KEY: apiKey, SENDBRIDGE_CONFIG_DIR: path.join(work, 'cli-config'), ...env },
      cwd: work,
    });
    return { code, stdout: out, stderr: err };
  } finally {
    globalThis.fetch = realFetch;
  }
}

/** A new browser context whose every request is watched. */
async function watchedPage(): Promise<Page> {
  const opened = await openPage(stack.browser);
  context = opened.context;
  watch.watchBrowser(context);
  return opened.page;
}

async function stored(key: string): Promise<Buffer> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

async function opened(sealed: Buffer, key: Uint8Array, record: FileRecord): Promise<Buffer> {
  const source = new Blob([sealed as BlobPart])
    .stream()
    .pipeThrough(openingStream(await fileKeyOf(key, record.e2e!.salt), record.e2e!.plainSize));
  const parts: Uint8Array[] = [];
  for await (const p of source as unknown as AsyncIterable<Uint8Array>) parts.push(p);
  return Buffer.concat(parts);
}

async function downloadOf(page: Page, fileName: string): Promise<Download> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.locator(`[data-testid="download-file"][data-file-name="${fileName}"]`).click(),
  ]);
  return download;
}

/** Files under `dir` by their path relative to it. */
function filesUnder(dir: string, prefix = ''): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) for (const [k, v] of filesUnder(full, rel)) found.set(k, v);
    else found.set(rel, readFileSync(full));
  }
  return found;
}

beforeAll(async () => {
  stack = await startBrowserStack();
  sender = await createUser(stack.app, 'story.sealed.sender@example.com', 'pro');
  const made = await api(
    stack.app,
    '/me/api-keys',
    json({ name: 'cli', scopes: ['send', 'transfers:read'] }, bearer(sender)),
  );
  expect(made.status, made.text).toBe(201);
  apiKey = (made.json as CreateApiKeyResponse).key;
  s3 = localS3Client(stack.app.stack.urls.s3);
  bucket = stackBuckets(stack.app.stack).bucket;
  work = mkdtempSync(path.join(tmpdir(), 'sendbridge-e2e-story-'));
  // noise does not compress: a photo of a few MiB, so its sealed object is several chunks
  const noise = randomData(1600 * 1200 * 3);
  album.set(
    'board/photo.jpg',
    await sharp(noise, { raw: { width: 1600, height: 1200, channels: 3 } })
      .jpeg()
      .toBuffer(),
  );
  album.set('board/pack.pdf', await reportPdf());
  album.set('board/clip.webm', await recordWebm(stack.browser, 'video', 2500));
  for (const [rel, data] of album) {
    mkdirSync(path.dirname(path.join(work, 'picked', rel)), { recursive: true });
    writeFileSync(path.join(work, 'picked', rel), data);
  }
  watch.watchLogs();
}, 300_000);

afterEach(async () => {
  await closePage(context);
  context = undefined;
});

afterAll(async () => {
  await watch.stop();
  s3?.destroy();
  await stopBrowserStack(stack);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('end-to-end encryption, tried as a new user would', () => {
  let link: URL;
  let key: Uint8Array;
  let records: FileRecord[];

  it('a pro user sends a folder with an image, a PDF and a video end-to-end encrypted by link; the bucket holds ciphertext', async () => {
    const page = await watchedPage();
    await logIn(page, stack.web.url, sender.email);
    await page.getByTestId('folder-input').setInputFiles(path.join(work, 'picked', 'board'));
    await page.getByText('clip.webm').first().waitFor();
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByLabel('Get a link to share myself').check();
    await page.getByTestId('send-e2e').check();
    await page.getByTestId('send-submit').click();
    await page.getByTestId('done-link').waitFor({ timeout: 180_000 });
    link = new URL(await page.getByTestId('done-link').inputValue());
    key = keyFromFragment(link.hash)!;
    expect(key, link.href).not.toBeNull();
    secrets.push({ label: 'the link key', bytes: key });

    // the dashboard of the browser it was sent from copies the whole link again; the server never had the key
    await page.goto(`${stack.web.url}/dash/transfers/${link.pathname.split('/')[2]}`);
    await page.getByTestId('transfer-e2e').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('transfer-e2e').textContent()).toContain("this browser kept the link's key");
    expect(await page.getByTestId('transfer-link').inputValue()).toBe(link.href);

    records = await fileRecordsOf(stack.app, link.pathname.split('/').pop()!);
    expect(records.map((r) => r.itemPath ?? r.fileName).sort()).toEqual([...album.keys()].sort());
    for (const record of records) {
      const name = record.itemPath ?? record.fileName;
      const plain = album.get(name)!;
      // read raw from the bucket: the sealed size, no run of the plaintext, and it opens to the picked bytes
      const raw = await stored(record.key);
      expect(raw.length, name).toBe(cipherSizeOf(plain.length));
      expect(raw.includes(plain.subarray(0, 64)), name).toBe(false);
      expect(raw.includes(plain.subarray(plain.length - 64)), name).toBe(false);
      expect(sha256(await opened(raw, key, record)), name).toBe(sha256(plain));
    }
  }, 300_000);

  it("the recipient's page shows the decrypted previews and saves every file and the ZIP SHA-256-equal", async () => {
    const page = await watchedPage();
    await page.goto(link.href);
    await page.getByTestId('sealed-notice').waitFor({ timeout: 60_000 });
    // the sender's browser made a thumbnail of each of the three; this one decrypts and shows them
    await page.waitForFunction(
      () => {
        const thumbs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="preview-thumbnail"]')];
        return thumbs.length >= 2 && thumbs.every((img) => img.complete && img.naturalWidth > 0);
      },
      undefined,
      { polling: 100, timeout: 60_000 },
    );
    const photo = await page
      .locator('[data-testid="preview-tile"][data-file-name="photo.jpg"] [data-testid="preview-thumbnail"]')
      .evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, src: img.src }));
    expect(photo.src).toMatch(/^blob:/u);
    expect(photo.width).toBe(400);

    for (const [rel, bytes] of album) {
      const name = path.basename(rel);
      const download = await downloadOf(page, name);
      expect(download.suggestedFilename()).toBe(name);
      expect(sha256(readFileSync(await download.path())), name).toBe(sha256(bytes));
    }

    const [zipped] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.getByTestId('download-all').click(),
    ]);
    const zip = path.join(work, 'all.zip');
    await zipped.saveAs(zip);
    expect(execFileSync('unzip', ['-tq', zip], { encoding: 'utf8' })).toMatch(/No errors detected/u);
    const entries = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(entries).toEqual([...album.keys()].sort());
    for (const [rel, bytes] of album) {
      expect(sha256(execFileSync('unzip', ['-p', zip, rel], { maxBuffer: 64 * MiB })), rel).toBe(sha256(bytes));
    }
  }, 300_000);

  it('the same transfer downloads with sendbridge get, SHA-256-equal', async () => {
    const out = path.join(work, 'got');
    const run = await cli(['get', link.href, '-o', out]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const got = filesUnder(out);
    expect([...got.keys()].sort()).toEqual([...album.keys()].sort());
    for (const [rel, bytes] of album) expect(sha256(got.get(rel)!), rel).toBe(sha256(bytes));
  }, 300_000);

  it('a CLI-encrypted send opens in the browser', async () => {
    const folder = path.join(work, 'from-cli');
    mkdirSync(path.join(folder, 'raw'), { recursive: true });
    const sent = new Map<string, Buffer>([
      ['notes.txt', randomData(2_000)],
      ['raw/frames.bin', randomData(7 * MiB + 333)],
    ]);
    for (const [rel, bytes] of sent) writeFileSync(path.join(folder, rel), bytes);
    const run = await cli(['send', 'from-cli', '--link', '--e2e', '--json']);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const done = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { link: string };
    const cliKey = keyFromFragment(new URL(done.link).hash);
    expect(cliKey, done.link).not.toBeNull();
    secrets.push({ label: "the CLI send's key", bytes: cliKey! });

    const page = await watchedPage();
    await page.goto(done.link);
    await page.getByTestId('sealed-notice').waitFor({ timeout: 60_000 });
    for (const [rel, bytes] of sent) {
      const download = await downloadOf(page, path.basename(rel));
      expect(sha256(readFileSync(await download.path())), rel).toBe(sha256(bytes));
    }
  }, 300_000);

  it('one flipped byte of a stored object fails the download with the tamper message, and nothing is saved', async () => {
    const record = records.find((r) => r.fileName === 'photo.jpg')!;
    const raw = await stored(record.key);
    // a byte of the second chunk: the download is under way when it is met
    const at = MiB + 16 + 100;
    expect(raw.length).toBeGreaterThan(at);
    raw[at] = (raw[at] ?? 0) ^ 0x40;
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: record.key, Body: raw }));

    const page = await watchedPage();
    await page.goto(link.href);
    await page.getByTestId('sealed-notice').waitFor({ timeout: 60_000 });
    const download = await downloadOf(page, 'photo.jpg');
    expect(await download.failure()).not.toBeNull();
    await expect(download.path()).rejects.toThrow();
    const error = page.getByTestId('download-action-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^This file was changed after it was sent/u);

    // the CLI refuses it alike and leaves no file
    const out = path.join(work, 'tampered');
    const run = await cli(['get', link.href, '-o', out]);
    expect(run.code).not.toBe(0);
    expect(run.stderr + run.stdout).toContain('This file was changed after it was sent');
    expect([...filesUnder(out).keys()].filter((f) => f.includes('photo.jpg'))).toEqual([]);
  }, 300_000);

  it('by email with a passphrase: the mail says one is needed, the recipient opens it with the passphrase', async () => {
    const recipient = 'story.sealed.reader@example.com';
    const passphrase = 'vivid meadow quartz lantern';
    const notes = randomData(30_000);
    const page = await watchedPage();
    await logIn(page, stack.web.url, sender.email);
    await page.getByTestId('file-input').setInputFiles({ name: 'minutes.txt', mimeType: 'text/plain', buffer: notes });
    await page.getByTestId('recipients-input').fill(recipient);
    await page.getByTestId('recipients-input').press('Enter');
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByTestId('send-e2e').check();
    await page.getByTestId('send-e2e-passphrase').fill(passphrase);
    await page.getByTestId('send-e2e-confirm').fill(passphrase);
    await page.getByTestId('send-submit').click();
    await page.getByTestId('sent-to').waitFor({ timeout: 120_000 });

    const mail = await waitForMail(stack.app, recipient, /passphrase/u);
    expect(mail.body.text).toContain('end-to-end encrypted');
    const mailed = /https?:\/\/\S+\/downloads\/\S+/u.exec(mail.body.text)![0];

    await closePage(context);
    const reader = await watchedPage();
    await reader.goto(mailed);
    await reader.getByTestId('sealed-passphrase').fill(passphrase);
    await reader.getByTestId('sealed-open').click();
    await reader.getByTestId('sealed-notice').waitFor({ timeout: 60_000 });
    const download = await downloadOf(reader, 'minutes.txt');
    expect(sha256(readFileSync(await download.path()))).toBe(sha256(notes));

    const view = await api(stack.app, '/getDownload', json({ id: /\/downloads\/([A-Za-z0-9]+)/u.exec(mailed)![1] }));
    const kdf = (view.json as { e2e: { kdf: Parameters<typeof keyFromPassphrase>[1] } }).e2e.kdf;
    secrets.push(
      { label: 'the passphrase', text: passphrase },
      { label: 'the passphrase key', bytes: await keyFromPassphrase(passphrase, kdf) },
    );
  }, 300_000);

  it('no request the browsers or the CLI sent, no mail and no log line carried a key or the passphrase', async () => {
    await closePage(context);
    context = undefined;
    for (const to of ['story.sealed.reader@example.com', sender.email]) {
      for (const m of await mailsTo(stack.app, to))
        watch.add(`mail to ${to}: ${m.subject}`, `${m.subject}\n${m.body.text}\n${m.body.html}`);
    }
    await watch.stop();
    expect(secrets.map((s) => s.label)).toEqual([
      'the link key',
      "the CLI send's key",
      'the passphrase',
      'the passphrase key',
    ]);
    // the watch saw the story: hundreds of requests, the uploads' bodies, the mails and the logs
    expect(watch.requests).toBeGreaterThan(50);
    expect(watch.logLines).toBeGreaterThan(0);
    expect(watch.leaksOf([{ label: 'a file name', text: 'minutes.txt' }]).length).toBeGreaterThan(0);
    expect(watch.leaksOf(secrets)).toEqual([]);
  });
});
