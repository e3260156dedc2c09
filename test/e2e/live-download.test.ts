import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { crc32Portable } from '../../functions/domain/crc32';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import {
  bearer,
  completeFile,
  completeTransfer,
  createUser,
  json,
  mailsTo,
  randomData,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

/**
 * A link that works while the upload runs (docs/decisions/0074), in Chromium on the built app:
 * the download page of a transfer still uploading shows its complete files and "1 of 3", updates
 * itself as the others arrive until every file and "Download all" are there; "Mail me when it's
 * complete" mails at the completion; a cancel turns the page into "withdrawn"; the send screen
 * shows a link send's link while its upload runs. The sender's side is driven through the API;
 * nothing waits a fixed time (expect.poll).
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let context: BrowserContext;
let page: Page;

const POLL = { timeout: 120_000, interval: 250 };

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  owner = await createUser(app, 'live.e2e@example.com', 'pro');
}, 300_000);
afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

const files = () => ({
  'first-cut.mov': randomData(6000),
  'second-cut.mov': randomData(7000),
  'third-cut.mov': randomData(8000),
});

async function createLink(contents: Record<string, Uint8Array>): Promise<CreateTransferResponse> {
  const fileObjects = Object.entries(contents).map(([fileName, d]) => ({ fileName, size: d.length }));
  const res = await api(app, '/me/transfers', json({ sendAs: 'link', fileObjects }, bearer(owner)));
  if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  return res.json as CreateTransferResponse;
}

async function uploadOne(t: CreateTransferResponse, name: string, data: Uint8Array): Promise<void> {
  const f = t.files.find((p) => p.fileName === name)!;
  const put = await fetch(f.url!, { method: 'PUT', body: data as unknown as BodyInit });
  if (!put.ok) throw new Error(`PUT ${put.status}`);
  const done = await completeFile(app, t, f.fileId, crc32Portable(data));
  if (done.status !== 200) throw new Error(`complete file ${done.status} ${done.text}`);
}

const linkPath = (t: CreateTransferResponse) => new URL(t.link).pathname;

describe('the download page of a transfer still uploading', () => {
  it('shows the complete file and 1 of 3, then updates itself to every file and "Download all"', async () => {
    const contents = files();
    const t = await createLink(contents);
    await uploadOne(t, 'first-cut.mov', contents['first-cut.mov']);

    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByTestId('download-live').waitFor();
    await expect.poll(() => page.getByTestId('download-live-progress').textContent(), POLL).toContain('1 of 3');
    expect(await page.getByTestId('download-live').textContent()).toContain('Still uploading');
    expect(await page.getByTestId('download-file').count()).toBe(1);
    expect(await page.getByText('first-cut.mov').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('download-all').count()).toBe(0);

    // "Mail me when it's complete"
    await page.getByTestId('notify-email').fill('waiting.viewer@example.com');
    await page.getByTestId('notify-submit').click();
    await page.getByTestId('notify-done').waitFor();

    await uploadOne(t, 'second-cut.mov', contents['second-cut.mov']);
    await uploadOne(t, 'third-cut.mov', contents['third-cut.mov']);
    const done = await completeTransfer(app, t);
    expect(done.status, done.text).toBe(200);

    await expect.poll(() => page.getByTestId('download-live').count(), POLL).toBe(0);
    await expect.poll(() => page.getByTestId('download-file').count(), POLL).toBe(3);
    await page.getByTestId('download-all').waitFor();
    const mail = await waitForMail(app, 'waiting.viewer@example.com', new RegExp(linkPath(t)));
    expect(mail.body.text).toContain('third-cut.mov');
    expect(await mailsTo(app, 'waiting.viewer@example.com')).toHaveLength(1);
  });

  it('says the transfer was withdrawn once its sender cancels the upload', async () => {
    const contents = files();
    const t = await createLink(contents);
    await uploadOne(t, 'first-cut.mov', contents['first-cut.mov']);
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByTestId('download-live').waitFor();

    const cancelled = await api(app, `/transfers/${t.id}/cancel`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    await page.getByTestId('download-withdrawn').waitFor({ timeout: POLL.timeout });
    expect(await page.getByTestId('download-withdrawn').textContent()).toBe(
      'The sender withdrew this transfer before it was complete.',
    );
    expect(await page.getByTestId('download-file').count()).toBe(0);
  });
});

describe('the send screen of a link send', () => {
  it('shows the link, with copy, while the upload runs', async () => {
    await logIn(page, web.url, owner.email);
    // the file's PUT to storage is held until the link has been seen: the upload is under way then
    const held: Route[] = [];
    await page.route(
      (url) => url.pathname.includes('/t/') && !url.pathname.startsWith('/api'),
      (route) => {
        if (route.request().method() === 'PUT') held.push(route);
        else void route.continue();
      },
    );
    await page.getByTestId('file-input').setInputFiles({
      name: 'rough-cut.mov',
      mimeType: 'video/quicktime',
      buffer: randomData(4000),
    });
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByLabel('Get a link to share myself').check();
    await page.getByTestId('send-submit').click();

    await page.getByTestId('live-link').waitFor();
    const link = await page.getByTestId('live-link-input').inputValue();
    expect(link).toMatch(/\/w\/[A-Za-z0-9]{7}$/u);
    await expect.poll(() => held.length, POLL).toBeGreaterThan(0);
    const during = await api(app, '/getDownload', json({ id: link.split('/').pop() }));
    expect(during.status, during.text).toBe(200);
    expect(during.json.upload).toMatchObject({ fileCount: 1, filesDone: 0 });

    for (const route of held.splice(0)) await route.continue();
    await page.getByTestId('done-link').waitFor({ timeout: POLL.timeout });
    expect(await page.getByTestId('done-link').inputValue()).toBe(link);
  });
});
