import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import { startWebDevServer } from '../../frontend/dev-server';
import { getFreePort, newContext } from '../helpers/browser';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { createUser, sendFiles, type TestUser } from '../helpers/transfers';

/**
 * In Chromium, on the built app under its CSP: the home page's formats strip and example
 * toasts, a private page's noindex and referrer policy (and the Referer an outside site really
 * gets), the roadmap's unknown sub-paths, the comparison table's figures, the head of a public
 * page in another language, and robots.txt / sitemap.xml served beside the app.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let context: BrowserContext;
let page: Page;

/** Another origin, standing for an outside site: it records the Referer each visit brings. */
let outside: Server;
let outsideUrl: string;
const referers: (string | undefined)[] = [];

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  owner = await createUser(app, 'seo.owner@example.com', 'pro');
  outside = createServer((req, res) => {
    // the page itself, not the browser's favicon request that follows it
    if (req.url === '/landing') referers.push(req.headers.referer);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>outside</title><p>outside</p>');
  });
  await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
  // "localhost", not 127.0.0.1: another site, as an outside link would be
  outsideUrl = `http://localhost:${(outside.address() as AddressInfo).port}/landing`;
}, 300_000);

afterAll(async () => {
  await new Promise<void>((resolve) => outside?.close(() => resolve()));
  await stopBrowserStack({ app, web, browser });
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

const HOME_HEADING = 'Send big files anywhere. Know when they land.';
const STRIP_HEADING = 'Works with the files and devices you already use';

/** Follows a link to the outside site from the current page and returns the Referer it received. */
async function refererSentOutside(p: Page): Promise<string | undefined> {
  const before = referers.length;
  await p.evaluate((href) => {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = 'outside';
    document.body.append(a);
    a.click();
  }, outsideUrl);
  await p.waitForURL(outsideUrl);
  expect(referers.length).toBe(before + 1);
  return referers[before];
}

describe('home: the formats strip and the example toasts', () => {
  it('shows the strip in its reserved place (nothing moves) and an example toast that is marked, not announced, never focused, and can be hidden', async () => {
    await page.goto(`${web.url}/`);
    await page.getByRole('heading', { level: 1, name: HOME_HEADING }).waitFor();
    const steps = page.getByRole('heading', { level: 2, name: 'How it works' });
    const slot = page.locator('.logo-strip-slot');
    const before = { slot: await slot.boundingBox(), steps: await steps.boundingBox() };

    const strip = page.getByRole('region', { name: STRIP_HEADING });
    await strip.waitFor();
    await expect
      .poll(() => strip.getByRole('listitem').allTextContents())
      .toEqual(expect.arrayContaining(['Windows', 'Android', 'PDF', 'MP4']));
    expect(await strip.textContent()).toContain('Web pages (.htm, .html) are not accepted.');
    // the slot kept its size and the sections after it did not move
    expect(await slot.boundingBox()).toEqual(before.slot);
    expect(await steps.boundingBox()).toEqual(before.steps);

    await page.locator('input[type="email"]').first().focus();
    const focused = await page.evaluate(() => document.activeElement?.outerHTML);
    const toast = page.getByRole('complementary', { name: 'Example activity' });
    await toast.waitFor({ timeout: 60_000 });
    expect(await toast.textContent()).toMatch(/^Example.+ (sent from|Downloaded in) /);
    expect(await toast.getAttribute('aria-live')).toBeNull();
    expect(await toast.locator('[aria-live]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.outerHTML)).toBe(focused);
    // sample geo text: country names, in the page's language
    expect(await toast.textContent()).toMatch(
      /Germany|China|United States|Japan|United Arab Emirates|India|Hong Kong|France|South Korea|Italy|Spain|Brazil/,
    );

    await toast.getByRole('button', { name: 'Hide examples' }).click();
    await toast.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('region', { name: STRIP_HEADING }).waitFor();
    // hidden for the visit: past the moment the first toast would have come (2 s), none came
    await page.waitForTimeout(3500);
    expect(await page.locator('.example-toast').count()).toBe(0);
  });

  it('on a phone-sized screen loads nothing more until the visitor scrolls, then shows the strip (and no toast)', async () => {
    const phone = await newContext(browser, { width: 400, height: 800 });
    try {
      const p = await phone.newPage();
      const loaded: string[] = [];
      p.on('request', (r) => loaded.push(new URL(r.url()).pathname));
      await p.goto(`${web.url}/`);
      await p.getByRole('heading', { level: 1, name: HOME_HEADING }).waitFor();
      await p.waitForTimeout(3000);
      expect(loaded.filter((f) => /home-extras/.test(f))).toEqual([]);
      expect(await p.locator('.logo-strip').count()).toBe(0);
      await p.mouse.wheel(0, 1500);
      await p.getByRole('region', { name: STRIP_HEADING }).waitFor();
      expect(loaded.some((f) => /home-extras/.test(f))).toBe(true);
      await p.waitForTimeout(2500);
      expect(await p.locator('.example-toast:visible').count()).toBe(0);
    } finally {
      await closePage(phone);
    }
  });

  it('shows no toast under prefers-reduced-motion (the strip still comes)', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${web.url}/`);
    await page.getByRole('region', { name: STRIP_HEADING }).waitFor();
    await page.waitForTimeout(3500);
    expect(await page.locator('.example-toast').count()).toBe(0);
  });

  it('shows no toast to a signed-in user', async () => {
    await logIn(page, web.url, owner.email);
    await page.goto(`${web.url}/`);
    await page.waitForURL((u) => u.pathname.startsWith('/dash'));
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.waitForTimeout(3500);
    expect(await page.locator('.example-toast').count()).toBe(0);
  });
});

describe('private pages: noindex and no referrer', () => {
  it('a download page is sent with X-Robots-Tag noindex and Referrer-Policy no-referrer, carries both in its head, and an outside site gets no Referer', async () => {
    const t = await sendFiles(app, owner, new Map([['plan.pdf', Buffer.alloc(1024, 5)]]));
    const path = new URL(t.link).pathname;
    const res = await fetch(`${web.url}${path}`);
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');

    await page.goto(`${web.url}${path}`);
    await page.getByTestId('download-summary').waitFor();
    await expect
      .poll(() => page.locator('meta[name="referrer"][data-route-head]').getAttribute('content'))
      .toBe('no-referrer');
    // one tag, though both the screen and the route rule ask for it
    expect(await page.locator('meta[name="robots"]').count()).toBe(1);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.locator('link[rel="canonical"]').count()).toBe(0);
    expect(await refererSentOutside(page)).toBeUndefined();
  });

  it('a public page is indexable and sends only its origin to an outside site', async () => {
    const res = await fetch(`${web.url}/pricing`);
    expect(res.headers.get('x-robots-tag')).toBeNull();
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    await page.goto(`${web.url}/pricing`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.locator('link[rel="canonical"]').waitFor({ state: 'attached' });
    expect(await page.locator('meta[name="robots"]').count()).toBe(0);
    expect(await refererSentOutside(page)).toBe(`${web.url}/`);
  });

  it('after moving inside the app from a public page to a private one, the outside site still gets no Referer', async () => {
    const t = await sendFiles(app, owner, new Map([['notes.txt', Buffer.from('hello')]]));
    await page.goto(`${web.url}/about`);
    await page.locator('link[rel="canonical"]').waitFor({ state: 'attached' });
    // a client-side navigation: no new document, no header from the server
    await page.evaluate((p) => {
      window.history.pushState({}, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, new URL(t.link).pathname);
    await page.getByTestId('download-summary').waitFor();
    await expect
      .poll(() => page.locator('meta[name="referrer"][data-route-head]').getAttribute('content'))
      .toBe('no-referrer');
    expect(await refererSentOutside(page)).toBeUndefined();
  });
});

describe('public pages', () => {
  it('/roadmap/whatever shows the roadmap with a notice, not the 404 page, and stays out of search', async () => {
    await page.goto(`${web.url}/roadmap/whatever`);
    await page.getByRole('heading', { level: 1, name: 'Roadmap' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/roadmap/whatever');
    expect(await page.getByRole('status').textContent()).toBe(
      'There is no roadmap item called “whatever”. Here is the whole roadmap.',
    );
    expect(await page.getByRole('heading', { level: 2, name: 'Shipped' }).count()).toBe(1);
    expect(await page.locator('meta[name="robots"][content="noindex"]').count()).toBeGreaterThan(0);
    // a known item still shows on its own
    await page.goto(`${web.url}/roadmap/accounts`);
    await page.getByRole('heading', { level: 1, name: 'Accounts and sign-up' }).waitFor();
    expect(await page.getByRole('status').count()).toBe(0);
  });

  it('a comparison page shows both readings of our free plan beside WeTransfer and Smash, with sources and the date checked', async () => {
    await page.goto(`${web.url}/compare/wetransfer`);
    const table = page.getByRole('table', { name: 'Free plan comparison' });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Free plan',
      'SendBridge (advertised)',
      'SendBridge (plan table)',
      'WeTransfer',
      'Smash',
    ]);
    const row = (name: string) =>
      table
        .getByRole('row', { name: new RegExp(`^${name}`) })
        .getByRole('cell')
        .allTextContents();
    expect(await row('Transfer limit')).toEqual(['5 GB', '3 GB', '2 GB', 'No size limit']);
    expect(await row('Link expiry')).toEqual(['14 days', '7 days', 'Not published', '7 days by default, up to 14']);
    expect(await row('Free storage')).toEqual(['10 GB', '10 GB', 'Not published', 'Not published']);
    expect(await row('People per email transfer')).toEqual(['20 people', '6 people', 'Not published', 'Not published']);
    expect(await page.getByText(/checked on November 26, 2026/).count()).toBe(1);
    const sources = page.getByRole('list', { name: 'Sources' }).getByRole('link');
    expect(await sources.allTextContents()).toEqual(['help.wetransfer.com', 'faq.fromsmash.com', 'faq.fromsmash.com']);
    for (const rel of await sources.evaluateAll((links) => links.map((l) => l.getAttribute('rel'))))
      expect(rel).toContain('noreferrer');
  });

  it('a public page in another language has its description, canonical URL and hreflang alternates', async () => {
    await page.goto(`${web.url}/pricing?lng=fr&plan=free`);
    await page.locator('link[rel="canonical"]').waitFor({ state: 'attached' });
    const origin = await page
      .locator('link[rel="canonical"]')
      .evaluate((l) => new URL((l as HTMLLinkElement).href).origin);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${origin}/pricing?lng=fr`);
    const alternates = await page
      .locator('link[rel="alternate"]')
      .evaluateAll((links) => links.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]));
    expect(alternates).toContainEqual(['x-default', `${origin}/pricing`]);
    expect(alternates).toContainEqual(['zh-CN', `${origin}/pricing?lng=zh`]);
    expect(alternates).toHaveLength(9);
    await expect
      .poll(() => page.locator('meta[name="description"]').getAttribute('content'))
      .toMatch(/^Les offres SendBridge/);
    // the sitemap lists the same URLs on the same origin
    const sitemap = await (await fetch(`${web.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${origin}/pricing?lng=fr</loc>`);
  });

  it('robots.txt and sitemap.xml are served beside the app, not the app itself', async () => {
    const robots = await fetch(`${web.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await robots.text();
    expect(text).toMatch(/^User-agent: \*\n/);
    expect(text).toContain('Disallow: /downloads/\n');
    expect(text).toContain('Disallow: /dash\n');
    expect(text).toMatch(/\nSitemap: http:\/\/[^\n]+\/sitemap\.xml\n/);
    const sitemap = await fetch(`${web.url}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    const xml = await sitemap.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    expect(xml).toContain('/compare/wetransfer</loc>');
    expect(xml).not.toContain('/downloads/');
  });

  it("the dev server of npm start answers robots.txt and sitemap.xml too, and sends the private pages' headers", async () => {
    const dev = await startWebDevServer({
      port: await getFreePort(),
      apiOrigin: `http://127.0.0.1:${await getFreePort()}`,
      storage: ['http://127.0.0.1:4569'],
    });
    try {
      const robots = await fetch(`${dev.url}/robots.txt`);
      expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await robots.text()).toContain('Disallow: /r/\n');
      expect(await (await fetch(`${dev.url}/sitemap.xml`)).text()).toContain('/product/works-everywhere?lng=ja</loc>');
      const download = await fetch(`${dev.url}/w/abc1234`);
      expect(download.headers.get('x-robots-tag')).toBe('noindex');
      expect(download.headers.get('referrer-policy')).toBe('no-referrer');
      const home = await fetch(`${dev.url}/`);
      expect(home.headers.get('x-robots-tag')).toBeNull();
      expect(home.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    } finally {
      await dev.close();
    }
  });
});
