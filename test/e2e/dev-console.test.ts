import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebDevServer, type WebDevServer } from '../../frontend/dev-server';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { LocalApp } from '../../scripts/local/app';
import { closeCleanContext, consoleProblems, getFreePort, launchBrowser, newContext } from '../helpers/browser';
import { logIn } from '../helpers/browser-stack';
import { api, startTestApp } from '../helpers/local-app';
import { bearer, createUser, json, sendFiles, type TestUser } from '../helpers/transfers';

/**
 * The other e2e files run the production build, where React prints no development warnings
 * (a missing key, an invalid DOM property, a state update during render). Here `npm start`'s
 * dev server (development React under StrictMode, Fast Refresh) serves every screen, public and
 * signed-in, and each must leave the console clean.
 */
let app: LocalApp;
let dev: WebDevServer;
let browser: Browser;
let owner: TestUser;
let transfer: CreateTransferResponse;

/** A 1×1 PNG: enough for the review's image and its pins. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  const port = await getFreePort();
  app = await startTestApp(`http://127.0.0.1:${port}`);
  dev = await startWebDevServer({ port, apiOrigin: app.apiOrigin, storage: [new URL(app.stack.urls.s3).origin] });
  browser = await launchBrowser();
  owner = await createUser(app, 'dev.console@example.com', 'business');
  transfer = await sendFiles(
    app,
    owner,
    new Map([
      ['notes.txt', Buffer.from('hello')],
      ['docs/brief.pdf', Buffer.from('%PDF-1.4 brief')],
    ]),
  );
});

afterAll(async () => {
  await browser?.close();
  await dev?.close();
  await app?.stop();
});

/** Opens each address in turn and waits until the screen has stopped loading. */
async function visit(page: Page, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    await page.goto(`${dev.url}${path}`);
    await page.waitForLoadState('networkidle');
    await page.locator('main, [role="main"], #root > *').first().waitFor();
  }
}

describe('development React, a clean console on every screen', () => {
  it('the watcher sees a console error and an uncaught exception (the check can fail)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${dev.url}/about`);
    await page.evaluate(() => {
      console.error('probe error');
      setTimeout(() => {
        throw new Error('probe exception');
      });
    });
    await expect.poll(() => consoleProblems(context).length).toBe(2);
    expect(consoleProblems(context)).toEqual([
      '/about: console.error: probe error',
      '/about: uncaught: probe exception',
    ]);
    await context.close();
  }, 300_000);

  it('public screens', async () => {
    const context = await newContext(browser);
    await visit(await context.newPage(), [
      '/',
      '/pricing',
      '/about',
      '/updates',
      '/roadmap',
      '/support',
      '/affiliate-program',
      '/appsumoforever',
      '/developers',
      '/login',
      '/register',
      '/product/nope',
      '/no/such/page',
      new URL(transfer.link).pathname,
    ]);
    await closeCleanContext(context);
  }, 300_000);

  it('signed-in screens, the TransferModal included', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, dev.url, owner.email);
    await visit(page, [
      '/dash',
      `/dash/transfers/${transfer.id}`,
      '/dash/contacts',
      '/dash/requests',
      '/dash/analytics',
      '/dash/account',
      '/dash/account/profile',
      '/dash/account/domain',
      '/dash/account/teams',
      '/dash/account/billing',
      '/dash/account/customize',
      '/dash/account/powered-by',
      '/dash/account/webhooks',
      '/dash/account/api-keys',
    ]);
    await closeCleanContext(context);
  }, 300_000);

  it('the review view of a transfer with review on, a pin placed and "who is commenting?" answered', async () => {
    const t = await sendFiles(app, owner, new Map([['frame.png', TINY_PNG]]));
    const on = await api(app, `/transfers/${t.id}/review`, json({ enabled: true }, bearer(owner), 'PATCH'));
    expect(on.status, on.text).toBe(200);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${dev.url}${new URL(t.link).pathname}`);
    await page.getByTestId('review-place-pin').click({ timeout: 60_000 });
    await page.getByTestId('review-draft-pin').press('ArrowLeft');
    await page.getByTestId('review-comment-body').fill('Sharper, please');
    await page.getByTestId('review-comment-submit').click();
    await page.getByTestId('review-identity-name').click();
    await page.getByTestId('review-visitor-name').fill('Dev Reviewer');
    await page.getByTestId('review-visitor-continue').click();
    await page.getByTestId('review-marker').waitFor();
    await closeCleanContext(context);
  }, 300_000);
});
