import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { AccessListResponse } from '../../functions/domain/recipient-access';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import {
  bearer,
  createUser,
  json,
  mailsTo,
  randomData,
  sendFiles,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

/**
 * Verified recipients (docs/decisions/0076), in Chromium on the built app: a pro user sends to
 * two addresses with "verified recipients"; the first opens their mailed link, enters the code
 * mailed to them and downloads; the same link forwarded to a third address is refused; the
 * sender removes the second recipient, whose open page says so when the tab comes back; turned
 * on in the TransferModal after an email send, an open page's next download asks for the code. The
 * sender's side is driven mostly through the API; nothing waits a fixed time (expect.poll).
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let sender: TestUser;
let context: BrowserContext;
let page: Page;

const FIRST = 'e2e.first.verified@example.com';
const SECOND = 'e2e.second.verified@example.com';
const THIRD = 'e2e.forwarded.to@example.com';
const POLL = { timeout: 60_000, interval: 250 };

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  sender = await createUser(app, 'e2e.verified.sender@example.com', 'pro');
}, 300_000);
afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

const isDownloadCode = (m: { subject: string }) => /code to download files/u.test(m.subject);

/** The address's personal link, from the transfer mail it got. */
async function linkOf(email: string): Promise<string> {
  const mail = await waitForMail(app, email, /\/downloads\//u);
  return new URL(/https?:\/\/\S+\/downloads\/[A-Za-z0-9]+\/[A-Za-z0-9]{8}/u.exec(mail.body.text)![0]).pathname;
}

/** Asks for the code on the page (the address already filled in or typed) and enters it. */
async function enterCode(p: Page, email: string, typeAddress = false): Promise<void> {
  await p.getByTestId('download-verify').waitFor();
  const field = p.getByTestId('download-verify-email');
  if (typeAddress) await field.fill(email);
  else expect(await field.inputValue()).toBe(email);
  const seen = (await mailsTo(app, email)).filter(isDownloadCode).length;
  await p.getByTestId('download-verify-send').click();
  await p.getByTestId('download-verify-code').waitFor();
  await expect.poll(async () => (await mailsTo(app, email)).filter(isDownloadCode).length, POLL).toBeGreaterThan(seen);
  const mail = (await mailsTo(app, email)).filter(isDownloadCode).pop()!;
  await p.getByTestId('download-verify-code').fill(/\b(\d{5})\b/u.exec(mail.subject)![1]!);
  await p.getByTestId('download-verify-submit').click();
}

const listOf = async (t: CreateTransferResponse) =>
  (await api(app, '/transfers/access', json({ slug: t.id }, bearer(sender)))).json as AccessListResponse;

describe('a send with verified recipients', () => {
  let t: CreateTransferResponse;
  beforeAll(async () => {
    t = await sendFiles(app, sender, new Map([['contract-draft.txt', Buffer.from('draft 3, confidential')]]), {
      sendAs: 'email',
      emailTo: [{ email: FIRST }, { email: SECOND }],
      verifiedRecipients: {},
    });
  }, 120_000);

  it('lets the first recipient download after entering the mailed code', async () => {
    await page.goto(`${web.url}${await linkOf(FIRST)}`);
    await enterCode(page, FIRST);
    const button = page.locator('[data-testid="download-file"][data-file-name="contract-draft.txt"]');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), button.click()]);
    expect(download.suggestedFilename()).toBe('contract-draft.txt');
    await expect
      .poll(async () => (await listOf(t)).recipients.find((r) => r.email === FIRST), POLL)
      .toMatchObject({ state: 'downloaded', downloads: 1 });
  });

  it('refuses the same link forwarded to a third address', async () => {
    await page.goto(`${web.url}${new URL(t.link).pathname}`);
    await enterCodeRefused(page, THIRD);
    expect((await mailsTo(app, THIRD)).filter(isDownloadCode)).toEqual([]);
  });

  it("stops the second recipient's open page once the sender removes them", async () => {
    await page.goto(`${web.url}${await linkOf(SECOND)}`);
    await enterCode(page, SECOND);
    await page.getByTestId('download-summary').waitFor();
    const removed = await api(
      app,
      '/transfers/access/recipient',
      json({ slug: t.id, email: SECOND, action: 'remove' }, bearer(sender)),
    );
    expect(removed.status, removed.text).toBe(200);
    // the tab comes back into focus: the page asks again and says why the files are gone
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.getByTestId('download-access-ended').waitFor();
    expect(await page.getByTestId('download-access-ended').textContent()).toBe(
      'The sender removed your access to these files.',
    );
    // a reload finds the same: the session is gone with the address
    await page.reload();
    await page.getByTestId('download-verify').waitFor();
  });
});

