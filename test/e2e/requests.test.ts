import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { readZip } from '../helpers/read-zip';
import type { RequestDetailResponse } from '../../functions/domain/requests-api';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import {
  bearer,
  createUser,
  fetchBytes,
  guestToken,
  json,
  randomData,
  sha256,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

/**
 * The file requests in Chromium: a Pro user creates a request on /dash/requests; a
 * visitor in a fresh context opens /r/{id}, sees the rules, is stopped by a file type the
 * request does not take, uploads a folder after verifying the mailed code; the requester sees
 * it on the bell and on /dash/requests/{id}, downloads each file and the ZIP (bytes compared),
 * deletes it, and closes the request, which the public page then says.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let dir: string;
const contexts: BrowserContext[] = [];
const visitor = 'request.visitor@example.com';

/** the folder the visitor uploads: itemPath -> bytes */
const files = new Map<string, Buffer>();

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  owner = await createUser(app, 'requester@example.com', 'pro');
  // The public page names the requester by their profile's name.
  const named = await api(app, '/v1/updateProfile', json({ fullName: 'Ada Requester' }, bearer(owner)));
  if (named.status !== 200) throw new Error(`updateProfile ${named.status} ${named.text}`);
  dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-requests-e2e-'));
  const put = (rel: string, data: Buffer) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), data);
    files.set(rel, data);
  };
  put('invoices/march.pdf', randomData(200 * 1024));
  put('invoices/scans/receipt.jpg', randomData(90 * 1024));
  writeFileSync(path.join(dir, 'notes.txt'), 'not a pdf');
}, 300_000);

afterAll(async () => {
  await stopBrowserStack({ app, web, browser });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  while (contexts.length) await closePage(contexts.pop());
});

async function freshPage(): Promise<Page> {
  const { context, page } = await openPage(browser);
  contexts.push(context);
  return page;
}

