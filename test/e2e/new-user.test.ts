import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getProfile, putSenderProfile } from '../../functions/data/users';
import {
  closePage,
  logIn,
  openPage,
  startBrowserStack,
  stopBrowserStack,
  type BrowserStack,
} from '../helpers/browser-stack';
import { SEO_PAGES } from '../../frontend/src/app/seo-routes';
import { api } from '../helpers/local-app';
import { bearer, createUser, json, sendFiles, waitForMail } from '../helpers/transfers';

/**
 * What a new user tripped over, each in Chromium on the built app under its CSP, at a laptop's
 * 1280 px: the billing page of a plan held without a subscription, the dashboard bar's tabs,
 * the way from an accepted invite into the dashboard, the network after a public page's load,
 * the example toasts during the visitor's own upload, a new account's what's-new count, the
 * transfer filters' counts, the pricing page's plan table, the /developers reference in zh, and
 * the upload progress's file count and finishing state.
 */
let stack: BrowserStack;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  stack = await startBrowserStack();
}, 300_000);
afterAll(() => stopBrowserStack(stack));
beforeEach(async () => {
  ({ context, page } = await openPage(stack.browser));
});
afterEach(() => closePage(context));

/** A just-made account: its profile carries its creation time, as sign-up writes it. */
async function newAccount(email: string, role: string) {
  const user = await createUser(stack.app, email, role);
  const profile = await getProfile(user.sub);
  await putSenderProfile({ ...profile!, createdAt: Date.now() });
  return user;
}

describe('a plan held without a subscription', () => {
  it('shows on the billing page as that plan, with nothing to renew or cancel, as the account page does', async () => {
    // a seeded or lifetime-deal Pro account: its plan is on the profile, no subscription anywhere
    const user = await createUser(stack.app, 'held.pro@example.com', 'pro');
    await logIn(page, stack.web.url, user.email);
    await page.goto(`${stack.web.url}/dash/account/billing`);
    await page.getByTestId('billing-held').waitFor();
    expect(await page.getByTestId('billing-plan').textContent()).toBe('Pro');
    expect(await page.getByTestId('billing-subscription').textContent()).toContain(
      'Pro plan, held without a subscription — nothing to renew or cancel.',
    );
    expect(await page.getByTestId('billing-none').count()).toBe(0);
    expect(await page.getByText('Your account is on the free plan').count()).toBe(0);
  });
});

describe('the dashboard bar at 1280 px', () => {
  it('shows every tab whole and uncovered beside the What’s new and Feedback buttons', async () => {
    const user = await newAccount('bar.user@example.com', 'free');
    await logIn(page, stack.web.url, user.email);
    await page.getByTestId('dash-tab-settings').waitFor();
    await page.getByTestId('whats-new').waitFor();
    const tabs = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.dash-tab')].map((tab) => {
        const r = tab.getBoundingClientRect();
        const nav = tab.closest('nav')!.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        const right = document.elementFromPoint(r.right - 2, r.top + r.height / 2);
        return {
          name: tab.textContent,
          inside: r.left >= nav.left - 0.5 && r.right <= nav.right + 0.5,
          hit: !!hit && tab.contains(hit),
          rightEdge: !!right && tab.contains(right),
        };
      }),
    );
    expect(tabs.map((t) => t.name)).toContain('Region');
    expect(tabs.map((t) => t.name)).toContain('Settings');
    expect(tabs.filter((t) => !t.inside || !t.hit || !t.rightEdge)).toEqual([]);
    // the buttons are still there, named for assistive technology and as a tooltip
    expect(await page.getByRole('button', { name: /What's new/ }).isVisible()).toBe(true);
    expect(await page.getByTestId('feedback-open').getAttribute('title')).toBe('Feedback');
    await page.getByTestId('dash-tab-settings').click();
    await page.waitForURL((u) => u.pathname === '/dash/settings');
  });
});

