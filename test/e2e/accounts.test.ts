import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { closeCleanContext, getFreePort, launchBrowser, newContext } from '../helpers/browser';
import { startTestApp, startTestWeb } from '../helpers/local-app';
import { createUser, waitForMail } from '../helpers/transfers';
import { putSenderProfile } from '../../functions/data/users';
import { GB } from '../../functions/domain/units';

/**
 * Accounts as a new user meets them in Chromium: register a free account through the three
 * steps with the code from the local inbox, land on the dashboard, log out, log in again, reset
 * the password by the mailed link; and a pro user sends a link with a 1-month expiry.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;

beforeAll(async () => {
  const port = await getFreePort();
  const origin = `http://127.0.0.1:${port}`;
  app = await startTestApp(origin);
  web = await startTestWeb(port, app);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await app?.stop();
});

async function codeFrom(email: string): Promise<string> {
  const mail = await waitForMail(app, email, /\b\d{5}\b/);
  return /\b(\d{5})\b/.exec(mail.body.text)![1]!;
}

async function logOut(page: Page) {
  await page.getByTestId('nav-avatar').click();
  await Promise.all([page.waitForEvent('load'), page.getByTestId('nav-logout').click()]);
  await page.getByTestId('nav-login').first().waitFor();
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto(`${web.url}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => u.pathname.startsWith('/dash'));
  await page.getByTestId('dashboard-greeting').waitFor();
}

describe('a new user', () => {
  const email = 'e2e.newbie@example.com';

  it('registers a free account in three steps, lands on the dashboard, logs out and in, and resets the password', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();

    await page.goto(`${web.url}/register?plan=free`);
    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-continue').click();
    await page.waitForURL((u) => u.searchParams.get('step') === '2');
    const code = await codeFrom(email);
    for (let i = 0; i < 5; i += 1) await page.getByTestId(`code-box-${i}`).fill(code[i]!);
    await page.waitForURL((u) => u.searchParams.get('step') === '3');
    await page.getByTestId('register-name').fill('Newbie Example');
    await page.getByTestId('register-password').fill('first-pass');
    await page.getByTestId('register-company').fill('Example Ltd');
    await page.getByTestId('register-submit').click();
    await page.waitForURL((u) => u.pathname.startsWith('/dash'), { timeout: 60_000 });
    await page.getByTestId('dashboard-greeting').waitFor();
    expect(await page.getByTestId('dashboard-greeting').textContent()).toContain('Newbie');

    // A reload keeps the session through the refresh cookie.
    await page.reload();
    await page.getByTestId('dashboard-greeting').waitFor();

    await logOut(page);
    await page.goto(`${web.url}/dash`);
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === '/dash');

    await logIn(page, email, 'first-pass');
    await logOut(page);

    await page.goto(`${web.url}/login`);
    await page.getByTestId('login-forgot').click();
    await page.getByTestId('forgot-email').fill(email);
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('reset-sent').waitFor();
    const mail = await waitForMail(app, email, /\/updatepassword\?t=/);
    const link = /(https?:\/\/\S+\/updatepassword\?t=[A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!;
    await page.goto(link);
    await page.getByTestId('update-password-input').fill('second-pass');
    await page.getByTestId('update-password-submit').click();
    await page.getByTestId('update-password-done').waitFor();

    await logIn(page, email, 'second-pass');
    await closeCleanContext(context);
  }, 300_000);
});

describe('a signed-in pro user', () => {
  it('sends a link with a 1-month expiry from the dashboard', async () => {
    const user = await createUser(app, 'e2e.pro@example.com', 'pro');
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, user.email, 'secret123');

    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 demo') });
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByLabel('Get a link to share myself').check();
    await page.getByRole('tab', { name: 'Expiry' }).click();
    await page.getByLabel('1 Month').check();
    await page.getByTestId('send-submit').click();
    await page.getByText("You're all done!").waitFor({ timeout: 60_000 });
    const link =
      (await page
        .getByTestId('done-link')
        .inputValue()
        .catch(() => page.getByTestId('done-link').textContent())) ?? '';
    expect(link).toMatch(/\/w\/[A-Za-z0-9]{7}$/);

    const slug = /\/w\/([A-Za-z0-9]{7})$/.exec(link)![1]!;
    const view = await fetch(`${app.apiOrigin}/api/getDownload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: slug }),
    });
    const body = (await view.json()) as { expiryDate: number; fileCount: number };
    expect(body.fileCount).toBe(1);
    const days = (body.expiryDate - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(30);
    expect(days).toBeLessThan(31);
    await closeCleanContext(context);
  }, 300_000);
});

describe('a user near the storage cap', () => {
  it('sees the storage warning on the dashboard, and the limit screen once full', async () => {
    const user = await createUser(app, 'e2e.nearly.full@example.com', 'free');
    await putSenderProfile({ userId: user.sub, email: user.email, role: 'free', storageUsed: 9.5 * GB });
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, user.email, 'secret123');
    expect(await page.getByTestId('storage-bar').getAttribute('data-state')).toBe('warning');

    await putSenderProfile({ userId: user.sub, email: user.email, role: 'free', storageUsed: 10 * GB });
    await page.reload();
    await page.getByTestId('limit-screen').waitFor();
    expect(await page.getByTestId('limit-screen').getAttribute('data-reason')).toBe('storage_full');
    expect(await page.getByTestId('limit-screen').textContent()).toContain('Your storage is now full.');
    await closeCleanContext(context);
  }, 300_000);
});
