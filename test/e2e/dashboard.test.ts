import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn as logInAt, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { bearer, createUser, downloadFrom, json, sendFiles, waitForMail, type TestUser } from '../helpers/transfers';
// GET /me answers every transfer setting, defaults filled
import { DEFAULT_TRANSFER_SETTINGS } from '../../functions/domain/auth-api';

/**
 * The transfers screens in Chromium on the built app under its CSP: a signed-in sender
 * finds a sent transfer on /dash/transfers, opens its TransferModal by address and by click,
 * sees a recipient's download from Germany (CloudFront's country header) with who made it,
 * adds a file through the browser's file chooser, forwards it as a new link that joins the
 * list, and deletes it, after which its link answers 404.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let context: BrowserContext;
let page: Page;

const FIRST = 'dash.first@example.com';
const SECOND = 'dash.second@example.com';

function sendToTwo(name: string): Promise<CreateTransferResponse> {
  return sendFiles(app, owner, new Map([[name, Buffer.alloc(4096, 9)]]), {
    sendAs: 'email',
    emailTo: [{ email: FIRST }, { email: SECOND }],
    message: 'Plans for Monday',
  });
}

/** The first recipient opens their own mailed link and downloads, from Germany as CloudFront reports it. */
async function firstRecipientDownloads(t: CreateTransferResponse) {
  const mail = await waitForMail(app, FIRST, new RegExp(`/downloads/${t.id}/`));
  const recipient = new RegExp(`/downloads/${t.id}/([A-Za-z0-9_-]+)`).exec(mail.body.text)![1]!;
  await downloadFrom(app, t, 'DE', recipient);
}

const logIn = (p: Page) => logInAt(p, web.url, owner.email);

const row = (slug: string) => page.locator(`[data-testid="transfer-row"][data-slug="${slug}"]`);
const modal = () => page.getByRole('dialog');

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  owner = await createUser(app, 'dash.owner@example.com', 'pro');
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