describe('after accepting an invite', () => {
  it('the new member goes on to the dashboard from the thank-you page', async () => {
    const admin = await createUser(stack.app, 'invite.admin@example.com', 'business');
    const invitee = 'invite.member@example.com';
    const sent = await api(
      stack.app,
      '/teams/invites',
      json({ email: invitee, lang: 'en' }, { ...bearer(admin), 'idempotency-key': 'invite-key-0000000000a' }),
    );
    expect(sent.status, sent.text).toBe(201);
    const mail = await waitForMail(stack.app, invitee, /\/invite\/[A-Za-z0-9_-]{43}/);
    const link = /(https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!;
    await page.goto(link);
    await page.getByLabel('Full name').fill('Ivy Invitee');
    await page.getByLabel('Password').fill('Member-pass-123');
    await page.getByRole('button', { name: 'Join team' }).click();
    await page.waitForURL((u) => u.pathname === '/accept-invite');
    const go = page.getByRole('link', { name: 'Go to your dashboard' });
    await go.click();
    await page.waitForURL((u) => u.pathname === '/dash');
    await page.getByTestId('dashboard-greeting').waitFor();
  });

  it('a visitor who is not signed in still gets home and support there', async () => {
    await page.goto(`${stack.web.url}/thankyou`);
    await page.getByRole('link', { name: 'Back to home' }).waitFor();
    expect(await page.getByRole('link', { name: 'Go to your dashboard' }).count()).toBe(0);
  });
});

describe("a brand-new account's what's new", () => {
  it('counts no entry older than the account', async () => {
    const user = await newAccount('fresh.user@example.com', 'free');
    const changelog = page.waitForResponse((r) => r.url().includes('/api/canny/changelog'));
    await logIn(page, stack.web.url, user.email);
    const entries = ((await (await changelog).json()) as { entries: unknown[] }).entries;
    // the product has a history: without the account's age every entry would count
    expect(entries.length).toBeGreaterThan(0);
    await page.getByTestId('whats-new').waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByTestId('whats-new-count').count()).toBe(0);
  });
});

describe('the transfer filters', () => {
  it('every filter tab shows its count', async () => {
    const user = await newAccount('filters.user@example.com', 'pro');
    await sendFiles(stack.app, user, new Map([['notes.txt', Buffer.from('hello')]]));
    await logIn(page, stack.web.url, user.email);
    await page.goto(`${stack.web.url}/dash/transfers`);
    await page.getByTestId('transfer-row').first().waitFor();
    const tabs = page.locator('[data-testid^="transfers-filter-"]');
    await expect.poll(() => tabs.count()).toBeGreaterThanOrEqual(5);
    const counts = await tabs.evaluateAll((els) =>
      els.map((el) => ({
        tab: el.getAttribute('data-testid'),
        count: el.querySelector('.tr-filter-count')?.textContent ?? null,
      })),
    );
    expect(counts.filter((c) => c.count === null)).toEqual([]);
    const byTab = Object.fromEntries(counts.map((c) => [c.tab, c.count]));
    expect(byTab).toMatchObject({
      'transfers-filter-all': '1',
      'transfers-filter-active': '1',
      'transfers-filter-unseen': '1',
      'transfers-filter-expiring': '0',
    });
  });
});

describe('the pricing page at 1280 px', () => {
  it('shows the whole plan table, no column cut off', async () => {
    for (const lng of ['en', 'de']) {
      await page.goto(`${stack.web.url}/pricing?lng=${lng}`);
      const table = page.locator('table.plan-table');
      await table.waitFor();
      await page.getByTestId('plan-table-trial-pro').waitFor();
      const fit = await table.evaluate((t) => {
        const wrap = t.parentElement!;
        const r = t.getBoundingClientRect();
        const w = wrap.getBoundingClientRect();
        return { tableRight: r.right, wrapRight: w.right, scroll: wrap.scrollWidth, client: wrap.clientWidth };
      });
      expect(fit.scroll, lng).toBeLessThanOrEqual(fit.client);
      expect(fit.tableRight, lng).toBeLessThanOrEqual(fit.wrapRight + 0.5);
      // nor is the page itself wider than the window
      expect(await page.evaluate(() => document.documentElement.scrollWidth), lng).toBeLessThanOrEqual(1280);
    }
  });
});

