/**
 * Webhooks end to end in Chromium: a user opens Account → Webhooks, adds an endpoint
 * that points at a receiving HTTP server on 127.0.0.1 started here, sees its secret once (gone
 * after a reload), sends a test event and makes a real download, sees both deliveries in the
 * log with status 200, redelivers one and the receiver gets the same event id again (signed with
 * the secret the page showed); edits the events, disables and enables, rotates the secret (the
 * 24 h grace said) and deletes after the inline confirmation. A team member sees neither the
 * menu entry nor the screen until their admin ticks "Let team members use webhooks".
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { WebhookListResponse } from '../../functions/domain/webhooks-api';
import {
  closePage,
  logIn,
  openPage,
  startBrowserStack,
  stopBrowserStack,
  type BrowserStack,
} from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { bearer, createUser, downloadFrom, json, randomData, sendFiles, waitForMail } from '../helpers/transfers';
import { eventOf, startReceiver, type ReceivedHook } from '../helpers/webhook-receiver';

let stack: BrowserStack;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const contexts: BrowserContext[] = [];

async function open(): Promise<Page> {
  const { context, page } = await openPage(stack.browser);
  contexts.push(context);
  return page;
}

/** The Standard Webhooks signature header holds a `v1,` signature made with this secret (the official library's own). */
function signedWith(hook: ReceivedHook, secret: string): boolean {
  const expected = new Webhook(secret).sign(
    hook.headers['webhook-id'] ?? '',
    new Date(Number(hook.headers['webhook-timestamp']) * 1000),
    hook.body,
  );
  return (hook.headers['webhook-signature'] ?? '').split(' ').includes(expected);
}

const rowsOfEvent = (page: Page, eventId: string) =>
  page.locator(`[data-testid="delivery-row"][data-event-id="${eventId}"]`);

beforeAll(async () => {
  stack = await startBrowserStack();
  receiver = await startReceiver();
}, 300_000);

afterEach(async () => {
  for (const c of contexts.splice(0)) await closePage(c);
});

afterAll(async () => {
  await receiver?.close();
  await stopBrowserStack(stack);
});

