import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { newContext, seriousAxeViolations } from '../helpers/browser';
import { closePage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { createUser, sendFiles } from '../helpers/transfers';

/**
 * The prerendered public pages on the built app as CloudFront serves them: home and the
 * download page's shell are HTML in the visitor's language (Accept-Language, or ?lng=) before
 * any script runs, with no inline script; with the app's scripts blocked they still show their
 * content (home's hero and quick send, the shell's header and footer), inert, and pass axe; with the
 * scripts, home hydrates without a console error (closePage fails the test on any) and works,
 * another language stored in the browser renders over it, and the download page replaces
 * its shell with the transfer.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let downloadPath: string;

async function html(path: string, acceptLanguage: string): Promise<string> {
  const res = await fetch(`${web.url}${path}`, { headers: { 'accept-language': acceptLanguage } });
  expect(res.status).toBe(200);
  return res.text();
}

/** A context whose pages get the HTML but none of the app's scripts: what paints before JavaScript. */
async function withoutScripts(locale = 'en-US'): Promise<BrowserContext> {
  const context = await newContext(browser, { locale, width: 412, height: 823 });
  await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
  return context;
}

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  const owner = await createUser(app, 'prerendered@example.com', 'pro');
  const t = await sendFiles(
    app,
    owner,
    new Map<string, Uint8Array>([['minutes.txt', Buffer.from('Minutes of the meeting.\n')]]),
  );
  downloadPath = new URL(t.link).pathname;
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));

describe('prerendered pages', () => {
  it('serves home in the language asked for, as HTML with its content and no inline script', async () => {
    const fr = await html('/', 'fr-FR,fr;q=0.9,en;q=0.8');
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain('data-prerendered="home:fr"');
    expect(fr).toMatch(/<h1 class="hero-title">Envoyez de gros fichiers/);
    expect(fr).toContain('data-testid="quick-send"');
    expect(await html('/?lng=ja', 'fr-FR')).toContain('<html lang="ja">');
    expect(await html('/', 'nl-NL,nl;q=0.9')).toContain('data-prerendered="home:en"');
    for (const page of [fr, await html(downloadPath, 'de-DE')]) {
      // every script is a file of the build, which the CSP's script-src 'self' allows
      for (const tag of page.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/\bsrc="\/assets\/[^"]+\.js"/);
      expect(page).not.toMatch(/<script\b[^>]*>[^<]/);
    }
    const shell = await html(downloadPath, 'de-DE');
    expect(shell).toContain('<html lang="de">');
    expect(shell).toContain('data-prerendered="download:de" data-shell=""');
    expect(shell).toContain('class="top-nav"');
  });

  it('shows home and the download shell before any script runs, and both pass axe', async () => {
    const context = await withoutScripts();
    try {
      const page = await context.newPage();
      await page.goto(`${web.url}/`, { waitUntil: 'domcontentloaded' });
      await expect.poll(() => page.locator('h1').textContent()).toContain('Send big files anywhere');
      // inert until the app runs: nothing typed or clicked before then is lost
      expect(await page.locator('#root').getAttribute('inert')).toBe('');
      expect(await page.getByTestId('quick-send').isVisible()).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.goto(`${web.url}${downloadPath}`, { waitUntil: 'domcontentloaded' });
      expect(await page.locator('header.top-nav').isVisible()).toBe(true);
      expect(await page.getByRole('status').count()).toBe(1);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await closePage(context);
    }
  });

  it('hydrates home without a console error, and the quick send takes files picked before it hydrated', async () => {
    const context = await newContext(browser, { locale: 'fr-FR' });
    try {
      const page = await context.newPage();
      // hold the entry back until a file has been picked in the prerendered form
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await context.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${web.url}/`, { waitUntil: 'domcontentloaded' });
      await page.getByTestId('quick-send').waitFor();
      await page
        .getByTestId('file-input')
        .setInputFiles({ name: 'plan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 plan') });
      release();
      await page.getByText('plan.pdf').first().waitFor();
      expect(await page.evaluate(() => [document.documentElement.lang, document.title])).toEqual([
        'fr',
        'Envoyez de gros fichiers avec suivi · SendBridge',
      ]);
      // the app has started: the page is no longer inert
      expect(await page.locator('#root').getAttribute('inert')).toBeNull();
    } finally {
      await closePage(context);
    }
  });

  it('renders over the prerendered home when the browser stored another language', async () => {
    const context = await newContext(browser, { locale: 'en-US' });
    try {
      await context.addInitScript(() => {
        if (location.protocol === 'http:') localStorage.setItem('sendbridge.lng', 'de');
      });
      const page = await context.newPage();
      await page.goto(`${web.url}/`);
      await page.waitForFunction(() => document.documentElement.lang === 'de');
      await expect.poll(() => page.locator('h1').textContent()).toContain('Große Dateien');
      await page
        .getByTestId('file-input')
        .setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') });
      await page.getByText('a.txt').first().waitFor();
    } finally {
      await closePage(context);
    }
  });

  it('replaces the download shell with the transfer', async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(`${web.url}${downloadPath}`);
      await page.getByTestId('download-summary').waitFor();
      await page.getByText('minutes.txt').first().waitFor();
      expect(await page.locator('header.top-nav').count()).toBe(1);
    } finally {
      await closePage(context);
    }
  });
});
