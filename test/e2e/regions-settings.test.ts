import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import type { SessionUser } from '../../functions/domain/auth-api';
import { bucketFor } from '../../functions/adapters/storage';
import { signalBars } from '../../functions/domain/signal';
import type { RegionId } from '../../functions/domain/regions';
import { closePage, logIn as logInAt, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { bearer, createUser, type TestUser } from '../helpers/transfers';

/**
 * In Chromium on the built app under its CSP: the Region picker measures the four
 * offered regions from the browser (timed HEADs on each region's speed-test object through
 * presigned URLs) and shows ms and signal bars, with Hangzhou and Guangzhou as not offered;
 * choosing Frankfurt stores the next transfer sent from the dashboard in the Frankfurt bucket
 * of s3rver. /dash/settings saves the transfer defaults and the quick send starts from them.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let pro: TestUser;
let free: TestUser;
let context: BrowserContext;
let page: Page;

const OFFERED: readonly RegionId[] = ['hongkong', 'siliconvalley', 'frankfurt', 'dubai'];

async function keysIn(region: RegionId, prefix: string): Promise<string[]> {
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: app.stack.urls.s3,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const out = await s3.send(new ListObjectsV2Command({ Bucket: bucketFor(region, false).bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!);
}

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  pro = await createUser(app, 'resident.pro@example.com', 'pro');
  free = await createUser(app, 'resident.free@example.com', 'free');
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

describe('Region picker', () => {
  it('shows the four offered regions with ms and bars and two not offered; choosing Frankfurt stores the next transfer in the Frankfurt bucket', async () => {
    // The browser's HEADs reach s3rver, one region's object each.
    const heads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'HEAD' && r.url().includes('speedtest')) heads.push(r.url());
    });
    await logInAt(page, web.url, pro.email);
    await page.getByTestId('dash-tab-data-residency').click();
    await page.waitForURL((u) => u.pathname === '/dash/data-residency');

    for (const id of OFFERED) {
      const ms = page.getByTestId(`region-ms-${id}`);
      await expect.poll(() => ms.getAttribute('data-ms'), { timeout: 60_000 }).toMatch(/^\d+$/);
      const measured = Number(await ms.getAttribute('data-ms'));
      expect(await ms.textContent()).toBe(`${measured} ms`);
      const bars = page.getByTestId(`region-bars-${id}`);
      expect(Number(await bars.getAttribute('data-bars'))).toBe(signalBars(measured));
      expect(await bars.getAttribute('aria-label')).toBe(`Signal: ${signalBars(measured)} of 5 bars`);
    }
    expect(await page.locator('[data-testid^="region-row-"]').count()).toBe(4);
    // Three samples per offered region, each on that region's own bucket.
    expect(heads).toHaveLength(12);
    for (const id of OFFERED) expect(heads.filter((u) => u.includes(bucketFor(id, false).bucket))).toHaveLength(3);
    for (const id of ['hangzhou', 'guangzhou']) {
      await page.getByTestId(`region-not-offered-${id}`).waitFor();
      expect(await page.getByTestId(`region-row-${id}`).count()).toBe(0);
    }
    expect(await page.getByTestId('regions-not-offered').textContent()).toContain(
      'Hangzhou, Guangzhou cannot be chosen here',
    );

    // Hong Kong is the default until Frankfurt is chosen.
    expect(await page.getByTestId('region-row-hongkong').getByTestId('region-current').count()).toBe(1);
    await page.getByTestId('region-choose-frankfurt').click();
    await page.getByTestId('region-status').getByText('now stored in Frankfurt').waitFor();
    await page.getByTestId('region-row-frankfurt').getByTestId('region-current').waitFor();
    expect(await page.getByTestId('region-row-hongkong').getByTestId('region-current').count()).toBe(0);
    expect(((await api(app, '/me', { headers: bearer(pro) })).json as SessionUser).region).toBe('frankfurt');

    // A re-test measures again with fresh URLs.
    await page.getByTestId('region-retest').click();
    await expect.poll(() => heads.length, { timeout: 60_000 }).toBe(24);

    // The next transfer, sent from the dashboard's quick send, lands in the Frankfurt bucket.
    await page.locator('.dash-tab').first().click();
    await page.waitForURL((u) => u.pathname === '/dash');
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'frankfurt-plan.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(3000, 7) });
    await page.getByTestId('recipients-input').fill('frankfurt.reader@example.com');
    await page.getByTestId('recipients-input').press('Enter');
    await page.getByTestId('send-submit').click();
    const link = page.getByTestId('done-link');
    await link.waitFor({ timeout: 30_000 });
    const slug = new URL(await link.inputValue()).pathname.split('/').pop()!;
    expect(await keysIn('frankfurt', `t/${slug}/`)).toHaveLength(1);
    expect(await keysIn('hongkong', `t/${slug}/`)).toEqual([]);
  });

  it('a free plan sees the picker with the choice disabled and an upgrade link', async () => {
    await logInAt(page, web.url, free.email);
    await page.goto(`${web.url}/dash/data-residency`);
    await page.getByTestId('residency-plan-note').waitFor();
    await expect
      .poll(() => page.getByTestId('region-ms-dubai').getAttribute('data-ms'), { timeout: 60_000 })
      .toMatch(/^\d+$/);
    expect(await page.getByTestId('region-choose-frankfurt').isDisabled()).toBe(true);
    expect(await page.getByTestId('residency-upgrade').getAttribute('href')).toBe('/pricing');
  });
});

describe('Settings', () => {
  it('saves the transfer defaults and the quick send starts from them', async () => {
    await logInAt(page, web.url, pro.email);
    // Before: the spec's defaults (email, 1 Week, no message).
    expect(await page.getByTestId('send-submit').textContent()).toBe('Transfer');
    await page.getByTestId('dash-tab-settings').click();
    await page.waitForURL((u) => u.pathname === '/dash/settings');
    await page.getByTestId('setting-expiry').selectOption({ label: '1 Month' });
    await page.getByTestId('setting-sendAs-link').check();
    await page.getByTestId('setting-message').fill('Here are the drawings');
    await page.getByTestId('setting-downloadEmails').uncheck();
    await page.getByTestId('setting-dueDays').fill('10');
    await page.getByTestId('setting-allowedTypes').fill('PDF, .dwg');
    await page.getByTestId('setting-maxFiles').fill('300');
    await page.getByTestId('settings-save').click();
    // 300 files is over the Pro plan's 250: said before anything is sent, focus on the field.
    await page.getByTestId('settings-status').getByText('Check the highlighted fields.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('setting-maxFiles');
    await page.getByTestId('setting-maxFiles').fill('20');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-status').getByText('Settings saved.').waitFor();

    const saved = (await api(app, '/me', { headers: bearer(pro) })).json as SessionUser;
    expect(saved.transferSettings).toEqual({
      expiryReminders: true,
      downloadEmails: false,
      defaultExpirySeconds: 2629746,
      defaultSendAs: 'link',
      defaultMessage: 'Here are the drawings',
    });
    expect(saved.requestSettings).toEqual({
      defaultDueDays: 10,
      defaultRules: { allowedTypes: ['pdf', 'dwg'], maxFiles: 20 },
      emailOnUpload: true,
    });

    // The quick send on /dash is prefilled.
    await page.locator('.dash-tab').first().click();
    await page.waitForURL((u) => u.pathname === '/dash');
    await page.getByTestId('send-submit').waitFor();
    expect(await page.getByTestId('send-submit').textContent()).toBe('Get Link');
    expect(await page.getByTestId('message').inputValue()).toBe('Here are the drawings');
    expect(await page.getByTestId('send-summary').textContent()).toContain('Expires in 1 Month');

    // A reload keeps them (they come from GET /me).
    await page.goto(`${web.url}/dash/settings`);
    expect(await page.getByTestId('setting-message').inputValue()).toBe('Here are the drawings');
    expect(await page.getByTestId('setting-downloadEmails').isChecked()).toBe(false);
    expect(await page.getByTestId('setting-allowedTypes').inputValue()).toBe('pdf, dwg');
  });

  it('the roadmap opens inside the dashboard and its items stay there', async () => {
    // A fresh account: the feedback prompt opens by itself at the third login (spec §2).
    const reader = await createUser(app, 'resident.roadmap@example.com', 'pro');
    await logInAt(page, web.url, reader.email);
    await page.locator('.dash-tab', { hasText: 'Account' }).click();
    await page.getByTestId('account-roadmap').click();
    await page.waitForURL((u) => u.pathname === '/dash/roadmap');
    await page.locator('.roadmap-board').waitFor();
    await page.locator('.roadmap-board a').first().click();
    await page.waitForURL((u) => u.pathname.startsWith('/dash/roadmap/'));
    await page.getByTestId('dash-tab-settings').waitFor();
  });
});
