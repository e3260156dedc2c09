import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import type { SenderReviewView } from '../../functions/domain/review-api';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { approveTransfer, comment, fileTab, imageLoaded, seekTo } from '../helpers/review-page';
import { recordWebm } from '../helpers/record-webm';
import { tinyPdf } from '../helpers/tiny-pdf';
import { bearer, createUser, json, mailsTo, sendFiles, type TestUser } from '../helpers/transfers';

/**
 * Reviews, the recipient's side, in Chromium on the built app under its CSP: a link visitor
 * pins a comment on an image (a click, then the arrow keys), comments at a video's time and on a
 * PDF's page, favourites and approves, all shown as an unverified name; a reviewer who verifies
 * their address shows it; a closed review is read only; a password transfer shows no review
 * before it is unlocked; a 429 reads as a sentence. The sender's side is read through the API.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let sender: TestUser;
let context: BrowserContext;
let page: Page;
let fixtures: { photo: Buffer; video: Buffer; pdf: Buffer };

const POLL = { timeout: 60_000, interval: 250 };
const VISITOR = 'Robin Visitor';
const REVIEWER = 'e2e.reviewer.verified@example.com';

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  sender = await createUser(app, 'e2e.review.sender@example.com', 'pro');
  fixtures = {
    photo: await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3a7' } })
      .jpeg()
      .toBuffer(),
    video: await recordWebm(browser, 'video'),
    pdf: tinyPdf(),
  };
}, 300_000);
afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

/** A transfer of a photo, a video and a PDF with review on (the sender's switch, through the API). */
async function reviewTransfer(extra: Record<string, unknown> = {}): Promise<CreateTransferResponse> {
  const t = await sendFiles(
    app,
    sender,
    new Map<string, Uint8Array>([
      ['photo.jpg', fixtures.photo],
      ['cut.webm', fixtures.video],
      ['brief.pdf', fixtures.pdf],
    ]),
    extra,
  );
  const on = await api(app, `/transfers/${t.id}/review`, json({ enabled: true }, bearer(sender), 'PATCH'));
  expect(on.status, on.text).toBe(200);
  return t;
}

const senderView = async (t: CreateTransferResponse) => {
  const res = await api(app, `/transfers/${t.id}/review`, { headers: bearer(sender) });
  expect(res.status, res.text).toBe(200);
  return res.json as SenderReviewView;
};

const threads = (p: Page) => p.getByTestId('review-thread');

/** "Continue with a name" in the dialog the first write opens. */
async function continueAs(p: Page, name: string): Promise<void> {
  await p.getByTestId('review-identity-dialog').waitFor();
  await p.getByTestId('review-identity-name').click();
  await p.getByTestId('review-visitor-name').fill(name);
  await p.getByTestId('review-visitor-continue').click();
  await p.getByTestId('review-identity-dialog').waitFor({ state: 'detached' });
}

