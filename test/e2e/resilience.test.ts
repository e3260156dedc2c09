/**
 * In Chromium, on the built app under its CSP: lazy chunks that fail are fetched again
 * (with a fresh URL: Chromium keeps a failed module in its module map) and the screen renders;
 * a chunk that never comes shows the translated reload screen; a chunk the deployment no longer
 * has reloads the page once into the new version and never loops; a send whose create answer
 * is lost on the way back is retried with its Idempotency-Key and makes one transfer; zh and ja
 * pages take their own CJK system fonts; a download page in French says French words, sizes and
 * dates.
 */
import type { BrowserContext, Page, Route } from 'playwright-core';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { closePage, openPage, startBrowserStack, stopBrowserStack, type BrowserStack } from '../helpers/browser-stack';
import { guestSendInBrowser } from '../helpers/guest-send';
import { createUser, sendFiles } from '../helpers/transfers';
import { IDEMPOTENCY_KEY_PATTERN } from '../../functions/domain/retry-policy';

let stack: BrowserStack;
let context: BrowserContext | undefined;

beforeAll(async () => {
  stack = await startBrowserStack();
}, 300_000);

afterAll(async () => {
  await stopBrowserStack(stack);
});

afterEach(async () => {
  await closePage(context);
  context = undefined;
});

async function fresh(): Promise<Page> {
  const opened = await openPage(stack.browser);
  context = opened.context;
  return opened.page;
}

const ABOUT_CHUNK = '**/assets/about-page-*.js*';
const aboutHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'About SendBridge' });

describe('lazy screens: chunk retries (spec §9)', () => {
  it('a chunk request that fails twice still renders the screen, fetched again under a fresh URL', async () => {
    const page = await fresh();
    const gets: string[] = [];
    await page.route(ABOUT_CHUNK, async (route: Route) => {
      if (route.request().method() !== 'GET') return route.continue();
      gets.push(new URL(route.request().url()).search);
      return gets.length <= 2 ? route.abort('connectionreset') : route.continue();
    });
    await page.goto(`${stack.web.url}/about`);
    await aboutHeading(page).waitFor({ timeout: 30_000 });
    expect(gets).toEqual(['', '?retry=1', '?retry=2']);
  }, 300_000);

  it("a chunk that never arrives ends on the reload screen, in the visitor's language, and Reload recovers", async () => {
    const page = await fresh();
    let gets = 0;
    await page.route(ABOUT_CHUNK, (route: Route) => {
      if (route.request().method() === 'GET') gets += 1;
      return route.request().method() === 'GET' ? route.abort('connectionreset') : route.continue();
    });
    await page.goto(`${stack.web.url}/about?lng=fr`);
    const alert = page.getByRole('alert');
    await alert.getByRole('heading', { level: 1, name: 'Un problème est survenu' }).waitFor({ timeout: 40_000 });
    expect(await alert.textContent()).toContain('Vérifiez votre connexion');
    expect(gets).toBe(6); // the first try and 5 retries
    await page.unroute(ABOUT_CHUNK);
    await alert.getByRole('button', { name: 'Recharger' }).click();
    await page.getByRole('heading', { level: 1, name: 'À propos de SendBridge' }).waitFor({ timeout: 60_000 });
  }, 300_000);

  it('after a deploy, a chunk that is gone reloads the page once into the new version', async () => {
    const page = await fresh();
    let gone = true;
    const seen: string[] = [];
    await page.route(ABOUT_CHUNK, (route: Route) => {
      const method = route.request().method();
      seen.push(`${method} ${gone ? 404 : 200}`);
      if (!gone) return route.continue();
      // the deploy replaced the old chunk: the reload's index.html names the new one
      if (method === 'HEAD') gone = false;
      return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
    });
    let documents = 0;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents += 1;
    });
    await page.goto(`${stack.web.url}/about`);
    await aboutHeading(page).waitFor({ timeout: 60_000 });
    expect(documents).toBe(2);
    expect(seen).toEqual(['GET 404', 'HEAD 404', 'GET 200']);
    expect(Number(await page.evaluate(() => sessionStorage.getItem('sendbridge:stale-chunk-reload')))).toBeGreaterThan(
      0,
    );
  }, 300_000);

  it('a chunk still gone after that reload shows the reload screen instead of reloading again', async () => {
    const page = await fresh();
    await page.route(ABOUT_CHUNK, (route: Route) =>
      route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }),
    );
    let documents = 0;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents += 1;
    });
    await page.goto(`${stack.web.url}/about`);
    await page.getByRole('alert').getByRole('button', { name: 'Reload' }).waitFor({ timeout: 40_000 });
    expect(documents).toBe(2);
  }, 300_000);
});

