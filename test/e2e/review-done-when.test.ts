/**
 * A review as a new user meets it, both sides in Chromium on the built app: a pro user sends three
 * images, a two-page PDF and a video by email to two recipients with "Request a review" ticked in
 * the dashboard's send form; the first recipient opens their mailed link, verifies their address
 * with the mailed code, pins a comment on an image, comments at 0:05 on the video and on page 2
 * of the PDF, favourites a file and approves the transfer; the sender's open dashboard shows the
 * review's badge (the bell's 15 s poll, no reload), the sender replies and resolves in the
 * TransferModal and exports the PDF summary; the second recipient's link, opened by a visitor who
 * types a name, comments as unverified.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SenderReviewView } from '../../functions/domain/review-api';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { approveTransfer, comment, fileTab, imageLoaded, seekTo } from '../helpers/review-page';
import { recordWebm } from '../helpers/record-webm';
import { bearer, createUser, mailsTo, waitForMail, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let sender: TestUser;
let senderSide: { context: BrowserContext; page: Page };
let slug: string;

/** Waits long enough for the bell's 15 s poll on a loaded machine; never a timing assertion. */
const POLL = { timeout: 90_000, interval: 500 } as const;
const FIRST = 'first.reviewer@example.com';
const SECOND = 'second.reviewer@example.com';

const photo = (background: string) =>
  sharp({ create: { width: 900, height: 600, channels: 3, background } })
    .jpeg()
    .toBuffer();

async function twoPagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['Brief, page one', 'Brief, page two'])
    doc.addPage([400, 300]).drawText(text, { x: 40, y: 150, font, size: 18 });
  return Buffer.from(await doc.save());
}

async function senderView(): Promise<SenderReviewView> {
  const res = await api(app, `/transfers/${slug}/review`, { headers: bearer(sender) });
  expect(res.status, res.text).toBe(200);
  return res.json as SenderReviewView;
}

/** The personal download link the transfer's mail gave `to`. */
async function mailedLink(to: string): Promise<string> {
  const mail = await waitForMail(app, to, /./u, POLL.timeout);
  const link = new RegExp(
    `${web.url.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}/downloads/[A-Za-z0-9]+/[A-Za-z0-9]+`,
    'u',
  ).exec(mail.body.text);
  if (!link) throw new Error(`no download link in the mail to ${to}: ${mail.body.text.slice(0, 400)}`);
  return new URL(link[0]).pathname;
}

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  sender = await createUser(app, 'creative.sender@example.com', 'pro');
}, 300_000);

afterAll(async () => {
  if (senderSide) await closePage(senderSide.context);
  await stopBrowserStack({ app, web, browser });
});