describe('transfers list and TransferModal', () => {
  it('lists the transfer, opens it by address and by click, shows the download from Germany, adds a file, forwards it and deletes it', async () => {
    const t = await sendToTwo('site-plan.pdf');
    await firstRecipientDownloads(t);
    await logIn(page);

    // The home lists it among the latest, with its download.
    const recent = page.locator(`[data-testid="recent-transfer"][data-slug="${t.id}"]`);
    await recent.waitFor();
    expect(await recent.getByTestId('recent-downloads').textContent()).toBe('1 download');

    // The list, through the dashboard's tab.
    await page.getByTestId('dash-tab-transfers').click();
    await page.waitForURL((u) => u.pathname === '/dash/transfers');
    await row(t.id).waitFor();
    expect(await row(t.id).textContent()).toContain('site-plan.pdf');
    expect(await row(t.id).textContent()).toContain(`${FIRST} + 1`);
    expect(await row(t.id).getByTestId('transfer-downloads').textContent()).toBe('1');
    expect(await page.getByTestId('transfers-filter-all').getAttribute('aria-current')).toBe('page');

    // By address: the modal over the list, the download named Germany and attributed to its recipient.
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    await modal().waitFor();
    await row(t.id).waitFor();
    const download = modal().getByTestId('download-row');
    await download.first().waitFor();
    expect(await download.count()).toBe(1);
    expect(await download.getByTestId('download-country').textContent()).toBe('Germany');
    expect(await download.textContent()).toContain(FIRST);
    const recipients = modal().getByTestId('recipient-row');
    expect(await recipients.filter({ hasText: FIRST }).textContent()).toContain('Downloaded 1 time');
    expect(await recipients.filter({ hasText: SECOND }).textContent()).toContain('Not downloaded yet');
    expect(await modal().getByTestId('transfer-qr').getAttribute('role')).toBe('img');
    expect(await modal().getByTestId('transfer-link').inputValue()).toBe(t.link);

    // Escape closes it, back to the list; a click on the row opens it again.
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => u.pathname === '/dash/transfers');
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Focus is back on the transfer's row.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-slug]')?.getAttribute('data-slug')))
      .toBe(t.id);
    await row(t.id).click();
    await page.waitForURL((u) => u.pathname === `/dash/transfers/${t.id}`);
    await modal().getByTestId('download-row').first().waitFor();

    // Add a file through the browser's file chooser.
    await modal().getByTestId('action-addFiles').click();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      modal().getByTestId('add-files-pick').click(),
    ]);
    await chooser.setFiles({
      name: 'appendix.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Appendix: the second floor.'),
    });
    await modal().getByTestId('add-files-list').getByText('appendix.txt').waitFor();
    await modal().getByTestId('panel-submit').click();
    await modal()
      .getByTestId('action-notice')
      .getByText('Your transfer has been updated.')
      .waitFor({ timeout: 30_000 });
    await modal().getByTestId('transfer-files').getByText('appendix.txt').waitFor();
    expect(await modal().getByTestId('transfer-files').locator('li').count()).toBe(2);

    // Forward as a new link: the copy has its own slug, and the list shows it.
    await modal().getByTestId('action-forward').click();
    await modal().getByRole('radio', { name: 'Link' }).check();
    await modal().getByTestId('panel-submit').click();
    const forwardedLink = modal().getByTestId('forward-link');
    await forwardedLink.waitFor({ timeout: 30_000 });
    const newSlug = new URL(await forwardedLink.inputValue()).pathname.split('/').pop()!;
    expect(newSlug).not.toBe(t.id);
    await modal().getByTestId('transfer-modal-close').click();
    await page.waitForURL((u) => u.pathname === '/dash/transfers');
    await row(newSlug).waitFor();
    // The copy has both files: the first one's name and '+1 file'.
    expect(await row(newSlug).textContent()).toContain('site-plan.pdf +1 file');

    // Delete with confirmation: back to the list without it; the link answers 404.
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    await modal().getByTestId('action-delete').click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this transfer?' });
    await confirm.waitFor();
    await confirm.getByTestId('delete-confirm-yes').click();
    await page.waitForURL((u) => u.pathname === '/dash/transfers');
    await page.getByTestId('transfers-deleted').waitFor();
    await row(newSlug).waitFor();
    expect(await row(t.id).count()).toBe(0);

    const gone = await api(app, '/getDownload', json({ id: t.id }));
    expect(gone.status).toBe(404);
    await page.goto(`${web.url}${new URL(t.link).pathname}`);
    await page.getByText('Sorry, this link may have been removed.').waitFor();
  });

  it('resend, remind, expiry and password from the modal, each answered in it and reflected in the transfer', async () => {
    const t = await sendToTwo('contract.pdf');
    await firstRecipientDownloads(t);
    await logIn(page);
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const notice = modal().getByTestId('action-notice');
    await modal().getByTestId('download-row').first().waitFor();

    // Resend to the second recipient only.
    await modal().getByTestId('action-resend').click();
    await modal().getByRole('checkbox', { name: FIRST }).uncheck();
    await modal().getByTestId('panel-submit').click();
    await notice.getByText('The email was sent again to 1 recipient.').waitFor();

    // Remind: only the one who has not downloaded.
    await modal().getByTestId('action-remind').click();
    expect(await modal().getByTestId('panel-remind').textContent()).toContain(SECOND);
    expect(await modal().getByTestId('panel-remind').textContent()).not.toContain(FIRST);
    await modal().getByTestId('panel-submit').click();
    await notice.getByText('A reminder was sent to 1 recipient.').waitFor();
    await waitForMail(app, SECOND, /haven't downloaded/i);
    await modal()
      .getByTestId('recipient-row')
      .filter({ hasText: SECOND })
      .getByText(/reminded on/)
      .waitFor();

    // Expiry: 1 Month from now.
    await modal().getByTestId('action-expiry').click();
    await modal().getByRole('radio', { name: '1 Month' }).check();
    await modal().getByTestId('panel-submit').click();
    await notice.getByText(/^The transfer now expires on /).waitFor();
    expect(await modal().getByTestId('transfer-state').textContent()).toBe('Active');
    expect(await modal().textContent()).toMatch(/Expires in (30|31) days/);

    // Password on, then off.
    await modal().getByTestId('action-password').click();
    await modal().getByTestId('transfer-password-input').fill('abc');
    expect(await modal().getByTestId('panel-submit').isDisabled()).toBe(true);
    await modal().getByTestId('transfer-password-input').fill('abcd');
    await modal().getByTestId('panel-submit').click();
    await notice.getByText('The password was saved.').waitFor();
    expect(await modal().getByTestId('transfer-password').textContent()).toContain('On');
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(401);
    await modal().getByTestId('action-password').click();
    await modal().getByTestId('transfer-password-remove').click();
    await notice.getByText('The password was removed.').waitFor();
    expect(await modal().getByTestId('transfer-password').textContent()).toBe('Off');
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(200);
  });

  it('filters: the tabs carry their counts, Unseen lists a transfer nobody downloaded, the search narrows the list', async () => {
    const seen = await sendToTwo('budget-2027.xlsx');
    await firstRecipientDownloads(seen);
    const unseen = await sendToTwo('minutes-draft.docx');
    await logIn(page);
    await page.goto(`${web.url}/dash/transfers`);
    await row(unseen.id).waitFor();

    await page.getByTestId('transfers-filter-unseen').click();
    await page.waitForURL((u) => u.searchParams.get('filter') === 'unseen');
    await row(unseen.id).waitFor();
    await row(seen.id).waitFor({ state: 'detached' });

    await page.getByTestId('transfers-filter-all').click();
    await page.getByTestId('transfers-search').fill('budget');
    await page.waitForURL((u) => u.searchParams.get('q') === 'budget');
    await row(unseen.id).waitFor({ state: 'detached' });
    await row(seen.id).waitFor();
    const all = await page.getByTestId('transfers-filter-all').textContent();
    expect(all).toMatch(/^All\d+$/u);

    await page.getByTestId('transfers-search').fill('no-such-file-anywhere');
    await page.getByTestId('transfers-empty').waitFor();
  });

  it('the account page turns the expiry reminders off and on, and the setting survives a reload', async () => {
    await logIn(page);
    await page.goto(`${web.url}/dash/account`);
    const box = page.getByTestId('setting-expiry-reminders');
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.getByTestId('transfer-settings').getByText('Saved.').waitFor();
    const me = await api(app, '/me', { headers: bearer(owner) });
    expect(me.json.transferSettings).toEqual({ ...DEFAULT_TRANSFER_SETTINGS, expiryReminders: false });
    await page.reload();
    await page.getByTestId('setting-expiry-reminders').waitFor();
    expect(await page.getByTestId('setting-expiry-reminders').isChecked()).toBe(false);
    await page.getByTestId('setting-expiry-reminders').check();
    await page.getByTestId('transfer-settings').getByText('Saved.').waitFor();
    expect((await api(app, '/me', { headers: bearer(owner) })).json.transferSettings).toEqual({
      ...DEFAULT_TRANSFER_SETTINGS,
      expiryReminders: true,
    });
  });
});