describe('the /developers reference in Chinese', () => {
  it('describes the API routes in zh through the catalogues', async () => {
    await page.goto(`${stack.web.url}/developers?lng=zh`);
    const create = page.locator('[data-operation="POST /v1/transfers"]');
    await create.waitFor();
    expect(await create.locator('.dev-summary strong').textContent()).toBe('创建传输');
    expect(await create.textContent()).toContain('开始一次邮件或链接发送');
    expect(await create.textContent()).not.toContain('Starts an email or link send');
    expect(await page.locator('#dev-tag-Uploads').textContent()).toBe('上传');
  });
});

/**
 * Every request the page makes (documents, scripts, API calls, images) during `watchMs` once it
 * has settled: loaded, then a spell of `quietMs` without any request. A slow machine only moves
 * the start-up requests (the recovery chunk fetched 2 s after the app starts) later, into the
 * settling; a page that keeps polling never settles, or polls again within the watch.
 */
async function requestsOnceSettled(p: Page, path: string, quietMs: number, watchMs: number): Promise<string[]> {
  const seen: string[] = [];
  const onRequest = (r: { url(): string; method(): string }) =>
    void seen.push(`${r.method()} ${new URL(r.url()).pathname}`);
  p.on('request', onRequest);
  try {
    await p.goto(`${stack.web.url}${path}`, { waitUntil: 'load' });
    for (let spell = 0; ; spell += 1) {
      const before = seen.length;
      await p.waitForTimeout(quietMs);
      if (seen.length === before) break;
      if (spell === 9) return seen.slice(before);
    }
    const from = seen.length;
    await p.waitForTimeout(watchMs);
    return seen.slice(from);
  } finally {
    p.off('request', onRequest);
  }
}

describe('the network after a public page has loaded', () => {
  it('goes idle within three seconds on every indexable page, for a visitor', async () => {
    // Four tabs of the visitor's context at a time: the watching is mostly waiting. Chunk
    // recovery (the failure paths) is fetched 2 s after the app starts, on purpose: allow it, then nothing.
    const queue = SEO_PAGES.map(({ path }) => path);
    const late: Record<string, string[]> = {};
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const tab = await context.newPage();
        for (let path = queue.shift(); path !== undefined; path = queue.shift())
          late[path] = await requestsOnceSettled(tab, path, 3_000, 3_000);
      }),
    );
    expect(late).toEqual(Object.fromEntries(SEO_PAGES.map(({ path }) => [path, []])));
  }, 300_000);

  it('goes idle for a signed-in user too: the bell reads once outside the dashboard, no polling', async () => {
    const user = await newAccount('idle.user@example.com', 'pro');
    await logIn(page, stack.web.url, user.email);
    // watched longer than the dashboard's polling interval (15 s)
    for (const path of ['/about', '/developers'])
      expect(await requestsOnceSettled(page, path, 3_000, 16_000), path).toEqual([]);
    // the dashboard still keeps the bell up to date
    const polls: number[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/notifications') polls.push(Date.now());
    });
    await page.goto(`${stack.web.url}/dash`);
    await page.getByTestId('dashboard-greeting').waitFor();
    await expect.poll(() => polls.length, { timeout: 60_000, interval: 1000 }).toBeGreaterThanOrEqual(2);
  }, 300_000);
});