describe('a review, from the send to the exported summary', () => {
  it('sends three images, a PDF and a video by email with "Request a review"', async () => {
    const video = await recordWebm(browser, 'video', 6500);
    senderSide = await openPage(browser);
    const { page } = senderSide;
    await logIn(page, web.url, sender.email);
    await page.getByTestId('file-input').setInputFiles([
      { name: 'hero.jpg', mimeType: 'image/jpeg', buffer: await photo('#3a7') },
      { name: 'detail.jpg', mimeType: 'image/jpeg', buffer: await photo('#a73') },
      { name: 'team.jpg', mimeType: 'image/jpeg', buffer: await photo('#37a') },
      { name: 'brief.pdf', mimeType: 'application/pdf', buffer: await twoPagePdf() },
      { name: 'cut.webm', mimeType: 'video/webm', buffer: video },
    ]);
    for (const to of [FIRST, SECOND]) {
      await page.getByTestId('recipients-input').fill(to);
      await page.getByTestId('recipients-input').press('Enter');
    }
    await page.getByTestId('options-toggle').click();
    await page.getByTestId('send-review').check();
    await page.getByTestId('send-submit').click();
    const first = await mailedLink(FIRST);
    slug = first.split('/')[2]!;
    expect((await senderView()).settings).toMatchObject({ enabled: true, writable: true });
    expect((await senderView()).files.map((f) => f.fileName).sort()).toEqual([
      'brief.pdf',
      'cut.webm',
      'detail.jpg',
      'hero.jpg',
      'team.jpg',
    ]);
  });

  it('the first recipient verifies, pins, comments at 0:05 and on page 2, favourites and approves', async () => {
    // the sender keeps the dashboard open meanwhile
    await senderSide.page.goto(`${web.url}/dash/transfers`);
    await senderSide.page.locator(`[data-testid="transfer-row"][data-slug="${slug}"]`).waitFor();

    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${web.url}${await mailedLink(FIRST)}`);
      await page.getByTestId('review').waitFor();

      // the image: a pin where the recipient clicks
      await fileTab(page, 'hero.jpg').click();
      await imageLoaded(page, POLL.timeout);
      const box = (await page.getByTestId('review-image').boundingBox())!;
      await page.getByTestId('review-image-button').click({ position: { x: box.width * 0.6, y: box.height * 0.3 } });
      await comment(page, 'Move the logo here');

      // who is commenting: the recipient verifies their address with the mailed code
      await page.getByTestId('review-identity-dialog').waitFor();
      await page.getByTestId('review-identity-verify').click();
      await page.getByTestId('review-verify-email').fill(FIRST);
      const before = (await mailsTo(app, FIRST)).length;
      await page.getByTestId('review-verify-send').click();
      await page.getByTestId('review-verify-code').waitFor();
      await expect.poll(async () => (await mailsTo(app, FIRST)).length, POLL).toBeGreaterThan(before);
      const mail = (await mailsTo(app, FIRST)).pop()!;
      const code = /\b(\d{5})\b/u.exec(`${mail.subject} ${mail.body.text}`)![1]!;
      await page.getByTestId('review-verify-code').fill(code);
      await page.getByTestId('review-verify-submit').click();
      const pinned = page.getByTestId('review-thread').filter({ hasText: 'Move the logo here' });
      await pinned.waitFor({ timeout: POLL.timeout });
      expect(await pinned.getByTestId('review-author').textContent()).toBe(FIRST);
      expect(await pinned.getByTestId('review-unverified').count()).toBe(0);
      expect(await page.getByTestId('review-marker').count()).toBe(1);

      // the video: at 0:05 of its player
      await fileTab(page, 'cut.webm').click();
      const media = page.getByTestId('review-media');
      await media.waitFor();
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, POLL);
      await seekTo(media, 5.2);
      await expect.poll(() => page.getByTestId('review-comment-time').textContent(), POLL).toBe('at 0:05');
      await comment(page, 'Cut to the close-up here');
      await page.getByTestId('review-thread-time').filter({ hasText: 'at 0:05' }).waitFor();

      // the PDF: page 2
      await fileTab(page, 'brief.pdf').click();
      await page.getByTestId('review-pdf').waitFor();
      await page.getByTestId('review-comment-page').fill('2');
      await comment(page, 'The dates on page two are wrong');
      await page.getByTestId('review-thread-page').filter({ hasText: 'page 2' }).waitFor();

      // a favourite, and the whole transfer approved
      await fileTab(page, 'detail.jpg').click();
      await page.getByTestId('review-favourite').click();
      await expect.poll(() => page.getByTestId('review-favourite').getAttribute('aria-pressed'), POLL).toBe('true');
      await approveTransfer(page, POLL);
    } finally {
      await closePage(context);
    }

    const seen = await senderView();
    const anchors = seen.comments.filter((c) => !c.parentId).map((c) => [c.body, c.anchor?.kind, c.author.kind]);
    expect(anchors.sort()).toEqual(
      [
        ['Move the logo here', 'point', 'verified'],
        ['Cut to the close-up here', 'time', 'verified'],
        ['The dates on page two are wrong', 'page', 'verified'],
      ].sort(),
    );
    expect(seen.comments.find((c) => c.body.startsWith('Cut to'))?.anchor).toMatchObject({ kind: 'time' });
    expect(seen.comments.find((c) => c.body.startsWith('The dates'))?.anchor).toEqual({ kind: 'page', page: 2 });
    const detail = seen.files.find((f) => f.fileName === 'detail.jpg')!.fileId;
    expect(seen.favourites[detail]).toEqual([FIRST]);
    expect(seen.decisions.filter((d) => d.subject === 'transfer').map((d) => d.decision)).toEqual(['approved']);
  });

  it("shows on the sender's open dashboard without a reload; the sender replies, resolves and exports the PDF", async () => {
    const { page } = senderSide;
    const row = page.locator(`[data-testid="transfer-row"][data-slug="${slug}"]`);
    // the bell's 15 s poll sees the activity and the list asks again
    await expect.poll(() => row.getByTestId('review-badge').textContent(), POLL).toMatch(/Approved.*3 unread/u);

    await page.goto(`${web.url}/dash/transfers/${slug}#review`);
    const section = page.getByRole('dialog').getByTestId('review-section');
    await page.locator('[data-testid="review-section"][data-state="open"]').waitFor();
    const thread = section.getByTestId('review-thread').filter({ hasText: 'The dates on page two are wrong' });
    expect(await thread.getByTestId('review-anchor').textContent()).toBe('page 2');
    await thread.getByTestId('review-reply-open').click();
    await thread.getByTestId('review-reply-input').fill('Fixed: version 2 follows');
    await thread.getByTestId('review-reply-send').click();
    await thread.getByTestId('review-reply').waitFor();
    await thread.getByTestId('review-resolve').click();
    await thread.getByTestId('review-reopen-thread').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByTestId('review-export-pdf').click(),
    ]);
    const pdf = await PDFDocument.load(readFileSync((await download.path())!));
    // the summary, then a page per file
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(6);

    const seen = await senderView();
    const root = seen.comments.find((c) => c.body === 'The dates on page two are wrong')!;
    expect(root.resolvedAt).toBeGreaterThan(0);
    expect(seen.comments.filter((c) => c.parentId === root.commentId).map((c) => [c.author.kind, c.body])).toEqual([
      ['sender', 'Fixed: version 2 follows'],
    ]);
  });

  it("the second recipient's link, opened by a visitor who types a name, comments as unverified", async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${web.url}${await mailedLink(SECOND)}`);
      await page.getByTestId('review').waitFor();
      await fileTab(page, 'team.jpg').click();
      await page.getByTestId('review-comment-body').waitFor();
      await comment(page, 'Can we see a warmer crop?');
      await page.getByTestId('review-identity-dialog').waitFor();
      await page.getByTestId('review-identity-name').click();
      await page.getByTestId('review-visitor-name').fill('Sam from the agency');
      await page.getByTestId('review-visitor-continue').click();
      const mine = page.getByTestId('review-thread').filter({ hasText: 'Can we see a warmer crop?' });
      await mine.waitFor({ timeout: POLL.timeout });
      expect(await mine.getByTestId('review-author').textContent()).toBe('Sam from the agency');
      expect(await mine.getByTestId('review-unverified').isVisible()).toBe(true);
    } finally {
      await closePage(context);
    }
    const seen = await senderView();
    expect(seen.comments.find((c) => c.body === 'Can we see a warmer crop?')?.author).toEqual({
      kind: 'visitor',
      name: 'Sam from the agency',
    });
  });
});