async function transfersWithFirstFile(fileName: string): Promise<string[]> {
  const slugs: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await dynamo().send(
      new ScanCommand({
        TableName: stack.app.stack.env.TABLE_NAME!,
        FilterExpression: 'sk = :meta AND fileName = :name',
        ExpressionAttributeValues: { ':meta': 'META', ':name': fileName },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const i of out.Items ?? []) slugs.push(String(i.slug));
    start = out.LastEvaluatedKey;
  } while (start);
  return slugs;
}

describe('a send whose create answer is lost', () => {
  it('is retried with the same Idempotency-Key and makes exactly one transfer', async () => {
    const page = await fresh();
    const fileName = `dropped-answer-${Date.now()}.txt`;
    const creates: { key: string | undefined; answered: number }[] = [];
    await page.route('**/api/transfers', async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const key = route.request().headers()['idempotency-key'];
      if (creates.length === 0) {
        // the request reaches the server, which creates the transfer; its answer never arrives
        const res = await route.fetch();
        creates.push({ key, answered: res.status() });
        return route.abort('connectionreset');
      }
      creates.push({ key, answered: 0 });
      return route.continue();
    });
    await page.goto(`${stack.web.url}/`);
    await page
      .getByTestId('file-input')
      .setInputFiles([{ name: fileName, mimeType: 'text/plain', buffer: Buffer.from('resilient send\n') }]);
    await guestSendInBrowser(page, stack.app, {
      sender: 'dropped.sender@example.com',
      recipient: 'dropped.recipient@example.com',
    });
    expect(creates).toHaveLength(2);
    expect(creates[0]!.answered).toBe(201);
    expect(creates[0]!.key).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(creates[1]!.key).toBe(creates[0]!.key);
    expect(await transfersWithFirstFile(fileName)).toHaveLength(1);
  }, 300_000);
});

describe('languages', () => {
  const fontOf = (page: Page) => page.evaluate(() => getComputedStyle(document.body).fontFamily);

  it('zh and ja pages take their own CJK system fonts, Latin ones keep the UI stack', async () => {
    const page = await fresh();
    await page.goto(`${stack.web.url}/about?lng=zh`);
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const zh = await fontOf(page);
    expect(zh).toContain('"PingFang SC"');
    expect(zh).toContain('"Noto Sans CJK SC"');
    expect(zh).not.toContain('Hiragino Sans,');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/\p{Script=Han}/u);

    await page.goto(`${stack.web.url}/about?lng=ja`);
    await page.waitForFunction(() => document.documentElement.lang === 'ja');
    const ja = await fontOf(page);
    expect(ja).toContain('"Hiragino Sans"');
    expect(ja).toContain('"Noto Sans CJK JP"');
    expect(ja).not.toContain('PingFang');

    await page.goto(`${stack.web.url}/about?lng=ko`);
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    expect(await fontOf(page)).toContain('"Apple SD Gothic Neo"');

    await page.goto(`${stack.web.url}/about?lng=fr`);
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    expect(await fontOf(page)).not.toContain('CJK');
  }, 300_000);

  it('a download page in French says French words, a French size and a French date', async () => {
    const sender = await createUser(stack.app, `fr.sender.${Date.now()}@example.com`, 'pro');
    const t = await sendFiles(
      stack.app,
      sender,
      new Map([
        ['rapport.txt', new Uint8Array(1500)],
        ['notes.txt', new Uint8Array(1500)],
      ]),
    );
    const page = await fresh();
    await page.goto(`${stack.web.url}${new URL(t.link).pathname}?lng=fr`);
    await page.getByTestId('download-summary').waitFor();
    expect(await page.getByTestId('download-summary').textContent()).toMatch(/2 fichiers · 3\s?ko/u);
    const expiry = (await page.getByTestId('download-expiry').textContent()) ?? '';
    const frenchDate = await page.evaluate(
      (at) => new Intl.DateTimeFormat('fr', { day: 'numeric', month: 'long', year: 'numeric' }).format(at),
      t.expiryDate,
    );
    expect(expiry).toContain('Expire le');
    expect(expiry).toContain(frenchDate);
    expect(expiry).toMatch(
      /(janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4} à \d{2}:\d{2}/u,
    );
    const sizes = await page.locator('[data-testid="download-file"]').count();
    expect(sizes).toBe(2);
    expect(await page.locator('.download-file-meta').first().textContent()).toMatch(/1,5\s?ko/u);
  }, 300_000);
});
