import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadView } from '@domain/transfer-api';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { CHROMIUM_PATH, closeCleanContext, getFreePort, newContext } from '../helpers/browser';
import { startTestApp, startTestWeb } from '../helpers/local-app';
import { guestSendInBrowser } from '../helpers/guest-send';
import { waitForMail } from '../helpers/transfers';

/**
 * The voice memo recorder in Chromium with a fake microphone: a guest records a memo, sends it
 * by email through the verification code, and the transfer holds it. A second browser whose
 * media prompt answers no shows the spec's alert.
 */
const BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
];

let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
const sender = 'e2e.memo.sender@example.com';
const recipient = 'e2e.memo.recipient@example.com';

function launch(mediaPrompt: 'accept' | 'deny'): Promise<Browser> {
  // The fake media UI answers the permission prompt itself; '=deny' makes it refuse.
  const fakeUi = mediaPrompt === 'accept' ? '--use-fake-ui-for-media-stream' : '--use-fake-ui-for-media-stream=deny';
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BASE_ARGS, fakeUi] });
}

/** Keeps every stream the page opens, so the test can see the microphone was closed again. */
const TRACK_STREAMS = () => {
  const w = window as unknown as { __streams: MediaStream[]; __constraints: MediaStreamConstraints[] };
  w.__streams = [];
  w.__constraints = [];
  const devices = navigator.mediaDevices;
  // about:blank, where a new page starts, has no media devices; the app's pages do
  if (!devices) return;
  const original = devices.getUserMedia.bind(devices);
  devices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    w.__constraints.push(constraints ?? {});
    const stream = await original(constraints);
    w.__streams.push(stream);
    return stream;
  };
};

beforeAll(async () => {
  const port = await getFreePort();
  const origin = `http://127.0.0.1:${port}`;
  app = await startTestApp(origin);
  web = await startTestWeb(port, app);
  browser = await launch('accept');
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await app?.stop();
});

const activeTestId = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);

describe('a guest records a voice memo and sends it', () => {
  let context: BrowserContext;
  let page: Page;
  let memoName: string;
  let memoSize: number;

  it('records with the keyboard: countdown, Stop with elapsed time, then the memo is in the list and the microphone is off', async () => {
    context = await newContext(browser, { permissions: ['microphone', 'camera'] });
    await context.addInitScript(TRACK_STREAMS);
    page = await context.newPage();
    await page.goto(`${web.url}/`);

    await page.getByTestId('record-voice').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('recorder-countdown').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('recorder-countdown').textContent()).toMatch(/^[123]$/);
    expect(await page.getByTestId('recorder-countdown').getAttribute('aria-label')).toMatch(
      /^Recording starts in [123]$/,
    );

    await page.getByTestId('recorder-stop').waitFor({ timeout: 60_000 });
    // Focus moved from the vanished record button to Stop, so the keyboard can end it.
    expect(await activeTestId(page)).toBe('recorder-stop');
    // The clock runs (however slowly this machine lets the page tick) before Stop is pressed.
    await expect
      .poll(() => page.getByTestId('recorder-elapsed').textContent(), { timeout: 30_000 })
      .toMatch(/^0:(0[1-9]|[1-5]\d)$/);
    await page.keyboard.press('Enter');

    const item = page.locator('[data-testid="picked-file"][data-file-name^="voice-memo-"]');
    await item.waitFor({ timeout: 60_000 });
    memoName = (await item.getAttribute('data-file-name'))!;
    memoSize = Number(await item.getAttribute('data-file-size'));
    expect(memoName).toMatch(/^voice-memo-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.webm$/);
    expect(memoSize).toBeGreaterThan(0);
    expect(await page.getByTestId('recorder-saved').textContent()).toContain(memoName);
    expect(await activeTestId(page)).toBe('record-voice');

    const devices = await page.evaluate(() => {
      const w = window as unknown as { __streams: MediaStream[]; __constraints: MediaStreamConstraints[] };
      return {
        constraints: w.__constraints,
        tracks: w.__streams.flatMap((s) => s.getTracks().map((t) => ({ kind: t.kind, state: t.readyState }))),
      };
    });
    expect(devices.constraints).toEqual([{ audio: { echoCancellation: true } }]);
    expect(devices.tracks).toEqual([{ kind: 'audio', state: 'ended' }]);
  }, 300_000);

  it('a second memo replaces the first', async () => {
    await page.getByTestId('record-voice').click();
    await page.getByTestId('recorder-stop').waitFor({ timeout: 60_000 });
    // The old memo leaves the list as soon as the new recording starts (spec §4).
    expect(await page.locator('[data-testid="picked-file"]').count()).toBe(0);
    await page.waitForTimeout(1200);
    await page.getByTestId('recorder-stop').click();
    await page.getByTestId('recorder-saved').waitFor();
    const items = page.locator('[data-testid="picked-file"]');
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    memoName = (await items.first().getAttribute('data-file-name'))!;
    memoSize = Number(await items.first().getAttribute('data-file-size'));
    expect(memoName).toMatch(/^voice-memo-.*\.webm$/);
    expect(memoSize).toBeGreaterThan(0);
  }, 300_000);

  it('sends the memo by email after the verification code; the transfer holds it', async () => {
    await guestSendInBrowser(page, app, { sender, recipient });
    const mail = await waitForMail(app, recipient, /\/downloads\/[A-Za-z0-9]{7}\/[A-Za-z0-9]{8}/);
    const id = /\/downloads\/([A-Za-z0-9]{7})\/[A-Za-z0-9]{8}/.exec(mail.body.text)![1]!;

    const res = await fetch(`${app.apiOrigin}/api/getDownload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    expect(res.status).toBe(200);
    const view = (await res.json()) as DownloadView;
    expect(view.files.map((f) => [f.fileName, f.size])).toEqual([[memoName, memoSize]]);
    expect(view.files[0]!.fileName.startsWith('voice-memo-')).toBe(true);
    await closeCleanContext(context);
  }, 300_000);
});

describe('a browser that refuses the microphone', () => {
  let denying: Browser | undefined;
  afterAll(async () => {
    await denying?.close();
  });

  it('shows "Can\'t get audio permission" and records nothing', async () => {
    denying = await launch('deny');
    const context = await newContext(denying);
    const page = await context.newPage();
    await page.goto(`${web.url}/`);
    await page.getByTestId('record-voice').click();
    const alert = page.getByTestId('recorder-error');
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toBe("Can't get audio permission");
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await page.getByTestId('recorder-countdown').count()).toBe(0);
    expect(await page.locator('[data-testid="picked-file"]').count()).toBe(0);
    await closeCleanContext(context);
  }, 300_000);
});
