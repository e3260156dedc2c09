import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { CreateTransferResponse } from '@domain/transfer-api';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { getFreePort, launchBrowser, newContext, seriousAxeViolations } from '../helpers/browser';
import { closePage } from '../helpers/browser-stack';
import { api, startTestApp, startTestWeb } from '../helpers/local-app';
import { bearer, completeTransfer, createUser, json, uploadAll, type TestUser } from '../helpers/transfers';
import { tinyPdf } from '../helpers/tiny-pdf';
import { recordWebm } from '../helpers/record-webm';

/**
 * In Chromium, on the built app under its CSP: a transfer of an image, a PDF, a voice
 * memo and a recorded video shows the image's thumbnail (made by the thumbnails job), plays the
 * memo in the browser's player, labels both recordings, and opens the viewer with the keyboard;
 * a password transfer shows no preview until it is unlocked. Fixtures are made here: the photo
 * with sharp, the PDF by hand, the memo and the video recorded by Chromium's MediaRecorder.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let fixtures: { photo: Buffer; pdf: Buffer; memo: Buffer; video: Buffer };

const MEMO = 'voice-memo-2026-11-26T01-02-03.webm';
const VIDEO = 'video-2026-11-26T01-02-03.webm';

async function sendTransfer(password?: string): Promise<CreateTransferResponse> {
  const entry = (fileName: string, d: Buffer) => ({ fileName, size: d.length });
  const res = await api(
    app,
    '/me/transfers',
    json(
      {
        sendAs: 'link',
        fileObjects: [entry('holiday.jpg', fixtures.photo), entry('plan.pdf', fixtures.pdf)],
        voiceMemo: [entry(MEMO, fixtures.memo)],
        recordedVideos: [entry(VIDEO, fixtures.video)],
        ...(password ? { password } : {}),
      },
      bearer(owner),
    ),
  );
  expect(res.status, res.text).toBe(201);
  const t = res.json as CreateTransferResponse;
  await uploadAll(
    app,
    t,
    new Map([
      ['holiday.jpg', fixtures.photo],
      ['plan.pdf', fixtures.pdf],
      [MEMO, fixtures.memo],
      [VIDEO, fixtures.video],
    ]),
  );
  expect((await completeTransfer(app, t)).status).toBe(200);
  return t;
}

/** The first thumbnail once it has really loaded (the page polls while the job makes it). */
async function loadedThumbnail(page: Page): Promise<{ naturalWidth: number; alt: string }> {
  const thumb = page.getByTestId('preview-thumbnail').first();
  await thumb.waitFor({ timeout: 30_000 });
  await page.waitForFunction(
    () => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="preview-thumbnail"]');
      return !!img && img.complete && img.naturalWidth > 0;
    },
    undefined,
    { polling: 100, timeout: 30_000 },
  );
  return thumb.evaluate((img: HTMLImageElement) => ({ naturalWidth: img.naturalWidth, alt: img.alt }));
}

beforeAll(async () => {
  const port = await getFreePort();
  app = await startTestApp(`http://127.0.0.1:${port}`);
  web = await startTestWeb(port, app);
  // Players may start without a click: the test calls play() itself.
  browser = await launchBrowser(['--autoplay-policy=no-user-gesture-required']);
  owner = await createUser(app, 'e2e.previews@example.com');
  const photo = await sharp(Buffer.from(Array.from({ length: 900 * 600 * 3 }, (_, i) => (i * 31) % 256)), {
    raw: { width: 900, height: 600, channels: 3 },
  })
    .jpeg()
    .toBuffer();
  fixtures = {
    photo,
    pdf: tinyPdf(),
    memo: await recordWebm(browser, 'audio'),
    video: await recordWebm(browser, 'video'),
  };
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await app?.stop();
});