async function saved(download: Download): Promise<Buffer> {
  const target = path.join(dir, 'downloads', `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(target);
  return readFileSync(target);
}

describe('file requests', () => {
  let requestLink = '';
  let requestId = '';

  it('the requester creates a request on /dash/requests and copies its link', async () => {
    const page = await freshPage();
    await logIn(page, web.url, owner.email);
    await page.getByTestId('dash-tab-requests').click();
    await page.waitForURL((u) => u.pathname === '/dash/requests');
    await page.getByTestId('requests-empty').waitFor();

    await page.getByTestId('request-new').click();
    // The form opens with its title focused.
    expect(await page.getByTestId('request-form-title').evaluate((el) => el === document.activeElement)).toBe(true);
    // Rules are checked before anything is sent: over the plan's file count.
    await page.getByTestId('request-form-title').fill('Tax documents 2026');
    await page.getByTestId('request-form-files').fill('999999');
    await page.getByTestId('request-form-submit').click();
    await page.getByText('Your plan allows up to').waitFor();
    await page.getByTestId('request-form-message').fill('Please upload your invoices and receipts.');
    await page.getByTestId('request-form-types').fill('pdf, .JPG');
    await page.getByTestId('request-form-files').fill('5');
    await page.getByTestId('request-form-size').fill('50');
    await page.getByTestId('request-form-unit').selectOption('MB');
    await page.getByTestId('request-form-submit').click();

    const created = page.getByTestId('request-created');
    await created.waitFor();
    requestLink = await page.getByTestId('request-created-link').inputValue();
    expect(requestLink).toMatch(new RegExp(`^${web.url}/r/[A-Za-z0-9]{8}$`));
    requestId = requestLink.slice(requestLink.lastIndexOf('/') + 1);
    const row = page.locator(`[data-request-id="${requestId}"]`);
    expect(await row.getByTestId('request-row-state').textContent()).toBe('Open');
    expect(await row.getByTestId('request-row-uploads').textContent()).toBe('0');
    // The list is the server's: a reload shows the same request.
    await page.reload();
    await page.locator(`[data-request-id="${requestId}"]`).waitFor();
    expect(await page.getByTestId('request-row').count()).toBe(1);
  }, 300_000);

  it('a visitor sees the rules, is stopped by a wrong type, and uploads a folder after verifying', async () => {
    const page = await freshPage();
    await page.goto(requestLink);
    await page.getByTestId('request-title').waitFor();
    expect(await page.getByTestId('request-title').textContent()).toBe('Tax documents 2026');
    expect(await page.getByTestId('request-requester').textContent()).toBe('Ada Requester is asking you for files');
    expect(await page.getByTestId('request-message').textContent()).toBe('Please upload your invoices and receipts.');
    const rules = await page.getByTestId('request-rules').textContent();
    expect(rules).toContain('Up to 50 MB in total');
    expect(rules).toContain('Only these file types: pdf, jpg');
    expect(rules).toContain('At most 5 files');

    // A type the request does not take is named before anything is uploaded.
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'notes.txt'));
    await page.getByText('This request does not accept the type of notes.txt.').waitFor();
    await page.getByRole('button', { name: 'Remove notes.txt' }).click();
    await page.getByTestId('folder-input').setInputFiles(path.join(dir, 'invoices'));
    await page.getByText('receipt.jpg').first().waitFor();
    expect(await page.getByText('does not accept').count()).toBe(0);

    // Name and address are asked for before the code is sent.
    await page.getByTestId('request-submit').click();
    await page.getByText('Enter your name.').waitFor();
    await page.getByTestId('request-name').fill('Vera Visitor');
    await page.getByTestId('request-email').fill(visitor);
    await page.getByTestId('request-visitor-message').fill('Here are the March papers.');
    await page.getByTestId('request-submit').click();

    const codeMail = await waitForMail(app, visitor, /\b\d{5}\b/);
    const code = /\b(\d{5})\b/.exec(codeMail.body.text)![1]!;
    await page.getByTestId('code-input').fill(code);
    await page.getByTestId('verify-button').click();
    await page.getByTestId('request-done').waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('request-done').textContent()).toContain('Ada Requester has received your 2 files.');
  }, 300_000);

  it('the requester sees it on the bell, opens the request and downloads each file and the ZIP', async () => {
    const page = await freshPage();
    await logIn(page, web.url, owner.email);
    await page.getByTestId('bell-badge').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    const item = page.locator('[data-testid="bell-item"][data-kind="request-upload"]');
    await item.waitFor();
    expect(await item.textContent()).toContain('Vera Visitor uploaded to “Tax documents 2026”');
    await item.click();
    await page.waitForURL((u) => u.pathname === `/dash/requests/${requestId}`);

    const card = page.getByTestId('request-upload-card');
    await card.waitFor();
    expect(await card.getByTestId('request-upload-who').textContent()).toContain('Vera Visitor');
    expect(await card.getByTestId('request-upload-message').textContent()).toBe('Here are the March papers.');
    expect(await page.getByTestId('request-detail-state').textContent()).toBe('Open');

    for (const [rel, data] of files) {
      const name = path.basename(rel);
      const button = card
        .locator(`[data-testid="request-upload-file"][data-file-name="${name}"]`)
        .getByTestId('request-upload-file-download');
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), button.click()]);
      expect(download.suggestedFilename()).toBe(name);
      expect(sha256(await saved(download)), rel).toBe(sha256(data));
    }

    const [zip] = await Promise.all([
      page.waitForEvent('download', { timeout: 90_000 }),
      card.getByTestId('request-upload-zip').click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    const entries = new Map((await readZip(await saved(zip))).map((e) => [e.name, e.data]));
    expect([...entries.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [rel, data] of files) expect(sha256(entries.get(rel)!), `zip ${rel}`).toBe(sha256(data));
  }, 300_000);

  it('the requester deletes the upload after confirming, closes the request, and the public page says it is closed', async () => {
    const page = await freshPage();
    await logIn(page, web.url, owner.email);
    await page.goto(`${web.url}/dash/requests/${requestId}`);
    const card = page.getByTestId('request-upload-card');
    await card.waitFor();

    // No, then yes: the dialog's Cancel keeps it and gives focus back to Delete.
    await card.getByTestId('request-upload-delete').click();
    const dialog = page.getByRole('dialog', { name: 'Delete this upload?' });
    await dialog.waitFor();
    await dialog.getByTestId('request-delete-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await card.getByTestId('request-upload-delete').evaluate((el) => el === document.activeElement)).toBe(true);
    await card.getByTestId('request-upload-delete').click();
    await page.getByTestId('request-delete-confirm').click();
    await page.getByTestId('request-no-uploads').waitFor();
    expect(await page.getByTestId('request-notice').textContent()).toBe('The upload from Vera Visitor was deleted.');

    await page.getByTestId('request-close').click();
    await page.getByTestId('request-reopen').waitFor();
    expect(await page.getByTestId('request-detail-state').textContent()).toBe('Closed');

    const visitorPage = await freshPage();
    await visitorPage.goto(requestLink);
    const state = visitorPage.getByTestId('request-state');
    await state.waitFor();
    expect(await state.getAttribute('data-state')).toBe('closed');
    expect(await state.textContent()).toContain('This request is closed');

    // An address that names no request.
    await visitorPage.goto(`${web.url}/r/Zz9Zz9Zz`);
    await visitorPage.locator('[data-testid="request-state"][data-state="missing"]').waitFor();

    // Reopened, it takes files again.
    await page.getByTestId('request-reopen').click();
    await page.getByTestId('request-close').waitFor();
    await visitorPage.goto(requestLink);
    await visitorPage.getByTestId('request-title').waitFor();
  }, 300_000);

  it('a visitor whose upload stopped halfway (a reload) picks the same folder again and resumes it', async () => {
    // The upload as the page had started it: created, its first file stored, then the page went.
    const resumer = 'request.resumer@example.com';
    const token = await guestToken(app, resumer);
    const fileObjects = [...files].map(([rel, data]) => ({
      fileName: path.basename(rel),
      itemPath: rel,
      size: data.length,
    }));
    const started = await api(
      app,
      `/r/${requestId}/uploads`,
      json({ senderName: 'Rosa Resumer', senderEmail: resumer, fileObjects }, { 'x-sender-token': token }),
    );
    expect(started.status).toBe(201);
    const created = started.json as CreateTransferResponse;
    await uploadAll(app, { ...created, files: created.files.slice(0, 1) }, files);
    const checkpoint = {
      id: created.id,
      uploadToken: created.uploadToken,
      createdAt: Date.now(),
      files: created.files.map((f) => ({
        fileId: f.fileId,
        fileName: f.fileName,
        size: f.size,
        ...(f.itemPath ? { itemPath: f.itemPath } : {}),
      })),
    };

    const page = await freshPage();
    await page.goto(requestLink);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [`sendbridge.upload-checkpoints.request.${requestId}`, JSON.stringify([checkpoint])],
    );
    // The home page's send form keeps its own checkpoints: this one is not offered there.
    expect(await page.evaluate(() => localStorage.getItem('sendbridge.upload-checkpoints'))).toBeNull();
    await page.reload();
    await page.getByTestId('request-title').waitFor();
    await page.getByTestId('folder-input').setInputFiles(path.join(dir, 'invoices'));
    await page.getByTestId('resume-button').click();
    await page.getByTestId('request-done').waitFor({ timeout: 90_000 });
    expect(
      await page.evaluate((key) => localStorage.getItem(key), `sendbridge.upload-checkpoints.request.${requestId}`),
    ).toBeNull();

    // The requester has the whole upload, byte for byte.
    const detail = await api(app, `/requests?slug=${requestId}`, { headers: bearer(owner) });
    expect(detail.status).toBe(200);
    const upload = (detail.json as RequestDetailResponse).uploads.find((u) => u.slug === created.id);
    expect(upload?.senderName).toBe('Rosa Resumer');
    expect(upload?.files.map((f) => f.itemPath).sort()).toEqual([...files.keys()].sort());
    for (const f of upload!.files) {
      const link = await api(app, '/getDownload/file', json({ id: created.id, fileId: f.fileId }));
      expect(link.status).toBe(200);
      const got = await fetchBytes((link.json as { url: string }).url);
      expect(sha256(got.bytes), f.itemPath).toBe(sha256(files.get(f.itemPath!)!));
    }
  }, 300_000);
});
