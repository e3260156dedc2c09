/**
 * Phones: at 320 CSS px (the narrowest phones in use) no screen is wider than the viewport (no sideways page scroll). Wide
 * tables scroll inside their own box, long route paths and addresses wrap. The screens are
 * shown with data in them (transfers with long names, an API key, a webhook endpoint and its
 * delivery, a contact, a file request), signed in and as a visitor. The offender is named when
 * one widens the page (found by hand: an `.sr-only` header cell escaped its table's scroller).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateTransferResponse } from '@domain/transfer-api';
import { closePage, logIn, startBrowserStack, stopBrowserStack, type BrowserStack } from '../helpers/browser-stack';
import { newContext } from '../helpers/browser';
import { api } from '../helpers/local-app';
import { bearer, createUser, downloadFrom, json, randomData, sendFiles, type TestUser } from '../helpers/transfers';

let stack: BrowserStack;
let user: TestUser;
let sent: CreateTransferResponse;
let requestId: string;

const LONG = 'quarterly-board-presentation-final-version-approved-by-legal-2026-11.pdf';

beforeAll(async () => {
  stack = await startBrowserStack();
  const { app } = stack;
  user = await createUser(app, 'narrow.screens.with.a.long.address@example.com', 'business');
  sent = await sendFiles(
    app,
    user,
    new Map([
      [LONG, randomData(2000)],
      ['b.txt', randomData(10)],
    ]),
    { sendAs: 'email', emailTo: [{ email: 'someone.with.a.long.address@example.com' }] },
  );
  await downloadFrom(app, sent, 'DE');
  expect(
    (
      await api(
        app,
        '/me/api-keys',
        json(
          { name: 'Build server of the design studio', scopes: ['send', 'transfers:read', 'requests', 'webhooks'] },
          bearer(user),
        ),
      )
    ).status,
  ).toBe(201);
  const hook = await api(
    app,
    '/webhooks',
    json(
      {
        url: 'http://127.0.0.1:9/a/rather/long/path/for/the/webhook/receiver',
        events: ['transfer.created', 'transfer.downloaded'],
      },
      bearer(user),
    ),
  );
  expect(hook.status, hook.text).toBe(201);
  expect(
    (await api(app, `/webhooks/${hook.json.endpoint.id as string}/test`, { method: 'POST', headers: bearer(user) }))
      .status,
  ).toBe(202);
  expect(
    (
      await api(
        app,
        '/contacts',
        json(
          {
            email: 'maria.lopez.de.la.fuente@acme-international.example.com',
            name: 'María López de la Fuente',
            company: 'Acme International',
          },
          bearer(user),
        ),
      )
    ).status,
  ).toBe(201);
  const req = await api(
    app,
    '/requests',
    json(
      { title: 'Signed contracts for the new office lease', message: 'One PDF per contract, please.' },
      bearer(user),
    ),
  );
  expect(req.status, req.text).toBe(201);
  requestId = req.json.id as string;
}, 300_000);

afterAll(() => stopBrowserStack(stack));

async function narrowPage(signedIn: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(stack.browser, { width: 320, height: 700 });
  const page = await context.newPage();
  if (signedIn) await logIn(page, stack.web.url, user.email);
  return { context, page };
}

/** How far the page is wider than the viewport, and the element that reaches furthest. */
async function overflowOf(page: Page, path: string): Promise<string | null> {
  await page.goto(`${stack.web.url}${path}`);
  await page.waitForLoadState('networkidle');
  await page.locator('main').first().waitFor();
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolled = document.documentElement.scrollWidth;
    if (scrolled <= width) return null;
    // the deepest elements that reach past the edge: the ones that push the page wider
    const past = (e: Element) => e.getBoundingClientRect().right > width + 1 && e.getBoundingClientRect().width > 0;
    // nearest first to the page's scroll width: what reaches exactly that far is what widens it (a scroller's clipped content reaches further)
    const reach = (e: Element) => Math.abs(e.getBoundingClientRect().right - scrolled);
    const leaves = [...document.querySelectorAll('body *')]
      .filter((e) => past(e) && ![...e.children].some(past))
      .sort((a, b) => reach(a) - reach(b));
    const describe = (e: Element) => {
      const chain: string[] = [];
      for (let x: Element | null = e; x && x !== document.body && chain.length < 4; x = x.parentElement)
        chain.push(
          `${x.tagName.toLowerCase()}${x.className ? `.${String(x.className).trim().replace(/\s+/gu, '.')}` : ''}`,
        );
      return `${chain.join(' < ')} "${(e.textContent ?? '').slice(0, 40)}"`;
    };
    // text that overflows its box (a long word) reaches past the edge without its element doing so
    const texts: Element[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      if (range.getBoundingClientRect().right > width + 1 && n.parentElement) texts.push(n.parentElement);
    }
    return `${scrolled - width}px wider: ${[...leaves, ...texts].slice(0, 3).map(describe).join(' | ')}`;
  });
}

describe('no screen is wider than a 320 px phone', () => {
  it('the dashboard screens, with data in them', async () => {
    const { context, page } = await narrowPage(true);
    try {
      for (const path of [
        '/dash',
        '/dash/transfers',
        `/dash/transfers/${sent.id}`,
        '/dash/requests',
        `/dash/requests/${requestId}`,
        '/dash/analytics',
        '/dash/contacts',
        '/dash/account',
        '/dash/account/api-keys',
        '/dash/account/webhooks',
        '/dash/account/billing',
        '/dash/account/teams',
        '/dash/account/domain',
        '/dash/data-residency',
        '/dash/settings',
      ]) {
        expect(await overflowOf(page, path), path).toBeNull();
      }
    } finally {
      await closePage(context);
    }
  });

  it('the public pages, the download page and a file request', async () => {
    const { context, page } = await narrowPage(false);
    try {
      for (const path of [
        '/',
        '/pricing',
        '/developers',
        '/compare/wetransfer',
        '/login',
        '/register',
        `/w/${sent.id}`,
        `/r/${requestId}`,
      ]) {
        expect(await overflowOf(page, path), path).toBeNull();
      }
    } finally {
      await closePage(context);
    }
  });
});