describe('a review on the download page', () => {
  let t: CreateTransferResponse;
  beforeAll(async () => {
    t = await reviewTransfer();
  }, 120_000);

  it('lets a link visitor pin, time and page comments, favourite and approve, shown as unverified', async () => {
    await page.goto(`${web.url}${new URL(t.link).pathname}`);
    await page.getByTestId('review').waitFor();
    // without review the page shows its gallery; with it, the review's own previews
    expect(await page.getByTestId('previews').count()).toBe(0);

    // the image: a click places the pin at that point, the arrow keys move it
    await fileTab(page, 'photo.jpg').click();
    const image = page.getByTestId('review-image');
    await image.waitFor({ timeout: POLL.timeout });
    await imageLoaded(page, POLL.timeout);
    const box = (await image.boundingBox())!;
    await page.getByTestId('review-image-button').click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    const pin = page.getByTestId('review-draft-pin');
    expect(Number(await pin.getAttribute('data-x'))).toBeCloseTo(0.25, 1);
    await pin.press('ArrowRight');
    await pin.press('Shift+ArrowUp');
    const x = Number(await pin.getAttribute('data-x'));
    const y = Number(await pin.getAttribute('data-y'));
    expect(x).toBeCloseTo(0.27, 1);
    expect(y).toBeCloseTo(0.65, 1);
    await comment(page, 'The <b>logo</b> should be larger');
    await continueAs(page, VISITOR);
    await threads(page).first().waitFor();
    // plain text: the tags show as typed, nothing is rendered as HTML
    expect(await page.getByTestId('review-comment-text').first().textContent()).toBe(
      'The <b>logo</b> should be larger',
    );
    expect(await page.locator('[data-testid="review-comment-text"] b').count()).toBe(0);
    expect(await page.getByTestId('review-author').first().textContent()).toBe(VISITOR);
    expect(await page.getByTestId('review-unverified').first().isVisible()).toBe(true);
    const marker = page.getByTestId('review-marker');
    expect(await marker.textContent()).toBe('1');
    expect(await page.getByTestId('review-identity').textContent()).toContain(VISITOR);

    // a reply in the thread
    await page.getByTestId('review-reply-open').click();
    await page.getByTestId('review-reply-body').fill('And the tagline too');
    await page.getByTestId('review-reply-submit').click();
    await page.getByTestId('review-reply').waitFor();
    expect(await page.getByTestId('review-reply').getByTestId('review-comment-text').textContent()).toBe(
      'And the tagline too',
    );

    await page.getByTestId('review-favourite').click();
    await expect.poll(() => page.getByTestId('review-favourite').getAttribute('aria-pressed'), POLL).toBe('true');
    await page.getByTestId('review-file-decision').getByTestId('review-approve').click();
    await expect
      .poll(
        () =>
          page.getByTestId('review-file-decision').getByTestId('review-decision-status').getAttribute('data-decision'),
        POLL,
      )
      .toBe('approved');

    // the video: the comment takes the player's time, and its timecode seeks back to it
    await fileTab(page, 'cut.webm').click();
    const video = page.getByTestId('review-media');
    await video.waitFor();
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, POLL);
    await seekTo(video, 1);
    await expect.poll(() => page.getByTestId('review-comment-time').textContent(), POLL).toBe('at 0:01');
    await comment(page, 'Cut here');
    const timecode = page.getByTestId('review-thread-time');
    await timecode.waitFor();
    expect(await timecode.textContent()).toBe('at 0:01');
    await seekTo(video, 0);
    await timecode.click();
    await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime), POLL).toBeCloseTo(1, 0);

    // the PDF: a page number
    await fileTab(page, 'brief.pdf').click();
    await page.getByTestId('review-pdf').waitFor();
    await page.getByTestId('review-comment-page').fill('1');
    await comment(page, 'Typo in the heading');
    await page.getByTestId('review-thread-page').waitFor();
    expect(await page.getByTestId('review-thread-page').textContent()).toBe('page 1');

    // the whole transfer
    await approveTransfer(page, POLL);

    // the sender sees the same: anchors, the visitor's name, the favourite and both approvals
    const seen = await senderView(t);
    const byBody = new Map(seen.comments.map((c) => [c.body, c]));
    const pinned = byBody.get('The <b>logo</b> should be larger')!;
    expect(pinned.author).toEqual({ kind: 'visitor', name: VISITOR });
    expect(pinned.anchor).toMatchObject({ kind: 'point' });
    expect(pinned.anchor?.kind === 'point' && pinned.anchor.x).toBeCloseTo(x, 3);
    expect(pinned.anchor?.kind === 'point' && pinned.anchor.y).toBeCloseTo(y, 3);
    expect(byBody.get('Cut here')?.anchor).toEqual({ kind: 'time', seconds: 1 });
    expect(byBody.get('Typo in the heading')?.anchor).toEqual({ kind: 'page', page: 1 });
    const photoId = seen.files.find((f) => f.fileName === 'photo.jpg')!.fileId;
    expect(seen.favourites[photoId]).toEqual([VISITOR]);
    expect(
      seen.decisions
        .map((d) => [d.subject === 'transfer' ? 'transfer' : d.subject === photoId ? 'photo' : d.subject, d.decision])
        .sort(),
    ).toEqual([
      ['photo', 'approved'],
      ['transfer', 'approved'],
    ]);

    // the same browser is the same reviewer after a reload: its favourite and decisions are there
    await page.reload();
    await page.getByTestId('review').waitFor();
    await fileTab(page, 'photo.jpg').click();
    await expect.poll(() => page.getByTestId('review-favourite').getAttribute('aria-pressed'), POLL).toBe('true');
    expect(await page.getByTestId('review-marker').count()).toBe(1);
  });

  it("shows a verified reviewer's address on their comment", async () => {
    await page.goto(`${web.url}${new URL(t.link).pathname}`);
    await page.getByTestId('review').waitFor();
    await fileTab(page, 'brief.pdf').click();
    await page.getByTestId('review-comment-body').waitFor();
    // the sender answers meanwhile: the page asks again when the tab is seen again (and every 15 s)
    const first = (await senderView(t)).comments.find((c) => c.body === 'Typo in the heading')!;
    const answered = await api(
      app,
      `/transfers/${t.id}/review/comments`,
      json({ fileId: first.fileId, parentId: first.commentId, body: 'Fixed in v2' }, bearer(sender)),
    );
    expect(answered.status, answered.text).toBe(201);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    const reply = page.getByTestId('review-reply').filter({ hasText: 'Fixed in v2' });
    await reply.waitFor({ timeout: POLL.timeout });
    expect(await reply.getByTestId('review-author').textContent()).toBe('Sender');

    const before = await threads(page).count();
    await comment(page, 'Approved by legal once page 1 is fixed');
    await page.getByTestId('review-identity-verify').click();
    await page.getByTestId('review-verify-email').fill(REVIEWER);
    await page.getByTestId('review-verify-send').click();
    await page.getByTestId('review-verify-code').waitFor();
    await expect.poll(async () => (await mailsTo(app, REVIEWER)).length, POLL).toBeGreaterThan(0);
    const mail = (await mailsTo(app, REVIEWER)).pop()!;
    const code = /\b(\d{5})\b/u.exec(`${mail.subject} ${mail.body.text}`)![1]!;
    await page.getByTestId('review-verify-code').fill(code);
    await page.getByTestId('review-verify-submit').click();
    await expect.poll(() => threads(page).count(), POLL).toBe(before + 1);
    const mine = threads(page).filter({ hasText: 'Approved by legal' });
    expect(await mine.getByTestId('review-author').textContent()).toBe(REVIEWER);
    expect(await mine.getByTestId('review-unverified').count()).toBe(0);
    expect(await page.getByTestId('review-identity').textContent()).toContain(REVIEWER);
    // the visitor's comment on the same page stays marked unverified
    const theirs = threads(page).filter({ hasText: 'Typo in the heading' });
    expect(await theirs.getByTestId('review-unverified').count()).toBe(1);
    // the session is the page's verified-recipient session: a reload writes as the same address
    await page.reload();
    await page.getByTestId('review').waitFor();
    expect(await page.getByTestId('review-identity').textContent()).toContain(REVIEWER);
  });

  it('says so, kindly, when a reviewer comments too fast (429)', async () => {
    const visitor = { visitorId: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'Speedy' };
    const fileId = (await senderView(t)).files[0]!.fileId;
    for (let i = 0; ; i += 1) {
      const res = await api(app, '/getDownload/review/comment', json({ id: t.id, visitor, fileId, body: `note ${i}` }));
      if (res.status === 429) break;
      expect(res.status, res.text).toBe(201);
      expect(i).toBeLessThan(100);
    }
    // the page's own origin only: the init script also runs in the PDF's and players' frames
    await context.addInitScript(
      ([key, value, origin]) => {
        if (location.origin === origin) localStorage.setItem(key!, value!);
      },
      [`sendbridge.review.visitor.${t.id}`, JSON.stringify(visitor), new URL(web.url).origin],
    );
    await page.goto(`${web.url}${new URL(t.link).pathname}`);
    await page.getByTestId('review-comment-body').waitFor();
    await comment(page, 'One more');
    await page.getByTestId('review-comment-error').waitFor();
    expect(await page.getByTestId('review-comment-error').textContent()).toMatch(
      /^You are commenting too fast\. Please try again in \d+ minutes?\.$/u,
    );
  });
});