describe('webhooks screen', () => {
  it('adds an endpoint (secret once), logs a test event and a real download with 200, redelivers the same event id, then edits, rotates and deletes it', async () => {
    const user = await createUser(stack.app, 'e2e.webhooks@example.com', 'pro');
    const page = await open();
    await logIn(page, stack.web.url, user.email);
    await page.getByTestId('nav-avatar').click();
    await page.getByTestId('nav-webhooks').click();
    await page.waitForURL((u) => u.pathname === '/dash/account/webhooks');
    await page.getByTestId('webhooks-empty').waitFor();

    // Add: the URL, the events (downloads are ticked by default; add expiry)
    await page.getByTestId('webhook-url').fill(receiver.url);
    await page.getByTestId('webhook-event-transfer.expired').check();
    await page.getByTestId('webhook-add-submit').click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/u);
    await page.getByTestId('webhook-secret-panel').getByText('Copy it now: it is shown only this once.').waitFor();
    await page.getByTestId('webhook-secret-panel').getByRole('link', { name: 'how to verify deliveries' }).click();
    await page.getByTestId('webhook-verify-snippet').getByText('verifySendBridgeWebhook', { exact: false }).waitFor();
    const card = page.getByTestId('webhook-endpoint');
    expect(await card.getByTestId('webhook-endpoint-url').textContent()).toBe(receiver.url);
    expect(await card.getByTestId('webhook-endpoint-events').textContent()).toBe(
      'transfer.createdtransfer.downloadedtransfer.expired',
    );
    expect(await card.getByTestId('webhook-endpoint-state').getAttribute('data-enabled')).toBe('true');

    // The secret is gone after a reload: the page never shows it again.
    await page.reload();
    await page.getByTestId('webhook-endpoint').waitFor();
    expect(await page.getByTestId('webhook-secret-panel').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // A test event reaches the receiver, signed with the secret shown, and the log says 200.
    await card.getByTestId('webhook-test').click();
    await card.getByTestId('webhook-note').getByText('Test event sent.').waitFor();
    const ping = await receiver.waitFor((h) => eventOf(h).type === 'ping');
    expect(signedWith(ping, secret)).toBe(true);
    const pingId = eventOf(ping).id;
    await card.getByTestId('webhook-log-toggle').click();
    const pingRow = rowsOfEvent(page, pingId);
    await expect.poll(() => pingRow.getAttribute('data-status'), { timeout: 60_000 }).toBe('delivered');
    expect(await pingRow.getByTestId('delivery-response').textContent()).toBe('200');
    expect(await pingRow.getByTestId('delivery-attempts').textContent()).toBe('1');
    expect(await card.getByTestId('webhook-last-delivery').textContent()).toContain('200');

    // A real download: transfer.created and transfer.downloaded arrive and are logged with 200.
    const transfer = await sendFiles(stack.app, user, new Map([['plans.pdf', randomData(3000)]]), { sendAs: 'link' });
    await downloadFrom(stack.app, transfer, 'DE');
    const downloaded = await receiver.waitFor(
      (h) => eventOf(h).type === 'transfer.downloaded' && eventOf(h).data.transferId === transfer.id,
    );
    expect(eventOf(downloaded).data.country).toBe('DE');
    expect(signedWith(downloaded, secret)).toBe(true);
    const downloadRow = rowsOfEvent(page, eventOf(downloaded).id);
    await expect
      .poll(
        async () => {
          await card.getByTestId('delivery-log-refresh').click();
          return downloadRow.getAttribute('data-status');
        },
        { timeout: 60_000 },
      )
      .toBe('delivered');
    expect(await downloadRow.getByTestId('delivery-response').textContent()).toBe('200');

    // Redeliver the ping: the receiver gets the same event id again, and the log has it twice.
    const before = receiver.received.filter((h) => eventOf(h).id === pingId).length;
    await pingRow.first().getByTestId('delivery-redeliver').click();
    await card.getByTestId('webhook-note').getByText('Sent again with the same event id.').waitFor();
    await expect
      .poll(() => receiver.received.filter((h) => eventOf(h).id === pingId).length, { timeout: 60_000 })
      .toBe(before + 1);
    const again = receiver.received.filter((h) => eventOf(h).id === pingId).at(-1)!;
    expect(again.body).toBe(ping.body);
    expect(signedWith(again, secret)).toBe(true);
    await expect.poll(() => rowsOfEvent(page, pingId).count(), { timeout: 60_000 }).toBe(2);
    await expect
      .poll(() => rowsOfEvent(page, pingId).first().getAttribute('data-status'), { timeout: 60_000 })
      .toBe('delivered');

    // Edit the events; disable and enable again.
    await card.getByTestId('webhook-edit-events').click();
    await card.getByTestId('webhook-event-transfer.expired').uncheck();
    await card.getByTestId('webhook-event-request.uploaded').check();
    await card.getByTestId('webhook-events-save').click();
    await expect
      .poll(() => card.getByTestId('webhook-endpoint-events').textContent())
      .toBe('transfer.createdtransfer.downloadedrequest.uploaded');
    await card.getByTestId('webhook-toggle').click();
    await expect.poll(() => card.getByTestId('webhook-endpoint-state').getAttribute('data-enabled')).toBe('false');
    await card.getByTestId('webhook-toggle').click();
    await expect.poll(() => card.getByTestId('webhook-endpoint-state').getAttribute('data-enabled')).toBe('true');
    const listed = (await api(stack.app, '/webhooks', { headers: bearer(user) })).json as WebhookListResponse;
    expect(listed.endpoints[0]!.events).toEqual(['transfer.created', 'transfer.downloaded', 'request.uploaded']);

    // Rotate: a new secret once, the 24 h grace said; the next delivery is signed with both.
    await card.getByTestId('webhook-rotate').click();
    const rotated = (await page.getByTestId('webhook-secret').textContent())!;
    expect(rotated).toMatch(/^whsec_/u);
    expect(rotated).not.toBe(secret);
    await page
      .getByTestId('webhook-secret-grace')
      .getByText('The previous secret keeps signing beside it for 24 hours', { exact: false })
      .waitFor();
    await page.getByTestId('webhook-secret-done').click();
    expect(await page.getByTestId('webhook-secret-panel').count()).toBe(0);
    const seen = receiver.received.length;
    await card.getByTestId('webhook-test').click();
    const ping2 = await receiver.waitFor((h) => receiver.received.indexOf(h) >= seen && eventOf(h).type === 'ping');
    expect(signedWith(ping2, rotated)).toBe(true);
    expect(signedWith(ping2, secret)).toBe(true);

    // Delete after the inline confirmation (Keep first leaves it).
    await card.getByTestId('webhook-delete').click();
    await card.getByTestId('webhook-delete-keep').click();
    await card.getByTestId('webhook-delete').click();
    await card
      .getByTestId('webhook-delete-confirm')
      .getByText(`Delete the endpoint ${receiver.url}?`, { exact: false })
      .waitFor();
    await card.getByTestId('webhook-delete-yes').click();
    await page.getByTestId('webhooks-empty').waitFor();
    expect(
      ((await api(stack.app, '/webhooks', { headers: bearer(user) })).json as WebhookListResponse).endpoints,
    ).toEqual([]);
  });

  it('a team member sees neither the menu entry nor the screen until the admin lets members use webhooks', async () => {
    const admin = await createUser(stack.app, 'e2e.webhooks.admin@example.com', 'business');
    const memberEmail = 'e2e.webhooks.member@example.com';
    const invited = await api(stack.app, '/teams/invites', json({ email: memberEmail }, bearer(admin)));
    expect(invited.status, invited.text).toBe(201);
    const mail = await waitForMail(stack.app, memberEmail, /\/invite\/[A-Za-z0-9_-]{43}/);
    const token = /\/invite\/([A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!;
    const joined = await api(
      stack.app,
      '/v1/teams',
      json({ token, newMemberEmail: memberEmail, fullName: 'Mo Member', password: 'Member-pass-123' }, {}, 'PATCH'),
    );
    expect(joined.status, joined.text).toBeLessThan(300);

    const m = await open();
    await logIn(m, stack.web.url, memberEmail, 'Member-pass-123');
    await m.getByTestId('nav-avatar').click();
    await m.getByTestId('nav-profile').waitFor();
    expect(await m.getByTestId('nav-webhooks').count()).toBe(0);
    await m.goto(`${stack.web.url}/dash/account/webhooks`);
    await m
      .getByTestId('webhooks-refused')
      .getByText("Your team's admin has not allowed webhooks for team members.")
      .waitFor();
    expect(await m.getByTestId('webhook-add').count()).toBe(0);

    const a = await open();
    await logIn(a, stack.web.url, admin.email);
    await a.goto(`${stack.web.url}/dash/account/webhooks`);
    const toggle = a.getByTestId('webhook-members-allowed');
    expect(await toggle.isChecked()).toBe(false);
    await a.getByLabel('Let team members use webhooks').check();
    await a.getByTestId('webhook-team').getByText('Saved.').waitFor();
    await a.reload();
    expect(await a.getByTestId('webhook-members-allowed').isChecked()).toBe(true);

    // One fresh load (not a load and an immediate reload): a reload that aborts the page's token
    // renewal leaves the browser with the rotated-away cookie, and presenting it ends the session
    // (docs/decisions/, "Sessions": no grace window).
    await m.goto(`${stack.web.url}/dash`);
    await m.getByTestId('dashboard-greeting').waitFor();
    await m.getByTestId('nav-avatar').click();
    await m.getByTestId('nav-webhooks').click();
    await m.waitForURL((u) => u.pathname === '/dash/account/webhooks');
    await m.getByTestId('webhook-add').waitFor();
    // the choice is the admin's: a member has no toggle
    expect(await m.getByTestId('webhook-team').count()).toBe(0);
  });
});
