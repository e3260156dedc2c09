/**
 * API keys and the /developers page end to end, in Chromium against the shipped app
 * and the local stack: a user creates a key on /dash/account/api-keys, sees its secret once (a
 * reload shows only its prefix), uses it against the local API (200, and the list then shows
 * when), revokes it after the inline confirmation and the next call is refused (401). A team
 * member sees no API keys until the admin allows them. /developers lists every v1 route of the
 * OpenAPI document the deployment serves, each scope with its routes, and explains webhooks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { API_KEY_PATTERN } from '../../functions/domain/api-keys';
import { API_SCOPES } from '../../functions/domain/api-key-scopes';
import { EVENT_TYPES, SIGNATURE_TOLERANCE_SECONDS, WEBHOOK_HEADERS } from '../../functions/domain/webhooks-api';
import {
  closePage,
  logIn,
  openPage,
  startBrowserStack,
  stopBrowserStack,
  type BrowserStack,
} from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { createUser, json, waitForMail } from '../helpers/transfers';

let stack: BrowserStack;
let context: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  stack = await startBrowserStack();
}, 300_000);

afterEach(async () => {
  await closePage(context);
  context = undefined;
});

afterAll(() => stopBrowserStack(stack));

/** A call of the public API with `key`, as a script would make it (straight to the local API). */
function withKey(key: string, path = '/v1/transfers') {
  return api(stack.app, path, { headers: { authorization: `Bearer ${key}` } });
}

const focusedTestId = (p: Page) =>
  p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

