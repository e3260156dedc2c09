/**
 * The done-when of verified recipients, download limits and signed receipts, tried as a new user
 * would in Chromium on the built app, each step on what the step before left: a pro user sends
 * from the form with "verified recipients" (Sharing tab) to two addresses and a download limit
 * of 1 (Expiry tab); the first recipient opens their mailed link, enters the code mailed to their
 * address and downloads; the link forwarded to a third address is refused; the sender removes the
 * second recipient in the TransferModal, and the second recipient's open page stops; the limit
 * lets that one download through and refuses the next; the sender saves the delivery's receipt
 * from the modal as JSON and as PDF, and `sendbridge receipt verify` accepts the JSON and refuses
 * it after one byte is changed. The delivery is detected from the storage's own report.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import { listDeliveries } from '../../functions/data/deliveries';
import type { ReceiptDocument } from '../../functions/domain/receipt-format';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { buildCli, runCli } from '../helpers/cli-runner';
import { attachmentsOf } from '../helpers/pdf-attachments';
import { createUser, mailsTo, randomData, sha256, waitForMail, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let sender: TestUser;
const contexts: BrowserContext[] = [];
const work = mkdtempSync(path.join(tmpdir(), 'sendbridge-done-when-e2e-'));
const place = { cwd: work, home: work, configDir: path.join(work, 'config') };

const FIRST = 'e2e.done.first@example.com';
const SECOND = 'e2e.done.second@example.com';
const THIRD = 'e2e.done.forwarded@example.com';
const POLL = { timeout: 60_000, interval: 250 };
const DATA = randomData(40_000);

beforeAll(async () => {
  buildCli();
  ({ app, web, browser } = await startBrowserStack());
  sender = await createUser(app, 'e2e.done.sender@example.com', 'pro');
}, 300_000);
afterAll(async () => {
  for (const c of contexts) await closePage(c);
  await stopBrowserStack({ app, web, browser });
  rmSync(work, { recursive: true, force: true });
});

async function newPage(): Promise<Page> {
  const { context, page } = await openPage(browser);
  contexts.push(context);
  return page;
}

const isDownloadCode = (m: { subject: string }) => /code to download files/u.test(m.subject);

/** The address's personal link (its path), from the transfer mail it got. */
async function linkOf(email: string): Promise<string> {
  const mail = await waitForMail(app, email, /\/downloads\//u);
  return new URL(/https?:\/\/\S+\/downloads\/[A-Za-z0-9]+\/[A-Za-z0-9]{8}/u.exec(mail.body.text)![0]).pathname;
}

/** On a personal link: the address is its own; asks for the code and enters the one mailed. */
async function enterCode(p: Page, email: string): Promise<void> {
  await p.getByTestId('download-verify').waitFor();
  expect(await p.getByTestId('download-verify-email').inputValue()).toBe(email);
  const seen = (await mailsTo(app, email)).filter(isDownloadCode).length;
  await p.getByTestId('download-verify-send').click();
  await p.getByTestId('download-verify-code').waitFor();
  await expect.poll(async () => (await mailsTo(app, email)).filter(isDownloadCode).length, POLL).toBeGreaterThan(seen);
  const mail = (await mailsTo(app, email)).filter(isDownloadCode).pop()!;
  await p.getByTestId('download-verify-code').fill(/\b(\d{5})\b/u.exec(mail.subject)![1]!);
  await p.getByTestId('download-verify-submit').click();
  await p.getByTestId('download-summary').waitFor();
}

async function saved(p: Page, testId: string): Promise<Buffer> {
  const row = p.getByRole('dialog').getByTestId('delivery-row').first();
  const [download] = await Promise.all([p.waitForEvent('download'), row.getByTestId(testId).click()]);
  return readFileSync((await download.path())!);
}

describe('a pro user sends with verified recipients to two addresses and a download limit of 1', () => {
  let owner: Page;
  let first: Page;
  let second: Page;
  let slug = '';
  let receiptJson = '';
  const fileButton = (p: Page) => p.locator('[data-testid="download-file"][data-file-name="board-minutes.pdf"]');

  it('sends from the form: verified recipients in the Sharing tab, the limit in the Expiry tab', async () => {
    owner = await newPage();
    await logIn(owner, web.url, sender.email);
    await owner
      .getByTestId('file-input')
      .setInputFiles({ name: 'board-minutes.pdf', mimeType: 'application/pdf', buffer: DATA });
    for (const email of [FIRST, SECOND]) {
      await owner.getByTestId('recipients-input').fill(email);
      await owner.getByTestId('recipients-input').press('Enter');
    }
    await owner.getByTestId('options-toggle').click();
    await owner.getByRole('tab', { name: 'Sharing' }).click();
    await owner.getByTestId('send-verified').check();
    await owner.getByRole('tab', { name: 'Expiry' }).click();
    await owner.getByTestId('send-download-limit').fill('1');
    await owner.getByTestId('send-submit').click();
    const link = await linkOf(FIRST);
    slug = link.split('/')[2]!;
    expect(slug).toMatch(/^[A-Za-z0-9]+$/u);
  });

  it('lets the first recipient download after entering the code mailed to their address', async () => {
    first = await newPage();
    await first.goto(`${web.url}${await linkOf(FIRST)}`);
    await enterCode(first, FIRST);
    const [download] = await Promise.all([
      first.waitForEvent('download', { timeout: 60_000 }),
      fileButton(first).click(),
    ]);
    expect(download.suggestedFilename()).toBe('board-minutes.pdf');
    expect(sha256(readFileSync((await download.path())!))).toBe(sha256(DATA));
  });

  it('refuses the link forwarded to a third address, and mails it nothing', async () => {
    const third = await newPage();
    await third.goto(`${web.url}/downloads/${slug}`);
    await third.getByTestId('download-verify').waitFor();
    await third.getByTestId('download-verify-email').fill(THIRD);
    await third.getByTestId('download-verify-send').click();
    await third.getByTestId('download-verify-error').waitFor();
    expect(await third.getByTestId('download-verify-error').textContent()).toBe(
      'This address may not download these files. Ask the sender to add it.',
    );
    expect((await mailsTo(app, THIRD)).filter(isDownloadCode)).toEqual([]);
    // closed now: a page left on the code step would warn that the file list's preloaded styles went unused
    await closePage(contexts.pop());
  });

  it("stops the second recipient's open page once the sender removes them in the TransferModal", async () => {
    second = await newPage();
    await second.goto(`${web.url}${await linkOf(SECOND)}`);
    await enterCode(second, SECOND);

    await owner.goto(`${web.url}/dash/transfers/${slug}`);
    const modal = owner.getByRole('dialog');
    await modal.getByTestId('transfer-access').waitFor();
    const row = (email: string) => modal.locator(`[data-testid="access-row"][data-email="${email}"]`);
    await row(SECOND).getByTestId('access-remove').click();
    await row(SECOND).waitFor({ state: 'detached' });

    // the tab comes back into focus: the page asks again and says why the files are gone
    await second.evaluate(() => window.dispatchEvent(new Event('focus')));
    await second.getByTestId('download-access-ended').waitFor();
    expect(await second.getByTestId('download-access-ended').textContent()).toBe(
      'The sender removed your access to these files.',
    );
    expect(await fileButton(second).count()).toBe(0);
  });

  it('lets exactly one download through: the next is refused with the used-up message', async () => {
    // the delivery is counted once the storage reports the bytes served; the page then says so
    await expect.poll(async () => (await listDeliveries(slug)).length, POLL).toBe(1);
    await first.reload();
    await first.getByTestId('download-summary').waitFor();
    const used = 'This transfer has reached its download limit. Ask the sender to raise it or to send it again.';
    expect(await first.getByTestId('download-limit-reached').textContent()).toBe(used);
    await fileButton(first).click();
    await first.getByTestId('download-action-error').waitFor();
    expect(await first.getByTestId('download-action-error').textContent()).toContain(used);
    // the sender is told, and sees the first recipient's one download in the access list
    await expect
      .poll(
        async () => (await mailsTo(app, sender.email)).filter((m) => /download limit/u.test(m.subject)).length,
        POLL,
      )
      .toBe(1);
    await owner.goto(`${web.url}/dash/transfers/${slug}`);
    const firstRow = owner.getByRole('dialog').locator(`[data-testid="access-row"][data-email="${FIRST}"]`);
    await expect.poll(() => firstRow.getByTestId('access-state').textContent(), POLL).toBe('Downloaded once');
  });

  it('gives the sender the receipt of that download from the TransferModal, as JSON and as PDF', async () => {
    const rows = owner.getByRole('dialog').getByTestId('delivery-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(`${FIRST} (verified)`);
    receiptJson = (await saved(owner, 'receipt-json')).toString('utf8');
    const doc = JSON.parse(receiptJson) as ReceiptDocument;
    expect(doc.receipt).toMatchObject({
      transfer: slug,
      what: 'file',
      recipient: { kind: 'verified', email: FIRST },
      files: [{ path: 'board-minutes.pdf', size: DATA.length, sha256: sha256(DATA) }],
      servedWhole: true,
    });
    const pdf = await saved(owner, 'receipt-pdf');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect([...(await attachmentsOf(pdf)).values()]).toEqual([receiptJson]);
  });

  it('is accepted by sendbridge receipt verify, and refused after one byte is changed', async () => {
    expect(receiptJson).not.toBe('');
    const file = path.join(work, 'receipt.json');
    writeFileSync(file, receiptJson);
    const run = await runCli(['receipt', 'verify', file, '--api', app.apiOrigin], place);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('VALID receipt');
    const at = receiptJson.indexOf(FIRST);
    const changed = `${receiptJson.slice(0, at)}f${receiptJson.slice(at + 1)}`;
    expect(changed.length).toBe(receiptJson.length);
    expect(changed).not.toBe(receiptJson);
    const changedFile = path.join(work, 'changed.json');
    writeFileSync(changedFile, changed);
    const refused = await runCli(['receipt', 'verify', changedFile, '--api', app.apiOrigin], place);
    expect(refused.code, refused.stdout + refused.stderr).toBe(6);
    expect(refused.stdout).toContain('INVALID receipt');
    expect(refused.stdout).toContain('receipt_mismatch');
  });
});
