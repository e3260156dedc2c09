import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { readZip } from '../helpers/read-zip';
import { closeCleanContext, getFreePort, launchBrowser, newContext } from '../helpers/browser';
import { startTestApp, startTestWeb } from '../helpers/local-app';
import { guestSendInBrowser } from '../helpers/guest-send';
import { fileRecordsOf, randomData, sha256, waitForMail } from '../helpers/transfers';

/**
 * The core loop as a guest does it in Chromium: two files and a folder sent by email, the code
 * and then the link read from the local SES inbox, the recipient downloading each file and the
 * ZIP, every sha256 compared with what was picked.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let dir: string;
const sender = 'e2e.sender@example.com';
const recipient = 'e2e.recipient@example.com';

/** name as the recipient sees it (itemPath for folder files) -> bytes */
const files = new Map<string, Buffer>();

beforeAll(async () => {
  const port = await getFreePort();
  const origin = `http://127.0.0.1:${port}`;
  app = await startTestApp(origin);
  web = await startTestWeb(port, app);
  browser = await launchBrowser();

  dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-e2e-'));
  const put = (rel: string, data: Buffer) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), data);
    files.set(rel, data);
  };
  put('report.pdf', randomData(300 * 1024));
  // 52 MB: over the 50 MB threshold, so the browser uploads it by multipart.
  put('footage.mov', randomData(52 * 1000 * 1000));
  put('album/one.jpg', randomData(120 * 1024));
  put('album/two.jpg', randomData(80 * 1024));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function saved(download: Download): Promise<Buffer> {
  const target = path.join(dir, 'downloads', `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(target);
  return readFileSync(target);
}

async function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Map((await readZip(buf)).map((e) => [e.name, e.data]));
}

describe('a guest sends two files and a folder by email; the recipient downloads them', () => {
  let context: BrowserContext;
  let page: Page;
  let link: string;

  it('sends from the home page after verifying the emailed code', async () => {
    context = await newContext(browser);
    page = await context.newPage();
    await page.goto(`${web.url}/`);

    await page.getByTestId('file-input').setInputFiles([path.join(dir, 'report.pdf'), path.join(dir, 'footage.mov')]);
    await page.getByTestId('folder-input').setInputFiles(path.join(dir, 'album'));
    await page.getByText('one.jpg').first().waitFor();

    await guestSendInBrowser(page, app, { sender, recipient, message: 'Files for the review' });
    expect(await page.getByTestId('sent-to').textContent()).toContain(
      `The download email has been sent to ${recipient}`,
    );
    expect(await page.evaluate(() => window.localStorage.getItem('senderEmail'))).toContain(sender);

    const mail = await waitForMail(app, recipient, /\/downloads\/[A-Za-z0-9]{7}\/[A-Za-z0-9]{8}/);
    link = /(https?:\/\/\S+\/downloads\/[A-Za-z0-9]{7}\/[A-Za-z0-9]{8})/.exec(mail.body.text)![1]!;
    expect(link.startsWith(web.url)).toBe(true);
    expect(mail.body.text).toContain('Files for the review');
    // the browser computed each file's CRC-32 (the 52 MB one part by part) and the server kept it
    const records = await fileRecordsOf(app, /\/downloads\/([A-Za-z0-9]{7})\//.exec(link)![1]!);
    expect(new Map(records.map((r) => [r.itemPath ?? r.fileName, r.crc32]))).toEqual(
      new Map([...files].map(([rel, data]) => [rel, zlib.crc32(data)])),
    );
    await closeCleanContext(context);
  }, 300_000);

  it('the recipient downloads each file and the ZIP, and every sha256 matches', async () => {
    context = await newContext(browser);
    page = await context.newPage();
    await page.goto(link);
    await page.getByTestId('download-summary').waitFor();
    expect(await page.getByTestId('download-summary').textContent()).toContain('4');

    for (const [name, data] of files) {
      const button = page.locator(`[data-testid="download-file"][data-file-name="${path.basename(name)}"]`);
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), button.click()]);
      expect(download.suggestedFilename()).toBe(path.basename(name));
      expect(sha256(await saved(download)), name).toBe(sha256(data));
    }
    await page.getByTestId('download-started').waitFor();

    const [zipDownload] = await Promise.all([
      page.waitForEvent('download', { timeout: 90_000 }),
      page.getByTestId('download-all').click(),
    ]);
    expect(zipDownload.suggestedFilename()).toMatch(/\.zip$/);
    const entries = await unzip(await saved(zipDownload));
    expect([...entries.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [name, data] of files) expect(sha256(entries.get(name)!), `zip ${name}`).toBe(sha256(data));

    const notice = await waitForMail(app, sender, /e2e\.recipient@example\.com/);
    expect(notice.body.text).toContain(recipient);
    await closeCleanContext(context);
  }, 300_000);
});
