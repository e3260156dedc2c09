import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { closeCleanContext, newContext } from '../helpers/browser';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { createUser, sendFiles, type TestUser } from '../helpers/transfers';

/**
 * In Chromium on the built app under its CSP: a business user uploads a logo and picks
 * an accent colour on /dash/account/customize (the preview follows before saving), a link
 * transfer's download page then shows the logo (loaded: naturalWidth > 0) and the accent on its
 * buttons (the TransferModal previews both), and turning 'Powered by' off on /dash/account/powered-by removes the line there.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let business: TestUser;
let context: BrowserContext;
let page: Page;

/** A real 2x2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR42mNk+M/AwMDAxMDAwMDAAAAcMAMBFg+3PQAAAABJRU5ErkJggg==',
  'base64',
);
const ACCENT = 'rgb(255, 204, 0)';

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  business = await createUser(app, 'brand.e2e@acme-studio.com', 'business');
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

const background = (p: Page, testId: string) =>
  p.getByTestId(testId).evaluate((el) => getComputedStyle(el).backgroundColor);

describe('branding', () => {
  it('customize with a live preview, then the recipient sees the logo and accent; powered-by off hides the line', async () => {
    await logIn(page, web.url, business.email);
    // The former address redirects to the account's customize screen.
    await page.goto(`${web.url}/dash/customize`);
    await page.waitForURL((u) => u.pathname === '/dash/account/customize');
    await page
      .getByTestId('branding-logo-input')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('branding-preview-logo').waitFor();
    await page.getByTestId('branding-accent-color').fill('#ffcc00');
    // Live: the preview's button takes the accent, with black text for contrast, before anything is saved.
    // (polled: buttons ease their colour change)
    await expect.poll(() => background(page, 'branding-preview-button')).toBe(ACCENT);
    expect(await page.getByTestId('branding-preview-button').evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(0, 0, 0)',
    );
    await page.getByTestId('branding-logo-nav').check();
    await page.getByTestId('branding-save').click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // showLogoNav: the top navigation now shows the company logo.
    await page.locator('img.brand-custom-logo').waitFor();

    const t = await sendFiles(
      app,
      business,
      new Map([
        ['brief.pdf', Buffer.from('%PDF-1.4 brief')],
        ['notes.txt', Buffer.from('notes')],
      ]),
    );
    // The TransferModal previews what its recipients will see.
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    await page.getByTestId('transfer-branding').locator('img').waitFor();
    const recipient = await newContext(browser);
    try {
      const visitor = await recipient.newPage();
      await visitor.goto(`${web.url}${new URL(t.link).pathname}`);
      await visitor.getByTestId('download-summary').waitFor();
      const logo = visitor.getByTestId('download-brand-logo');
      await expect
        .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      await expect.poll(() => background(visitor, 'download-all')).toBe(ACCENT);
      await visitor.getByTestId('download-powered-by').waitFor();

      // Powered by off (business may): the line goes from the recipient's page.
      await page.goto(`${web.url}/dash/account/powered-by`);
      const toggle = page.getByTestId('powered-by-toggle');
      await toggle.waitFor();
      expect(await toggle.isChecked()).toBe(true);
      // The box follows the saved answer, so click and wait for it.
      await toggle.click();
      await expect.poll(() => toggle.isChecked()).toBe(false);
      await visitor.reload();
      await visitor.getByTestId('download-summary').waitFor();
      expect(await visitor.getByTestId('download-powered-by').count()).toBe(0);
    } finally {
      await closeCleanContext(recipient);
    }
  });
});
