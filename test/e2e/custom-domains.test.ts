/**
 * Custom domains end to end: the admin adds a domain on /dash/account/domain, creates
 * the records it shows in the local DNS server (as a user would at their DNS host), "Check now"
 * turns it verified, and the transfer's link on that host opens the download page: Chromium maps
 * the host to 127.0.0.1 (--host-resolver-rules), the built app server serves it only once verified.
 * There the download page and the login page show the owner's logo.
 */
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { getFreePort, launchBrowser } from '../helpers/browser';
import { closePage, logIn, openPage } from '../helpers/browser-stack';
import type { ImageUploadResponse } from '../../functions/domain/auth-api';
import { api, stackBuckets, startTestApp, startTestWeb } from '../helpers/local-app';
import { REGION_IDS } from '../../functions/domain/regions';
import { bearer, createUser, json, randomData, sendFiles, waitForMail, type TestUser } from '../helpers/transfers';

const HOST = 'files.acme.test';
const VISITOR = 'visitor@example.com';
/** A real 2x2 PNG: the admin's company logo. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR42mNk+M/AwMDAxMDAwMDAAAAcMAMBFg+3PQAAAABJRU5ErkJggg==',
  'base64',
);
/** The web server's answer for `path` on the custom host, asked without a browser. */
function statusOnHost(path: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: `${HOST}:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}
const loadedWidth = (p: Page, testId: string) =>
  p.getByTestId(testId).evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));

let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let admin: TestUser;
let context: BrowserContext | undefined;
let page: Page;
let port: number;

beforeAll(async () => {
  port = await getFreePort();
  app = await startTestApp(`http://127.0.0.1:${port}`);
  web = await startTestWeb(port, app);
  // The custom host resolves to the test web server, whose port stays the same (local mode).
  browser = await launchBrowser([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
  admin = await createUser(app, 'admin@acme.test', 'pro');
}, 300_000);

afterEach(async () => {
  await closePage(context);
  context = undefined;
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await app?.stop();
});

describe('custom domain', () => {
  it('is refused by the web server until verified, then serves the download page on that host', async () => {
    ({ context, page } = await openPage(browser));
    const before = await page.goto(`http://${HOST}:${port}/`);
    expect(before?.status()).toBe(421);

    await logIn(page, web.url, admin.email);
    await page.getByTestId('nav-avatar').click();
    await page.getByTestId('nav-domain').click();
    await page.waitForURL((u) => u.pathname === '/dash/account/domain');
    await page.getByTestId('custom-domain-input').fill(HOST);
    await page.getByTestId('custom-domain-add').click();
    await expect.poll(() => page.getByTestId('custom-domain-status').getAttribute('data-status')).toBe('pending');

    // The user creates the two records the page shows at their DNS host.
    const rows = page.getByTestId('custom-domain-records').locator('tbody tr');
    expect(await rows.count()).toBe(2);
    for (let i = 0; i < 2; i += 1) {
      const row = rows.nth(i);
      const type = (await row.getAttribute('data-record-type')) as 'CNAME' | 'TXT';
      app.stack.dns.add({
        name: (await row.getByTestId('record-name').textContent())!,
        type,
        value: (await row.getByTestId('record-value').textContent())!,
      });
    }
    await page.getByTestId('custom-domain-check').click();
    await expect.poll(() => page.getByTestId('custom-domain-status').getAttribute('data-status')).toBe('verified');
    expect(await page.getByTestId('custom-domain-live').textContent()).toContain(`http://${HOST}:${port}/w/`);

    // The admin's logo (Customize's upload path): the download and login pages on the host show it.
    const upload = await api(
      app,
      '/branding/images',
      json({ kind: 'logo', contentType: 'image/png', size: PNG.length }, bearer(admin)),
    );
    expect(upload.status, upload.text).toBe(200);
    const { url, headers, key } = upload.json as ImageUploadResponse;
    expect((await fetch(url, { method: 'PUT', headers, body: PNG as unknown as BodyInit })).status).toBe(200);
    const saved = await api(app, '/branding/me', json({ logoKey: key }, bearer(admin), 'PATCH'));
    expect(saved.status, saved.text).toBe(200);

    const t = await sendFiles(app, admin, new Map([['drawings.pdf', randomData(2048)]]));
    expect(t.link).toBe(`http://${HOST}:${port}/w/${t.id}`);
    await page.goto(t.link);
    await page.getByTestId('download-summary').waitFor();
    expect(await page.getByText('drawings.pdf').first().isVisible()).toBe(true);
    expect(new URL(page.url()).hostname).toBe(HOST);
    await expect.poll(() => loadedWidth(page, 'download-brand-logo')).toBeGreaterThan(0);

    // The login page on the custom host: the owner's logo, found by the host name (GET /branding?host=).
    await page.goto(`http://${HOST}:${port}/login`);
    await expect.poll(() => loadedWidth(page, 'login-host-logo')).toBeGreaterThan(0);
  });

  it("takes a visitor's upload on the file-request page served on the host (bucket CORS allows it)", async () => {
    // The admin's domain is verified by the test above; the request's link is on the host.
    const created = await api(app, '/requests', json({ title: 'Site photos' }, bearer(admin)));
    expect(created.status, created.text).toBe(201);
    const link = (created.json as { link: string }).link;
    expect(link).toMatch(new RegExp(`^http://${HOST.replace(/\./gu, '\\.')}:${port}/r/`, 'u'));

    ({ context, page } = await openPage(browser));
    await page.goto(link);
    await page.getByTestId('request-title').waitFor();
    expect(new URL(page.url()).hostname).toBe(HOST);
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'roof.pdf', mimeType: 'application/pdf', buffer: randomData(300_000) });
    await page.getByTestId('request-name').fill('Vera Visitor');
    await page.getByTestId('request-email').fill(VISITOR);
    await page.getByTestId('request-submit').click();
    const codeMail = await waitForMail(app, VISITOR, /\b\d{5}\b/u);
    await page.getByTestId('code-input').fill(/\b(\d{5})\b/u.exec(codeMail.body.text)![1]!);
    await page.getByTestId('verify-button').click();
    // The PUT to the bucket comes from a page on the custom host: S3 checks that origin.
    await page.getByTestId('request-done').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('request-done').textContent()).toContain('Your file has been received.');
    const id = link.slice(link.lastIndexOf('/') + 1);
    const detail = await api(app, `/requests?slug=${id}`, { headers: bearer(admin) });
    expect(detail.json.request, detail.text).toMatchObject({ uploadCount: 1, totalBytes: 300_000 });
  }, 300_000);

  it('is removed after an inline confirmation, and uploads from the host are refused again', async () => {
    ({ context, page } = await openPage(browser));
    await logIn(page, web.url, admin.email);
    await page.goto(`${web.url}/dash/account/domain`);
    await page.getByTestId('custom-domain-remove').click();
    // No, then yes: Keep returns focus to Remove and keeps the domain.
    const question = page.getByTestId('custom-domain-confirm');
    expect(await question.textContent()).toContain(`Remove ${HOST}?`);
    // Focus moves in an effect after the render: poll for it.
    await expect
      .poll(() => page.getByTestId('custom-domain-remove-cancel').evaluate((el) => el === document.activeElement))
      .toBe(true);
    await page.getByTestId('custom-domain-remove-cancel').click();
    await expect
      .poll(() => page.getByTestId('custom-domain-remove').evaluate((el) => el === document.activeElement))
      .toBe(true);
    expect(await page.getByTestId('custom-domain-status').getAttribute('data-status')).toBe('verified');
    await page.getByTestId('custom-domain-remove').click();
    await page.getByTestId('custom-domain-remove-confirm').click();
    await page.getByTestId('custom-domain-input').waitFor();
    expect(await page.getByTestId('custom-domain-status').count()).toBe(0);
    // The claim and the tenant go (the web server's host cache lets it lapse like CloudFront's
    // tenant deletion), and S3 no longer takes uploads from a page there at once.
    const bucket = stackBuckets(app.stack, REGION_IDS[0]!).bucket;
    const preflight = await fetch(`${app.stack.urls.s3}/${bucket}/t/x/y?partNumber=1&uploadId=z`, {
      method: 'OPTIONS',
      headers: { Origin: `http://${HOST}:${port}`, 'Access-Control-Request-Method': 'PUT' },
    });
    expect(preflight.status).toBe(403);
    // Poll from Node with the host's Host header: a browser page polling there could get the
    // HTML while the host still lapses, then fail to import its modules once it has.
    await expect.poll(() => statusOnHost('/'), { timeout: 60_000, interval: 1_000 }).toBe(421);
    expect((await page.goto(`http://${HOST}:${port}/`))?.status()).toBe(421);
  }, 300_000);
});