describe("the sender's side", () => {
  it('sends a link only addresses at a domain may open, then edits the access list in the TransferModal', async () => {
    await logIn(page, web.url, sender.email);
    await page.getByTestId('file-input').setInputFiles({
      name: 'site-survey.pdf',
      mimeType: 'application/pdf',
      buffer: randomData(3000),
    });
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByLabel('Get a link to share myself').check();
    await page.getByTestId('send-verified').check();
    await page.getByTestId('send-verified-allow').fill('@acme.example');
    await page.getByTestId('send-submit').click();
    await page.getByTestId('done-link').waitFor({ timeout: POLL.timeout });
    const slug = (await page.getByTestId('done-link').inputValue()).split('/').pop()!;
    const gated = await api(app, '/getDownload', json({ id: slug }));
    expect(gated.status).toBe(401);
    expect(gated.json.error.code).toBe('verification_required');

    await page.goto(`${web.url}/dash/transfers/${slug}`);
    const modal = page.getByRole('dialog');
    await modal.getByTestId('transfer-access').waitFor();
    expect(await modal.getByTestId('access-enabled').isChecked()).toBe(true);
    expect(await modal.getByTestId('access-domain').inputValue()).toBe('acme.example');
    await modal.getByTestId('access-add-input').fill('partner@elsewhere.example');
    await modal.getByTestId('access-add').click();
    const row = modal.locator('[data-testid="access-row"][data-email="partner@elsewhere.example"]');
    await row.waitFor();
    expect(await row.getByTestId('access-state').textContent()).toBe('Not opened');
    await waitForMail(app, 'partner@elsewhere.example', /\/downloads\//u);
    await row.getByTestId('access-revoke').click();
    await expect.poll(() => row.getByTestId('access-state').textContent(), POLL).toBe('Revoked');
    await row.getByTestId('access-remove').click();
    await row.waitFor({ state: 'detached' });
  });
});

describe('verified recipients turned on after sending', () => {
  it("asks an email send's recipient, whose page is open, for their code once the sender turns it on in the TransferModal", async () => {
    const LATER = 'e2e.turned.on.later@example.com';
    const t = await sendFiles(app, sender, new Map([['budget-2027.txt', Buffer.from('numbers')]]), {
      sendAs: 'email',
      emailTo: [{ email: LATER }],
    });
    await page.goto(`${web.url}${await linkOf(LATER)}`);
    await page.getByTestId('download-summary').waitFor();

    const owner = await openPage(browser);
    try {
      await logIn(owner.page, web.url, sender.email);
      await owner.page.goto(`${web.url}/dash/transfers/${t.id}`);
      const modal = owner.page.getByRole('dialog');
      await modal.getByTestId('transfer-access').waitFor();
      expect(await modal.getByTestId('access-enabled').isChecked()).toBe(false);
      // the box follows the server's answer (not the click): click, then wait for the list
      await modal.getByTestId('access-enabled').click();
      await expect.poll(() => modal.getByTestId('access-enabled').isChecked(), POLL).toBe(true);
      const row = modal.locator(`[data-testid="access-row"][data-email="${LATER}"]`);
      await row.waitFor();
    } finally {
      await closePage(owner.context);
    }

    // the open page's next download is refused by the server: the page asks for its own address's code
    const button = page.locator('[data-testid="download-file"][data-file-name="budget-2027.txt"]');
    await button.click();
    await enterCode(page, LATER);
    await page.getByTestId('download-summary').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), button.click()]);
    expect(download.suggestedFilename()).toBe('budget-2027.txt');
  });
});

async function enterCodeRefused(p: Page, email: string): Promise<void> {
  await p.getByTestId('download-verify').waitFor();
  await p.getByTestId('download-verify-email').fill(email);
  await p.getByTestId('download-verify-send').click();
  await p.getByTestId('download-verify-error').waitFor();
  expect(await p.getByTestId('download-verify-error').textContent()).toBe(
    'This address may not download these files. Ask the sender to add it.',
  );
}
