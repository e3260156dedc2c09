/**
 * Signed delivery receipts in Chromium, in the shipped app under its CSP: the sender downloads a
 * delivery's receipt from the TransferModal as JSON and as PDF (the signed JSON attached), and
 * the public /verify page accepts that JSON, online and with a saved key set, and refuses it once
 * one byte changed. Deliveries are written with the deliveries module (detecting them is not
 * this file's).
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { putDelivery } from '../../functions/data/deliveries';
import { parseKeySet, verifyReceiptText } from '../../functions/domain/receipt';
import type { ReceiptDocument } from '../../functions/domain/receipt-format';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { attachmentsOf } from '../helpers/pdf-attachments';
import { createUser, sendFiles, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let sender: TestUser;
let t: CreateTransferResponse;
const DELIVERY = '0193a1b2-c3d4-7e5f-8a9b-00000000e2e1';
/** the receipt JSON as the modal saved it (the first test), for the /verify tests */
let savedJson = '';

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  sender = await createUser(app, 'receipts.e2e@example.com', 'pro');
  t = await sendFiles(app, sender, new Map([['contracts/signed-2026.pdf', Buffer.alloc(3000, 5)]]));
  await putDelivery({
    slug: t.id,
    deliveryId: DELIVERY,
    startedAt: Date.now() - 60_000,
    at: Date.now() - 30_000,
    what: 'file',
    recipient: { kind: 'verified', email: 'counsel@example.com' },
    countryCode: 'FR',
    files: [{ fileId: t.files[0]!.fileId, path: 'contracts/signed-2026.pdf', size: 3000, sha256: 'c0'.repeat(32) }],
    bytes: 3000,
    servedWhole: true,
  });
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

async function saved(p: Page, testId: string): Promise<Buffer> {
  const row = p.getByRole('dialog').getByTestId('delivery-row').first();
  const [download] = await Promise.all([p.waitForEvent('download'), row.getByTestId(testId).click()]);
  return readFileSync((await download.path())!);
}

describe('receipts from the TransferModal', () => {
  it('downloads a delivery’s receipt as JSON that verifies, and as a PDF with that JSON attached', async () => {
    await logIn(page, web.url, sender.email);
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const row = page.getByRole('dialog').getByTestId('delivery-row');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().textContent()).toContain('counsel@example.com (verified)');

    savedJson = (await saved(page, 'receipt-json')).toString('utf8');
    const doc = JSON.parse(savedJson) as ReceiptDocument;
    expect(doc.receipt).toMatchObject({
      transfer: t.id,
      delivery: DELIVERY,
      recipient: { kind: 'verified', email: 'counsel@example.com' },
      files: [{ path: 'contracts/signed-2026.pdf', size: 3000, sha256: 'c0'.repeat(32) }],
    });
    const keys = parseKeySet((await api(app, '/receipts/keys')).text)!;
    expect(await verifyReceiptText(savedJson, keys)).toMatchObject({ ok: true });

    const pdf = await saved(page, 'receipt-pdf');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const attached = await attachmentsOf(pdf);
    expect([...attached.keys()]).toEqual([`sendbridge-receipt-${t.id}-${DELIVERY}.json`]);
    expect(attached.values().next().value).toBe(savedJson);
  });
});

describe("the analytics CSV's receipts link", () => {
  it('opens the TransferModal scrolled to its receipts', async () => {
    await logIn(page, web.url, sender.email);
    await page.goto(`${web.url}/dash/transfers/${t.id}#receipts`);
    const section = page.getByRole('dialog').getByTestId('transfer-deliveries');
    await section.getByTestId('delivery-row').first().waitFor();
    // the section's top is on screen (the dialog scrolls inside the window)
    await expect
      .poll(() =>
        section.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.top < window.innerHeight - 20;
        }),
      )
      .toBe(true);
  });
});

describe('the /verify page', () => {
  async function check(receipt: string, keys?: string) {
    await page.goto(`${web.url}/verify`);
    await page.getByRole('heading', { level: 1, name: 'Check a delivery receipt' }).waitFor();
    await page.getByTestId('verify-receipt-file').setInputFiles({
      name: 'receipt.json',
      mimeType: 'application/json',
      buffer: Buffer.from(receipt),
    });
    if (keys)
      await page
        .getByTestId('verify-keys-file')
        .setInputFiles({ name: 'keys.json', mimeType: 'application/json', buffer: Buffer.from(keys) });
    await page.getByTestId('verify-submit').click();
  }

  it('accepts the receipt the modal saved, with the published keys, and says what it proves and what not', async () => {
    expect(savedJson).not.toBe('');
    await check(savedJson);
    const valid = page.getByTestId('verify-valid');
    await valid.waitFor();
    expect(await valid.textContent()).toContain('checked against the keys this site publishes');
    expect(await page.getByTestId('verify-recorded').textContent()).toBe(
      "This site still holds this delivery's record, exactly as signed.",
    );
    expect(await page.getByTestId('verify-recipient').textContent()).toBe(
      'counsel@example.com (address verified with a mailed code)',
    );
    expect(await page.getByTestId('verify-not-proves').textContent()).toContain('Who sat at the keyboard');
  });

  it('refuses it after one byte is changed', async () => {
    const changed = savedJson.replace('"country": "FR"', '"country": "FS"');
    expect(changed).not.toBe(savedJson);
    expect(changed.length).toBe(savedJson.length);
    await check(changed);
    const invalid = page.getByTestId('verify-invalid');
    await invalid.waitFor();
    expect(await invalid.textContent()).toContain('The readable part differs from what was signed');
    expect(await page.getByTestId('verify-valid').count()).toBe(0);
  });

  it('checks offline against a saved key set, and refuses a key set that lacks the key', async () => {
    const keys = (await api(app, '/receipts/keys')).text;
    await check(savedJson, keys);
    const valid = page.getByTestId('verify-valid');
    await valid.waitFor();
    expect(await valid.textContent()).toContain('checked against the key set file you chose');
    // offline: nothing asked of the site
    expect(await page.getByTestId('verify-recorded').count()).toBe(0);
    await check(savedJson, JSON.stringify({ keys: [] }));
    await page.getByTestId('verify-invalid').waitFor();
    expect(await page.getByTestId('verify-invalid').textContent()).toContain('never published');
  });
});