describe('API keys in the dashboard', () => {
  it('creates a key shown once, which works against the API until it is revoked', async () => {
    const user = await createUser(stack.app, 'keys.e2e@example.com', 'pro');
    ({ context, page } = await openPage(stack.browser));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.web.url });
    await logIn(page, stack.web.url, user.email);
    await page.getByTestId('nav-avatar').click();
    await page.getByTestId('nav-apiKeys').click();
    await page.waitForURL((u) => u.pathname === '/dash/account/api-keys');
    await page.getByTestId('apikeys-empty').waitFor();

    // A name is required before anything is sent.
    await page.getByTestId('apikeys-create').click();
    expect(await page.getByTestId('apikeys-create-error').textContent()).toBe('Give the key a name.');

    // every scope is offered with what it opens (a colon in a text key would hide the text)
    expect(await page.getByTestId('apikeys-create-form').textContent()).toContain(
      'transfers:read list and read transfers with their downloads',
    );
    await page.getByTestId('apikeys-name').fill('Build server');
    await page.getByTestId('apikeys-scope-requests').check();
    await page.getByTestId('apikeys-create').click();
    await page.getByTestId('apikeys-new').waitFor();
    const key = (await page.getByTestId('apikeys-secret').textContent())!.trim();
    expect(key).toMatch(API_KEY_PATTERN);
    expect(await page.getByTestId('apikeys-new').textContent()).toContain('you will not see it again');
    // Focus lands on the new key's heading, so a screen reader hears the warning first.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    await page.getByTestId('apikeys-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const row = page.getByTestId('apikeys-row');
    expect(await row.count()).toBe(1);
    expect(await row.locator('th').textContent()).toBe('Build server');
    expect(await row.textContent()).toContain('send');
    expect(await row.textContent()).toContain('transfers:read');
    expect(await row.textContent()).toContain('requests');
    expect(await row.getByTestId('apikeys-last-used').textContent()).toBe('Never');

    // After a reload only the prefix is listed: the secret is nowhere on the page.
    await page.reload();
    await page.getByTestId('apikeys-row').waitFor();
    expect(await page.getByTestId('apikeys-new').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    const hint = (await page.getByTestId('apikeys-hint').textContent())!;
    expect(hint.endsWith('…')).toBe(true);
    expect(key.startsWith(hint.slice(0, -1))).toBe(true);

    // The key works against the local API, and the list then says when it was last used.
    const used = await withKey(key);
    expect(used.status, used.text).toBe(200);
    expect((await withKey(key, '/v1/requests')).status).toBe(200);
    await page.reload();
    await page.getByTestId('apikeys-row').waitFor();
    expect(await page.getByTestId('apikeys-last-used').textContent()).not.toBe('Never');

    // Revoke asks inline first; Keep returns focus to the button.
    await page.getByTestId('apikeys-revoke').click();
    await page.getByTestId('apikeys-confirm').waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('apikeys-revoke-cancel');
    await page.getByTestId('apikeys-revoke-cancel').click();
    await expect.poll(() => focusedTestId(page)).toBe('apikeys-revoke');
    expect((await withKey(key)).status).toBe(200);

    await page.getByTestId('apikeys-revoke').click();
    await page.getByTestId('apikeys-revoke-confirm').click();
    await page.getByTestId('apikeys-empty').waitFor();
    expect(await page.getByTestId('apikeys-notice').textContent()).toBe('“Build server” is revoked.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H2');

    const refused = await withKey(key);
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('invalid_api_key');
  });

  it("hides keys from a team member until the admin allows them, then the member's key works", async () => {
    const admin = await createUser(stack.app, 'keys.admin@example.com', 'business');
    const auth = { authorization: `Bearer ${admin.accessToken}` };
    expect((await api(stack.app, '/teams/invites', json({ email: 'keys.member@example.com' }, auth))).status).toBe(201);
    const token = /\/invite\/([A-Za-z0-9_-]{43})/.exec(
      (await waitForMail(stack.app, 'keys.member@example.com', /\/invite\//)).body.text,
    )![1]!;
    const joined = await api(
      stack.app,
      '/v1/teams',
      json(
        { token, newMemberEmail: 'keys.member@example.com', fullName: 'Kim Member', password: 'Member-pass-123' },
        {},
        'PATCH',
      ),
    );
    expect(joined.status, joined.text).toBe(201);

    ({ context, page } = await openPage(stack.browser));
    await logIn(page, stack.web.url, 'keys.member@example.com', 'Member-pass-123');
    await page.getByTestId('nav-avatar').click();
    await page.getByTestId('nav-profile').waitFor();
    expect(await page.getByTestId('nav-apiKeys').count()).toBe(0);
    await page.goto(`${stack.web.url}/dash/account/api-keys`);
    await page.getByTestId('apikeys-refused').waitFor();
    expect(await page.getByTestId('apikeys-create-form').count()).toBe(0);

    // The admin turns keys on for members from the same screen.
    const asAdmin = await openPage(stack.browser);
    try {
      await logIn(asAdmin.page, stack.web.url, admin.email);
      await asAdmin.page.goto(`${stack.web.url}/dash/account/api-keys`);
      const toggle = asAdmin.page.getByTestId('apikeys-members-allowed');
      await toggle.waitFor();
      expect(await toggle.isChecked()).toBe(false);
      // the box follows the saved setting: it turns checked once PUT /teams/api-keys answered
      await toggle.click();
      await expect.poll(() => toggle.isChecked()).toBe(true);
      await expect
        .poll(() => asAdmin.page.getByTestId('apikeys-team').textContent())
        .toContain('Members can create their own keys');
    } finally {
      await closePage(asAdmin.context);
    }

    // The member's next sign-in sees the entry and can make a key that works.
    await page.reload();
    await page.getByTestId('nav-avatar').click();
    await page.getByTestId('nav-apiKeys').click();
    await page.getByTestId('apikeys-name').fill('Member laptop');
    await page.getByTestId('apikeys-create').click();
    const key = (await page.getByTestId('apikeys-secret').textContent())!.trim();
    expect((await withKey(key)).status).toBe(200);
    // The admin team setting is the admin's alone.
    expect(await page.getByTestId('apikeys-team').count()).toBe(0);
  });
});

describe('/developers', () => {
  it('is linked from the footer and lists every v1 route of the OpenAPI document, with the examples', async () => {
    const doc = (await api(stack.app, '/v1/openapi.json')).json as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented.length).toBeGreaterThanOrEqual(11);

    ({ context, page } = await openPage(stack.browser));
    await page.goto(`${stack.web.url}/`);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Developers', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/developers');
    await page.getByTestId('dev-reference').waitFor();
    const shown = (
      await page
        .getByTestId('dev-operation')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-operation') ?? ''))
    ).sort();
    expect(shown).toEqual(documented);

    const create = page.locator('[data-operation="POST /v1/transfers"]');
    expect(await create.textContent()).toContain('Create a transfer');
    expect(await create.textContent()).toContain('fileObjects');
    expect(await create.locator('.dev-scope code').textContent()).toBe('send');
    // The examples name this deployment's API and the whole send: create, parts, complete.
    const curl = (await page.getByTestId('dev-send-curl').textContent())!;
    expect(curl).toContain(`API=${stack.web.url}/api\n`);
    expect(curl).toContain('"$API/v1/transfers"');
    for (const step of ['/sign', '/parts', '/files/$FID/complete', '/complete']) expect(curl).toContain(step);
    expect(await page.locator('.dev-scopes').textContent()).toContain(
      'transfers:read: list and read transfers with their downloads',
    );
    expect(await page.getByTestId('dev-auth-ts').textContent()).toContain('authorization: `Bearer ${KEY}`');

    // Each scope lists the document's routes of that scope (the webhooks scope its /v1/webhooks… routes).
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([m, op]) => ({
        id: `${m.toUpperCase()} ${path}`,
        scope: (op as { 'x-sendbridge-scope'?: string })['x-sendbridge-scope'],
      })),
    );
    for (const scope of API_SCOPES) {
      const listed = (
        await page
          .locator(`.dev-scopes > li[data-scope="${scope}"] li[data-scope-operation]`)
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-scope-operation') ?? ''))
      ).sort();
      expect(listed, scope).toEqual(
        ops
          .filter((o) => o.scope === scope)
          .map((o) => o.id)
          .sort(),
      );
    }
  });

  it('explains webhooks: the event types, a signed delivery, registering with a key, verifying in TypeScript', async () => {
    ({ context, page } = await openPage(stack.browser));
    await page.goto(`${stack.web.url}/developers`);
    const section = page.getByTestId('dev-webhooks');
    await section.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
    const events = await page.getByTestId('dev-webhook-events').locator('dt').allTextContents();
    expect(events).toEqual([...EVENT_TYPES, 'ping']);
    expect(await page.getByTestId('dev-webhook-events').textContent()).toContain(
      'a file or the ZIP was downloaded: the country',
    );
    expect((await page.getByTestId('dev-webhook-headers').locator('dt').allTextContents()).sort()).toEqual(
      Object.values(WEBHOOK_HEADERS).sort(),
    );
    const example = (await page.getByTestId('dev-webhook-example').textContent())!;
    expect(example).toContain(`${WEBHOOK_HEADERS.signature}: v1,`);
    expect(example).toContain('"type": "transfer.downloaded"');
    expect(await section.textContent()).toContain('for 24 hours after the event');
    expect(await section.textContent()).toContain(`more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from your clock`);
    // Registering: this deployment's API, with a key; the dashboard's screen is linked.
    expect(await page.getByTestId('dev-webhook-register-curl').textContent()).toContain(
      `curl -s -X POST "${stack.web.url}/api/v1/webhooks"`,
    );
    expect(await page.getByTestId('dev-webhook-register-ts').textContent()).toContain("('/v1/webhooks', {");
    expect(await section.getByRole('link', { name: 'Manage webhooks' }).getAttribute('href')).toBe(
      '/dash/account/webhooks',
    );
    const verify = (await page.getByTestId('dev-webhook-verify').textContent())!;
    expect(verify).toContain("import { createHmac, timingSafeEqual } from 'node:crypto';");
    expect(verify).toContain(`headers['${WEBHOOK_HEADERS.timestamp}']`);
    expect(await page.getByTestId('dev-webhook-receiver').textContent()).toContain(
      'verifySendBridgeWebhook(raw, req.headers, SECRET)',
    );

    // In another language the words change, the code does not.
    await page.goto(`${stack.web.url}/developers?lng=de`);
    await section.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
    await section.getByRole('link', { name: 'Webhooks verwalten' }).waitFor();
    expect(await page.getByTestId('dev-webhook-verify').textContent()).toBe(verify);
  });
});
