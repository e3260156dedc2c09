import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { closeCleanContext, getFreePort, launchBrowser, newContext } from './browser';
import { startTestApp, startTestWeb } from './local-app';

/**
 * The signed-in e2e files' common ground: the emulators and gateway, the built app on a free
 * port under its CSP, Chromium; a fresh context per test whose CSP report and console must stay empty; and
 * signing in. (Scenes are set through the API: sendFiles, downloadFrom in ./transfers.)
 */
export interface BrowserStack {
  readonly app: LocalApp;
  readonly web: BuiltAppServer;
  readonly browser: Browser;
}

export async function startBrowserStack(): Promise<BrowserStack> {
  const port = await getFreePort();
  const app = await startTestApp(`http://127.0.0.1:${port}`);
  const web = await startTestWeb(port, app);
  return { app, web, browser: await launchBrowser() };
}

export async function stopBrowserStack(stack: Partial<BrowserStack> | undefined): Promise<void> {
  await stack?.browser?.close();
  await stack?.web?.close();
  await stack?.app?.stop();
}

export async function openPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  return { context, page: await context.newPage() };
}

/**
 * Closes the test's context; every screen it showed ran under the shipped CSP without a
 * violation and left the console clean (no React warning, no error).
 */
export async function closePage(context: BrowserContext | undefined): Promise<void> {
  if (!context) return;
  await closeCleanContext(context);
}

/** Signs in on /login and waits for the dashboard's greeting. */
export async function logIn(page: Page, webUrl: string, email: string, password = 'secret123'): Promise<void> {
  await page.goto(`${webUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => u.pathname.startsWith('/dash'));
  await page.getByTestId('dashboard-greeting').waitFor();
}