describe('previews on the download page', () => {
  let context: BrowserContext;
  let page: Page;

  afterAll(async () => {
    await closePage(context);
  });

  it('shows the image’s thumbnail, labels the recordings and plays the voice memo', async () => {
    const t = await sendTransfer();
    context = await newContext(browser);
    page = await context.newPage();
    await page.goto(`${web.url}/w/${t.id}`);
    await page.getByTestId('previews').waitFor({ timeout: 30_000 });

    const thumb = await loadedThumbnail(page);
    expect(thumb.naturalWidth).toBeGreaterThan(0);
    expect(thumb.naturalWidth).toBeLessThanOrEqual(400);
    expect(thumb.alt).toBe('holiday.jpg');

    const memo = page.locator('[data-testid="preview-player"][data-recording="voice"]');
    expect(await memo.getAttribute('data-file-name')).toBe(MEMO);
    expect(await memo.locator('figcaption').textContent()).toContain('Voice memo');
    const video = page.locator('[data-testid="preview-player"][data-recording="video"]');
    expect(await video.locator('figcaption').textContent()).toContain('Recorded video');
    expect(await video.locator('video').count()).toBe(1);

    const played = await memo.locator('audio').evaluate(async (audio: HTMLAudioElement) => {
      await audio.play();
      const start = Date.now();
      while (audio.currentTime === 0 && Date.now() - start < 10_000) await new Promise((r) => setTimeout(r, 100));
      audio.pause();
      return { readyState: audio.readyState, currentTime: audio.currentTime, error: audio.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.readyState).toBeGreaterThanOrEqual(2);
    expect(played.currentTime).toBeGreaterThan(0);

    const videoState = await video.locator('video').evaluate(async (v: HTMLVideoElement) => {
      if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
      return { width: v.videoWidth, error: v.error?.code ?? null };
    });
    expect(videoState).toEqual({ width: 160, error: null });

    // The PDF is a tile that opens the viewer; nothing is a download yet.
    expect(await page.locator('[data-testid="preview-tile"][data-kind="pdf"]').count()).toBe(1);
    const view = await api(app, '/getDownload', json({ id: t.id }));
    expect(view.json.totalDownloads).toBe(0);
  });

  it('opens the full-size viewer as a dialog: arrow keys move to the next file, Escape closes it and focus returns', async () => {
    await page.locator('[data-testid="preview-tile"][data-kind="image"] [data-testid="preview-open"]').click();
    const viewer = page.getByTestId('preview-viewer');
    await viewer.waitFor();
    expect(await viewer.evaluate((d: HTMLDialogElement) => d.open && d.matches(':modal'))).toBe(true);
    await page.waitForFunction(
      () => (document.querySelector<HTMLImageElement>('[data-testid="preview-full-image"]')?.naturalWidth ?? 0) === 900,
      undefined,
      { polling: 100 },
    );
    expect(await page.getByTestId('preview-full-image').getAttribute('alt')).toBe('holiday.jpg');
    expect(await page.getByTestId('preview-close').getAttribute('aria-label')).toBe('Close preview');
    expect(await page.getByTestId('preview-next').getAttribute('aria-label')).toBe('Next file');

    await page.keyboard.press('ArrowRight');
    await page.getByTestId('preview-pdf').waitFor();
    expect(await viewer.locator('h2').textContent()).toBe('plan.pdf');
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('preview-full-image').waitFor();

    // Tab stays inside the dialog.
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          () =>
            !!document.activeElement?.closest('[data-testid="preview-viewer"]') ||
            document.activeElement === document.body,
        ),
      ).toBe(true);
    }

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe(
      'preview-open',
    );
  });
});

describe('a password-protected transfer', () => {
  let context: BrowserContext;

  afterAll(async () => {
    await closePage(context);
  });

  it('shows no preview and asks for no previews until unlocked, then shows them', async () => {
    const t = await sendTransfer('preview pass 16');
    context = await newContext(browser);
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/getDownload/previews')) asked.push(r.url());
    });
    await page.goto(`${web.url}/w/${t.id}`);
    await page.getByTestId('download-password').waitFor();
    await page.waitForTimeout(1500);
    expect(await page.getByTestId('previews').count()).toBe(0);
    expect(await page.getByTestId('preview-thumbnail').count()).toBe(0);
    expect(asked).toEqual([]);

    await page.getByTestId('download-password').fill('preview pass 16');
    await page.getByTestId('download-unlock').click();
    await page.getByTestId('previews').waitFor({ timeout: 30_000 });
    expect((await loadedThumbnail(page)).naturalWidth).toBeGreaterThan(0);
    expect(asked.length).toBeGreaterThan(0);
  });
});
