import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn as logInAt, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { createUser, downloadFrom as downloadFromAt, sendFiles, type TestUser } from '../helpers/transfers';

/**
 * The live notifications in Chromium: a sender sits on /dash; a recipient elsewhere
 * downloads (CloudFront's country header says Germany); without a reload the bell's badge
 * shows it within 30 s, its panel names Germany, the item opens the TransferModal's address,
 * and the analytics screen counts the download under Germany.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let context: BrowserContext;
let page: Page;

const sendLink = (user: TestUser, name: string): Promise<CreateTransferResponse> =>
  sendFiles(app, user, new Map([[name, Buffer.alloc(4096, 5)]]));
/** A recipient's download of the transfer's first file, as CloudFront would forward it. */
const downloadFrom = (t: CreateTransferResponse, country: string) => downloadFromAt(app, t, country);

const logIn = (p: Page, email: string) => logInAt(p, web.url, email);

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  owner = await createUser(app, 'bell.owner@example.com', 'pro');
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

describe('download notifications', () => {
  it('a download from Germany reaches the open dashboard without a reload, opens its transfer and counts in analytics', async () => {
    const t = await sendLink(owner, 'site-survey.pdf');
    await logIn(page, owner.email);
    const bell = page.getByRole('button', { name: 'Notifications', exact: true });
    await bell.waitFor();
    expect(await page.getByTestId('bell-badge').count()).toBe(0);
    let loads = 0;
    page.on('load', () => (loads += 1));

    await downloadFrom(t, 'DE');
    const badge = page.getByTestId('bell-badge');
    await badge.waitFor({ timeout: 30_000 });
    expect(await badge.textContent()).toBe('1');
    expect(loads).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/dash');

    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.waitFor();
    const item = panel.getByTestId('bell-item');
    // the list loads when the panel first opens
    await item.first().waitFor();
    expect(await item.count()).toBe(1);
    expect(await item.getByTestId('bell-item-country').textContent()).toBe('Germany');
    expect(await item.textContent()).toContain('site-survey.pdf');

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await bell.evaluate((el) => el === document.activeElement)).toBe(true);

    await bell.click();
    await page.getByTestId('bell-item').click();
    await page.waitForURL((u) => u.pathname === `/dash/transfers/${t.id}`);
    // Opened means read: the badge goes.
    await badge.waitFor({ state: 'detached' });
    expect(loads).toBe(0);

    // The TransferModal covers the tabs; the analytics screen by its address.
    await page.goto(`${web.url}/dash/analytics`);
    const countries = page.getByTestId('analytics-countries');
    await countries.waitFor();
    expect(await countries.getByRole('row', { name: /Germany/ }).count()).toBe(1);
    expect(await page.getByTestId('analytics-total').textContent()).toBe('1');
    expect(await page.getByTestId('analytics-map').getAttribute('role')).toBe('img');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('analytics-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^sendbridge-downloads-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('Date (UTC),Transfer,File,Downloaded as,Country,Country code,Recipient,Receipts');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,${t.id},site-survey\\.pdf,File,Germany,DE,,${web.url}/dash/transfers/${t.id}#receipts$`,
      ),
    );
  });

  it("What's new counts the entries since this user last opened it, and opening resets the count", async () => {
    const user = await createUser(app, 'whats.new@example.com', 'pro');
    const entries = (await api(app, '/canny/changelog')).json as { entries: unknown[] };
    await logIn(page, user.email);
    const count = page.getByTestId('whats-new-count');
    await count.waitFor();
    expect(await count.textContent()).toBe(entries.entries.length > 9 ? '9+' : String(entries.entries.length));
    await page.getByTestId('whats-new').click();
    const panel = page.getByRole('dialog', { name: "What's new" });
    await panel.waitFor();
    expect(await panel.getByTestId('changelog-entry').count()).toBe(entries.entries.length);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await count.count()).toBe(0);
    const changelog = page.waitForResponse((r) => r.url().endsWith('/canny/changelog'));
    await page.reload();
    await changelog;
    await page.getByTestId('whats-new').waitFor();
    // Two frames after the answer: the count would have rendered by now.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.getByTestId('whats-new-count').count()).toBe(0);
  });

  it("'Clear all alerts' empties the panel: You're up to date", async () => {
    const t = await sendLink(owner, 'clear-me.txt');
    await downloadFrom(t, 'FR');
    await logIn(page, owner.email);
    const bell = page.getByRole('button', { name: 'Notifications', exact: true });
    await page.getByTestId('bell-badge').waitFor();
    await bell.click();
    await page.getByTestId('bell-clear').click();
    const empty = page.getByTestId('bell-empty');
    await empty.waitFor();
    expect(await empty.textContent()).toBe("You're up to dateNo new notifications");
    expect(await page.getByTestId('bell-badge').count()).toBe(0);
  });
});
