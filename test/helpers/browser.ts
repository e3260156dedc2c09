import { freePort } from '../../scripts/local/ports';
import { existsSync } from 'node:fs';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches the system Chromium. A missing browser is a failure, never a skip. */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error('Chromium is missing: run `apt-get install -y chromium`');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

const violations = new WeakMap<BrowserContext, string[]>();
const consoleSeen = new WeakMap<BrowserContext, string[]>();

/**
 * The browser's own line for an answer that was not 2xx or did not come ("Failed to load
 * resource: the server responded with a status of 401"): tests of refusals cause it on purpose,
 * and the app's handling of the answer is what they check. Anything else on the console counts.
 */
const NETWORK_LOG = /^Failed to load resource: /;

/**
 * A fresh context (no cookies, no localStorage, unless `storageState` carries a signed-in
 * session over; always an empty HTTP cache) with a fixed language and viewport. Every page
 * of it reports each Content-Security-Policy violation the browser raises (the
 * `securitypolicyviolation` event) to the test, read with `cspViolations(context)`, and each
 * console error or warning (React's included) and uncaught exception, read with
 * `consoleProblems(context)`.
 */
export async function newContext(
  browser: Browser,
  options: {
    locale?: string;
    width?: number;
    height?: number;
    permissions?: string[];
    storageState?: Awaited<ReturnType<BrowserContext['storageState']>>;
  } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    ...(options.permissions ? { permissions: options.permissions } : {}),
    ...(options.storageState ? { storageState: options.storageState } : {}),
  });
  // Waits for what must come (an element, a navigation) may take long on a loaded 2-core machine;
  // they end as soon as it comes, so a generous limit costs nothing when the machine is idle.
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(60_000);
  const logged: string[] = [];
  consoleSeen.set(context, logged);
  const where = (page: Page) => {
    try {
      return new URL(page.url()).pathname;
    } catch {
      return page.url();
    }
  };
  context.on('console', (message) => {
    const type = message.type();
    if (type !== 'error' && type !== 'warning') return;
    if (NETWORK_LOG.test(message.text())) return;
    const page = message.page();
    logged.push(`${page ? where(page) : '?'}: console.${type === 'warning' ? 'warn' : 'error'}: ${message.text()}`);
  });
  context.on('weberror', (webError) => {
    const page = webError.page();
    logged.push(`${page ? where(page) : '?'}: uncaught: ${webError.error().message}`);
  });
  // A prerendered page (home, the download shell) paints before the app runs and is inert until
  // then: a test that opens one acts once the app has started, as it did when #root was empty
  // (unless it asks for an earlier moment itself, with waitUntil 'commit' or 'domcontentloaded').
  context.on('page', (page) => {
    const untilStarted = () =>
      page.waitForFunction(() => !document.getElementById('root')?.hasAttribute('data-prerendered'), undefined, {
        timeout: 60_000,
      });
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil !== 'commit' && options?.waitUntil !== 'domcontentloaded') await untilStarted();
      return response;
    };
    const reload = page.reload.bind(page);
    page.reload = async (options) => {
      const response = await reload(options);
      await untilStarted();
      return response;
    };
  });
  const seen: string[] = [];
  violations.set(context, seen);
  // Bindings and init scripts run outside the page's CSP, so watching cannot itself violate it.
  await context.exposeBinding('__sendbridgeCspViolation', ({ page }, report: string) => {
    seen.push(`${new URL(page.url()).pathname}: ${report}`);
  });
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = (window as unknown as { __sendbridgeCspViolation(r: string): void }).__sendbridgeCspViolation;
        report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || '?'}:${e.lineNumber}`);
      },
      true,
    );
  });
  return context;
}

/** Every CSP violation the context's pages reported so far (empty when the app kept to its policy). */
export function cspViolations(context: BrowserContext): readonly string[] {
  const seen = violations.get(context);
  if (!seen) throw new Error('cspViolations: the context was not made by newContext');
  return seen;
}

/** Every console error or warning and uncaught exception the context's pages had so far (network lines aside). */
export function consoleProblems(context: BrowserContext): readonly string[] {
  const logged = consoleSeen.get(context);
  if (!logged) throw new Error('consoleProblems: the context was not made by newContext');
  return logged;
}

/**
 * Closes a context made by newContext and fails the test if any of its pages broke the CSP or
 * wrote an error or warning to the console (a React warning, a failed hydration, an exception).
 */
export async function closeCleanContext(context: BrowserContext): Promise<void> {
  const csp = [...cspViolations(context)];
  const logged = [...consoleProblems(context)];
  await context.close();
  expect(csp, 'Content-Security-Policy violations').toEqual([]);
  expect(logged, 'console errors and warnings').toEqual([]);
}

/** What axe reports for one rule broken on a page, trimmed to what a failure message needs. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: readonly string[];
}

/**
 * Runs axe-core on the page as it is now and returns the serious and critical violations
 * (WCAG 2.x A and AA rules plus axe's best practices). axe's source is evaluated through
 * DevTools (page.evaluate), which the app's CSP does not govern, so the app under test keeps
 * its real policy (docs/decisions/, "One CSP").
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axe.source);
  const found = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A port free on loopback right now, below the ephemeral range (scripts/local/ports.ts says why). */
export const getFreePort = freePort;
