import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { startBuiltAppServer, type BuiltAppServer } from '../../frontend/app-server';
import { contentSecurityPolicy } from '../../frontend/csp';
import { startWebDevServer } from '../../frontend/dev-server';
import { closeCleanContext, cspViolations, getFreePort, launchBrowser, newContext } from '../helpers/browser';
import { builtWebDir } from '../helpers/local-app';

/** No bucket is reached by the shell; the CSP still names one, as the app server's would. */
const STORAGE = 'http://127.0.0.1:4569';
let web: BuiltAppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  // No API is needed by the shell; the proxy target is a port nothing listens on.
  const distDir = builtWebDir();
  web = await startBuiltAppServer({
    port: await getFreePort(),
    apiOrigin: `http://127.0.0.1:${await getFreePort()}`,
    storage: [STORAGE],
    ...(distDir ? { distDir } : {}),
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
});

beforeEach(async () => {
  context = await newContext(browser);
  page = await context.newPage();
});

afterEach(async () => {
  // Every screen the shell visits runs under the shipped CSP without a single violation, and
  // leaves the console clean.
  if (context) await closeCleanContext(context);
});

describe('Content-Security-Policy', () => {
  it('the app is served with the CSP of frontend/csp.ts (the one CloudFront sends), storage origin aside', async () => {
    const res = await fetch(`${web.url}/dash/anything`);
    expect(res.headers.get('content-security-policy')).toBe(contentSecurityPolicy({ storage: [STORAGE] }));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('a violation on the page is seen by the test (the watcher works)', async () => {
    const own = await newContext(browser);
    const p = await own.newPage();
    await p.goto(`${web.url}/about`);
    await p.getByRole('heading', { level: 1, name: 'About SendBridge' }).waitFor();
    await p.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
    });
    await p.waitForFunction(() => true);
    await expect.poll(() => cspViolations(own).length).toBe(1);
    expect(cspViolations(own)[0]).toMatch(/^\/about: script-src-elem blocked inline/);
    expect(await p.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    await own.close();
  });

  it('the dev server of npm start sends the same CSP, with a nonce for its one inline script, and home runs under it', async () => {
    const dev = await startWebDevServer({
      port: await getFreePort(),
      apiOrigin: `http://127.0.0.1:${await getFreePort()}`,
      storage: [STORAGE],
    });
    try {
      const res = await fetch(`${dev.url}/`);
      const header = res.headers.get('content-security-policy')!;
      const nonce = /'nonce-([^']+)'/.exec(header)![1]!;
      expect(header).toBe(contentSecurityPolicy({ storage: [STORAGE], scriptNonce: nonce }));
      const html = await res.text();
      for (const tag of html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
      await page.goto(`${dev.url}/`);
      await page
        .getByRole('heading', { level: 1, name: 'Send big files anywhere. Know when they land.' })
        .waitFor({ timeout: 30_000 });
    } finally {
      await dev.close();
    }
  });
});

