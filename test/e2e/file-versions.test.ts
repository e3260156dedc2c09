import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { DownloadView } from '../../functions/domain/transfer-api';
import type { LocalApp } from '../../scripts/local/app';
import { seriousAxeViolations } from '../helpers/browser';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { createUser, fetchBytes, json, sendFiles, sha256, type TestUser } from '../helpers/transfers';

/**
 * "Send a new version" in the TransferModal, in Chromium on the built app under its CSP: the
 * sender picks a file through the browser's file chooser for one file of a sent transfer, the
 * upload engine (loaded then) sends it, the file shows "v2" with its first version under it;
 * the download page then gives the new bytes. The modal stays accessible (axe) and fits 320 px.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let context: BrowserContext;
let page: Page;

const modal = () => page.getByRole('dialog');

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  owner = await createUser(app, 'versions.e2e@example.com', 'pro');
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

describe('Send a new version', () => {
  it('uploads v2 of a file from the modal; the modal shows v2 over v1, recipients get the new bytes', async () => {
    const t = await sendFiles(
      app,
      owner,
      new Map([
        ['poster.png', Buffer.alloc(3000, 1)],
        ['notes.txt', Buffer.from('first notes')],
      ]),
    );
    await logIn(page, web.url, owner.email);
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    await modal().getByTestId('transfer-files').first().waitFor();

    const poster = modal().getByTestId('transfer-file').filter({ hasText: 'poster.png' });
    const action = poster.getByRole('button', { name: 'Send a new version of poster.png' });
    const v2 = Buffer.from('the second poster, final');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), action.click()]);
    await chooser.setFiles({ name: 'poster-final.png', mimeType: 'image/png', buffer: v2 });
    await modal()
      .getByTestId('new-version-notice')
      .getByText('Version 2 of poster-final.png is uploaded.', { exact: false })
      .waitFor({ timeout: 60_000 });

    const current = modal().getByTestId('transfer-file').filter({ hasText: 'poster-final.png' });
    expect(await current.getByTestId('transfer-file-version').textContent()).toBe('v2');
    expect(await current.getByTestId('transfer-file-older').textContent()).toContain('poster.png');
    expect(await modal().getByTestId('transfer-file').count()).toBe(2);

    // the sender's modal with versions: no serious axe violation, nothing wider than a 320 px phone
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 700 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
      .toBeLessThanOrEqual(0);

    // recipients: the page lists the new version only, and its bytes are the new ones
    const view = (await api(app, '/getDownload', json({ id: t.id }))).json as DownloadView;
    expect(view.files.map((f) => f.fileName).sort()).toEqual(['notes.txt', 'poster-final.png']);
    const file = view.files.find((f) => f.fileName === 'poster-final.png')!;
    expect(file.version).toBe(2);
    // the malware scan of the new version runs first
    await app.gateway.idle();
    const got = await api(app, '/getDownload/file', json({ id: t.id, fileId: file.fileId }));
    expect(got.status, got.text).toBe(200);
    expect(sha256((await fetchBytes(got.json.url as string)).bytes)).toBe(sha256(v2));
  });
});