describe('the example toasts on home', () => {
  it('stop once the visitor starts an upload', async () => {
    await page.goto(`${stack.web.url}/`);
    const toast = page.locator('.example-toast');
    await toast.waitFor({ timeout: 60_000 });
    // the storage holds the upload's bytes a while, so it runs across a whole toast cycle (7.8 s)
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.origin === new URL(stack.app.stack.urls.s3).origin,
      async (route) => {
        if (route.request().method() === 'PUT') await held;
        await route.continue();
      },
    );
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'mine.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(64 * 1024, 7) });
    // a guest sends by email: the mailed code, then the upload starts
    const sender = 'guest.uploader@example.com';
    await page.getByTestId('sender-email').fill(sender);
    await page.getByTestId('recipients-input').fill('friend@example.com');
    await page.getByTestId('recipients-input').press('Enter');
    await page.getByTestId('send-submit').click();
    const codeMail = await waitForMail(stack.app, sender, /\b\d{5}\b/);
    await page.getByTestId('code-input').fill(/\b(\d{5})\b/.exec(codeMail.body.text)![1]!);
    await page.getByTestId('verify-button').click();
    await page.getByTestId('progress-phase').waitFor();
    const seen: number[] = [];
    for (let i = 0; i < 18; i += 1) {
      seen.push(await toast.count());
      await page.waitForTimeout(500);
    }
    expect(await page.getByTestId('progress-phase').count()).toBe(1);
    expect(seen.filter((n) => n > 0)).toEqual([]);
    release();
    await page.getByText("You're all done!").waitFor({ timeout: 60_000 });
    await page.waitForTimeout(2500);
    expect(await toast.count()).toBe(0);
  });
});

/** A promise the test resolves when it lets a held request go on. */
function gate(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the upload progress', () => {
  it('counts a file once its bytes are in, and says "Finishing upload…" while the server completes the transfer', async () => {
    const user = await newAccount('progress.user@example.com', 'pro');
    await logIn(page, stack.web.url, user.email);
    const BIG = 300 * 1024;
    // The storage holds the big file's bytes, then the API holds the transfer's completion.
    const held = { put: gate(), complete: gate() };
    const s3 = new URL(stack.app.stack.urls.s3).origin;
    await page.route(
      (url) => url.origin === s3,
      async (route) => {
        const r = route.request();
        if (r.method() === 'PUT' && (r.postDataBuffer()?.length ?? 0) === BIG) await held.put.promise;
        await route.continue();
      },
    );
    await page.route(/\/api\/transfers\/[^/]+\/complete$/, async (route) => {
      await held.complete.promise;
      await route.continue();
    });
    try {
      await page.getByTestId('file-input').setInputFiles([
        ...[1, 2, 3, 4].map((n) => ({
          name: `small-${n}.txt`,
          mimeType: 'text/plain',
          buffer: Buffer.alloc(2048, n),
        })),
        { name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(BIG, 9) },
      ]);
      await page.getByTestId('options-toggle').click();
      await page.getByRole('tab', { name: 'Link' }).click();
      await page.getByLabel('Get a link to share myself').check();
      await page.getByTestId('send-submit').click();

      // Four small files are in while the big one's bytes are held: 4 of 5, and not yet 100 %.
      await expect.poll(() => page.getByTestId('progress-files').textContent()).toBe('4 of 5 files');
      expect(await page.getByTestId('progress-percent').textContent()).not.toBe('100%');
      expect(await page.getByTestId('progress-finishing').count()).toBe(0);

      // Every byte is in, the server still completing: no stuck 100 %, an indeterminate ring.
      held.put.resolve();
      await page.getByTestId('progress-finishing').waitFor();
      expect(await page.getByTestId('progress-files').textContent()).toBe('5 of 5 files');
      expect(await page.getByTestId('progress-finishing').textContent()).toBe('Finishing upload…');
      const ring = page.getByTestId('progress-ring-box');
      expect(await ring.getAttribute('aria-valuenow')).toBeNull();
      expect(await ring.getAttribute('aria-valuetext')).toBe('Finishing upload…');
      expect(await page.getByTestId('progress-percent').count()).toBe(0);

      held.complete.resolve();
      await page.getByText("You're all done!").waitFor({ timeout: 60_000 });
    } finally {
      held.put.resolve();
      held.complete.resolve();
    }
  });
});