describe('web shell', () => {
  it('home page shows the hero', async () => {
    await page.goto(`${web.url}/`);

    const hero = page.getByRole('heading', { level: 1 });
    await hero.waitFor();
    expect(await hero.textContent()).toBe('Send big files anywhere. Know when they land.');
    expect(await page.title()).toContain('SendBridge');
    // A visitor without a session stays on home and is offered Log in.
    expect(
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: 'Log in' })
        .getAttribute('href'),
    ).toBe('/login');
  });

  it('an unknown path lands on /404/ with the original path and a noindex meta', async () => {
    await page.goto(`${web.url}/no/such/page?x=1`);

    await page.waitForURL((url) => url.pathname === '/404/');
    const url = new URL(page.url());
    expect(url.searchParams.get('path')).toBe('/no/such/page?x=1');
    await page.getByRole('heading', { name: "This page isn't here" }).waitFor();
    expect(await page.locator('code.path').textContent()).toBe('/no/such/page?x=1');
    expect(await page.locator('head meta[name="robots"]').getAttribute('content')).toBe('noindex');

    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.getByRole('heading', { level: 1, name: 'Send big files anywhere. Know when they land.' }).waitFor();
    // The route head is applied after the navigation renders (lib/seo-head.ts): poll for it.
    await expect.poll(() => page.locator('meta[name="robots"]').count()).toBe(0);
  });

  it('an invite link that does not exist says so on the invite page, not the 404 page', async () => {
    await page.goto(`${web.url}/invite/abc1234`);

    await page.getByTestId('invite-unusable').waitFor();
    expect(new URL(page.url()).pathname).toBe('/invite/abc1234');
  });

  it('the dashboard without a session sends to Login with the way back', async () => {
    await page.goto(`${web.url}/dash/account/profile?tab=1`);

    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dash/account/profile?tab=1');
    await page.getByRole('heading', { level: 1, name: 'Log in to SendBridge' }).waitFor();
  });

  it('the old comparison address redirects to the comparison page', async () => {
    await page.goto(`${web.url}/sinosend-vs-wetransfer`);

    await page.waitForURL((url) => url.pathname === '/compare/wetransfer');
    await page.getByRole('heading', { level: 1, name: 'SendBridge vs WeTransfer' }).waitFor();
  });

  it('every served route renders its screen', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const screens: [path: string, heading: string][] = [
      ['/index.html', 'Send big files anywhere. Know when they land.'],
      ['/pricing?plan=free&save=1', 'Simple pricing for big files'],
      ['/signup', 'Simple pricing for big files'],
      ['/welcomeback', 'Simple pricing for big files'],
      ['/about', 'About SendBridge'],
      ['/updates', 'Updates'],
      ['/roadmap', 'Roadmap'],
      ['/roadmap/accounts', 'Accounts and sign-up'],
      ['/support/anything', 'Support'],
      ['/support?article=file-types', 'Support'],
      ['/affiliate-program/', 'Affiliate program'],
      ['/appsumoforever', 'SendBridge lifetime deal'],
      ['/thankyou', 'Thank you!'],
      ['/accept-invite', 'Thank you!'],
      ['/thankyou2', 'Your free trial has started'],
      ['/product/works-everywhere', 'Works everywhere'],
      ['/compare/china', 'How to send big files to China'],
      ['/how-to-send-big-files-to-china', 'How to send big files to China'],
      ['/login', 'Log in to SendBridge'],
      ['/signup/login?user=jane%40example.com', 'Log in to SendBridge'],
      ['/register?step=1&plan=pro', 'Welcome to SendBridge'],
      ['/updatepassword', 'Set a new password'],
      ['/developers', 'SendBridge API'],
    ];
    for (const [path, heading] of screens) {
      await page.goto(`${web.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor({ timeout: 60_000 });
    }
    expect(errors).toEqual([]);
  });

  it('the support page shows the article named in the query', async () => {
    await page.goto(`${web.url}/support?article=file-types`);

    await page.getByRole('article').getByRole('heading', { name: "Which files can't I upload?" }).waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
  });

  // an unknown roadmap item shows the roadmap with a notice instead (test/e2e/seo-marketing.test.ts)
  it('an unknown product or comparison is a missing page', async () => {
    for (const path of ['/product/nope', '/compare/nope']) {
      await page.goto(`${web.url}${path}`);
      await page.waitForURL((url) => url.pathname === '/404/');
      expect(new URL(page.url()).searchParams.get('path')).toBe(path);
    }
  });

  it('the footer switch to 中文 translates the UI and persists across a reload', async () => {
    await page.goto(`${web.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Send big files anywhere. Know when they land.' }).waitFor();

    await page.getByRole('contentinfo').getByRole('button', { name: '中文' }).click();

    const zhHero = page.getByRole('heading', { level: 1, name: '大文件，随处发送。送达与否，一目了然。' });
    await zhHero.waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await page.reload();
    await zhHero.waitFor();
    expect(await page.getByRole('contentinfo').getByRole('button', { name: '中文' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });
});