describe('a review that is not open to writes', () => {
  it('is read only once the sender closed it', async () => {
    const t = await reviewTransfer();
    const closed = await api(app, `/transfers/${t.id}/review`, json({ closed: true }, bearer(sender), 'PATCH'));
    expect(closed.status, closed.text).toBe(200);
    await page.goto(`${web.url}${new URL(t.link).pathname}`);
    await page.getByTestId('review-readonly').waitFor();
    expect(await page.getByTestId('review-comment-form').count()).toBe(0);
    expect(await page.getByTestId('review-approve').count()).toBe(0);
    expect(await page.getByTestId('review-favourite').first().isDisabled()).toBe(true);
  });

  it('stays readable, read only, below the expired page', async () => {
    const t = await reviewTransfer();
    const fileId = (await senderView(t)).files[0]!.fileId;
    const visitor = { visitorId: 'ExpiredVisitor00000001', name: 'Early Bird' };
    const said = await api(
      app,
      '/getDownload/review/comment',
      json({ id: t.id, visitor, fileId, body: 'Before it ended' }),
    );
    expect(said.status, said.text).toBe(201);
    const expiryDate = Date.now() - 2 * 86_400_000;
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transfer(t.id),
        UpdateExpression: 'SET expiryDate = :x, sweepDueAt = :x, gsi2sk = :s',
        ExpressionAttributeValues: { ':x': expiryDate, ':s': keys.sweepIndex(expiryDate, t.id).gsi2sk },
      }),
    );
    await page.goto(`${web.url}${new URL(t.link).pathname}`);
    await page.getByTestId('download-expired').waitFor();
    await page.getByTestId('review-readonly').waitFor({ timeout: POLL.timeout });
    expect(await page.getByTestId('review-readonly').textContent()).toBe(
      'This transfer has expired: the review is read only.',
    );
    expect(await page.getByTestId('review-comment-text').first().textContent()).toBe('Before it ended');
    expect(await page.getByTestId('review-comment-form').count()).toBe(0);
  });

  it('shows nothing of a password transfer before it is unlocked', async () => {
    const t = await reviewTransfer({ password: 'open sesame' });
    await page.goto(`${web.url}${new URL(t.link).pathname}`);
    await page
      .getByLabel(/password/iu)
      .first()
      .fill('open sesame');
    expect(await page.getByTestId('review').count()).toBe(0);
    await page
      .getByLabel(/password/iu)
      .first()
      .press('Enter');
    await page.getByTestId('review').waitFor();
    await page.getByTestId('review-file').waitFor();
  });
});
