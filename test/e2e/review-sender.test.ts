/**
 * The sender's side of a review in Chromium, in the shipped app under its CSP: "Request a review"
 * in the dashboard's send form; a recipient's comments (posted through the recipient API: the
 * download page's review is not this file's) shown in the TransferModal per file with their
 * anchors, answered and resolved there; the list's badge following a recipient's decision and
 * comment while the dashboard stays open (the bell's poll); the CSV and PDF exports saved.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { keys } from '../../functions/data/keys';
import { parseCsv } from '../../functions/domain/csv';
import type { SenderReviewView } from '../../functions/domain/review-api';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { bearer, createUser, json, randomData, sendFiles, type TestUser } from '../helpers/transfers';

let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let sender: TestUser;
let t: CreateTransferResponse;

/** Waits that cover the bell's 15 s poll and a loaded machine (never a timing assertion). */
const POLL = { timeout: 60_000, interval: 500 } as const;
const ADA = { visitorId: 'AdaVisitor000000000001', name: 'Ada (agency)' };
const fileIdOf = (name: string) => t.files.find((f) => f.fileName === name)!.fileId;

async function recipientPost(path: string, body: Record<string, unknown>) {
  const res = await api(app, `/getDownload/review${path}`, json({ id: t.id, visitor: ADA, ...body }));
  expect(res.status, res.text).toBeLessThan(300);
  return res;
}

async function senderView(): Promise<SenderReviewView> {
  const res = await api(app, `/transfers/${t.id}/review`, { headers: bearer(sender) });
  expect(res.status, res.text).toBe(200);
  return res.json as SenderReviewView;
}

async function saved(p: Page, testId: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([p.waitForEvent('download'), p.getByRole('dialog').getByTestId(testId).click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  sender = await createUser(app, 'review.sender.e2e@example.com', 'pro');
  const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } })
    .jpeg()
    .toBuffer();
  t = await sendFiles(
    app,
    sender,
    new Map<string, Uint8Array>([
      ['photo.jpg', photo],
      ['cut-v1.mp4', Buffer.from('a video, by its name')],
    ]),
    { review: true },
  );
  await recipientPost('/comment', {
    fileId: fileIdOf('photo.jpg'),
    anchor: { kind: 'point', x: 0.25, y: 0.5 },
    body: '=Crop tighter, "left" side',
  });
  await recipientPost('/comment', {
    fileId: fileIdOf('cut-v1.mp4'),
    anchor: { kind: 'time', seconds: 5.2 },
    body: 'Jump cut here',
  });
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

describe('the review in the TransferModal', () => {
  it('shows each file’s threads with their anchors, takes a reply and resolves, and marks the review read', async () => {
    expect((await senderView()).summary.unread).toBe(2);
    await logIn(page, web.url, sender.email);
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const section = page.getByRole('dialog').getByTestId('review-section');
    await page.locator('[data-testid="review-section"][data-state="open"]').waitFor();
    const photo = section.locator(`[data-testid="review-file"][data-file-id="${fileIdOf('photo.jpg')}"]`);
    const thread = photo.getByTestId('review-thread');
    expect(await thread.getByTestId('review-anchor').textContent()).toBe('pin 1');
    expect(await thread.getByTestId('review-comment').textContent()).toContain('Ada (agency) (unverified)');
    expect(await thread.getByTestId('review-comment').textContent()).toContain('=Crop tighter, "left" side');
    const video = section.locator(`[data-testid="review-file"][data-file-id="${fileIdOf('cut-v1.mp4')}"]`);
    expect(await video.getByTestId('review-anchor').textContent()).toBe('at 0:05');
    // opening it marked the comments read (the list's unread count goes)
    await expect.poll(async () => (await senderView()).summary.unread, POLL).toBe(0);

    await thread.getByTestId('review-reply-open').click();
    await thread.getByTestId('review-reply-input').fill('Done in v2, thanks!');
    await thread.getByTestId('review-reply-send').click();
    await thread.getByTestId('review-reply').waitFor();
    expect(await thread.getByTestId('review-reply').textContent()).toContain('You');
    expect(await thread.getByTestId('review-reply').textContent()).toContain('Done in v2, thanks!');

    await thread.getByTestId('review-resolve').click();
    await thread.getByTestId('review-reopen-thread').waitFor();
    expect(await thread.getAttribute('data-resolved')).toBe('true');

    const view = await senderView();
    const root = view.comments.find((c) => c.body.startsWith('=Crop'))!;
    expect(root.resolvedAt).toBeGreaterThan(0);
    expect(view.comments.filter((c) => c.parentId === root.commentId)).toMatchObject([
      { author: { kind: 'sender' }, body: 'Done in v2, thanks!' },
    ]);
  });

  it('exports the review as CSV and as a PDF with the photo’s thumbnail', async () => {
    await logIn(page, web.url, sender.email);
    await page.goto(`${web.url}/dash/transfers/${t.id}#review`);
    const section = page.getByRole('dialog').getByTestId('review-section');
    await section.getByTestId('review-export-csv').waitFor();
    // the thumbnail is made by a job: the PDF waits until the modal shows it
    await section.locator('img.rv-thumb').waitFor({ timeout: 60_000 });

    const csv = await saved(page, 'review-export-csv');
    expect(csv.name).toMatch(new RegExp(`^review-${t.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`, 'u'));
    const rows = parseCsv(csv.bytes.toString('utf8')).rows;
    expect(rows[0]).toEqual(['Type', 'File', 'Version', 'Anchor', 'Author', 'Verified', 'Text', 'Date', 'Resolved']);
    const pin = rows.find((r) => r[3] === 'pin 1' && r[0] === 'comment')!;
    // the formula guard keeps the comment text in a spreadsheet
    expect(pin.slice(0, 7)).toEqual([
      'comment',
      'photo.jpg',
      '1',
      'pin 1',
      'Ada (agency) (unverified)',
      'no',
      '\'=Crop tighter, "left" side',
    ]);
    expect(pin[8]).toMatch(/^yes \(/u);
    expect(rows.find((r) => r[0] === 'reply')?.slice(4, 7)).toEqual(['Sender', 'yes', 'Done in v2, thanks!']);
    expect(rows.find((r) => r[3] === 'at 0:05')?.[6]).toBe('Jump cut here');

    const pdf = await saved(page, 'review-export-pdf');
    expect(pdf.name).toMatch(/\.pdf$/u);
    const doc = await PDFDocument.load(pdf.bytes);
    // the summary, then a page per file in the review's order (file ids are random: either may come first)
    expect(doc.getPageCount()).toBe(3);
    const images = (i: number) =>
      doc.getPage(i).node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict)?.keys().length ?? 0;
    const order = (await senderView()).files.map((f) => f.fileName);
    expect(order.map((_, i) => images(i + 1))).toEqual(order.map((name) => (name === 'photo.jpg' ? 1 : 0)));
  });

  it('closes and re-opens the review: closed, the threads take no replies', async () => {
    await logIn(page, web.url, sender.email);
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const section = page.getByRole('dialog').getByTestId('review-section');
    await section.getByTestId('review-close').click();
    await section.getByTestId('review-reopen').waitFor();
    expect(await section.getByTestId('review-state').textContent()).toBe('Closed');
    expect(await section.getByTestId('review-reply-open').count()).toBe(0);
    expect((await senderView()).settings.closedAt).toBeGreaterThan(0);
    await section.getByTestId('review-reopen').click();
    await section.getByTestId('review-close').waitFor();
    expect(await section.getByTestId('review-reply-open').count()).toBeGreaterThan(0);
  });
});

describe('review on and off from the modal', () => {
  it('turns the review on for a transfer sent without, then off again', async () => {
    const plain = await sendFiles(app, sender, new Map([['notes.txt', Buffer.from('no review asked')]]));
    const settings = async () => {
      const res = await api(app, `/transfers/${plain.id}/review`, { headers: bearer(sender) });
      return res.status === 200 ? (res.json as SenderReviewView).settings.enabled : res.json.error.code;
    };
    expect(await settings()).toBe('review_off');
    await logIn(page, web.url, sender.email);
    await page.goto(`${web.url}/dash/transfers/${plain.id}`);
    const section = page.getByRole('dialog').getByTestId('review-section');
    await section.getByTestId('review-turn-on').click();
    await page.locator('[data-testid="review-section"][data-state="open"]').waitFor();
    expect(await section.getByTestId('review-file').count()).toBe(1);
    expect(await settings()).toBe(true);
    await section.getByTestId('review-turn-off').click();
    await page.locator('[data-testid="review-section"][data-state="off"]').waitFor();
    expect(await settings()).toBe('review_off');
  });
});

describe('an expired transfer', () => {
  it('keeps its review for the sender to read and export, with nothing to change', async () => {
    const old = await sendFiles(app, sender, new Map([['draft.pdf', Buffer.from('%PDF-1.4 a draft')]]), {
      review: true,
    });
    const said = await api(
      app,
      '/getDownload/review/comment',
      json({ id: old.id, visitor: ADA, fileId: old.files[0]!.fileId, body: 'Page 1 is fine' }),
    );
    expect(said.status, said.text).toBe(201);
    const expiryDate = Date.now() - 2 * 86_400_000;
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transfer(old.id),
        UpdateExpression: 'SET expiryDate = :x, sweepDueAt = :x, gsi2sk = :s',
        ExpressionAttributeValues: { ':x': expiryDate, ':s': keys.sweepIndex(expiryDate, old.id).gsi2sk },
      }),
    );
    await logIn(page, web.url, sender.email);
    await page.goto(`${web.url}/dash/transfers/${old.id}`);
    await page.locator('[data-testid="review-section"][data-state="expired"]').waitFor();
    const section = page.getByRole('dialog').getByTestId('review-section');
    await section.getByTestId('review-comment').waitFor();
    expect(await section.getByTestId('review-comment').textContent()).toContain('Page 1 is fine');
    expect(
      await section
        .locator(
          '[data-testid="review-reply-open"], [data-testid="review-resolve"], [data-testid="review-close"], [data-testid="review-turn-off"]',
        )
        .count(),
    ).toBe(0);
    expect(await section.getByTestId('review-export-csv').isEnabled()).toBe(true);
  });
});

describe('the dashboard list', () => {
  it('shows a recipient’s decision and new comment on the badge while it stays open', async () => {
    await logIn(page, web.url, sender.email);
    await page.goto(`${web.url}/dash/transfers`);
    const row = page.locator(`[data-testid="transfer-row"][data-slug="${t.id}"]`);
    await row.waitFor();
    await recipientPost('/decision', { subject: fileIdOf('cut-v1.mp4'), decision: 'changes_requested' });
    await recipientPost('/comment', { fileId: fileIdOf('photo.jpg'), body: 'One more thing' });
    // no reload: the bell's poll sees the activity and the list asks again
    await expect.poll(() => row.getByTestId('review-badge').textContent(), POLL).toBe('Review: Changes asked1 unread');
  });
});

describe('the send form', () => {
  it('sends with "Request a review" ticked: the transfer has its review on', async () => {
    await logIn(page, web.url, sender.email);
    await page.getByTestId('file-input').setInputFiles({
      name: 'poster-draft.pdf',
      mimeType: 'application/pdf',
      buffer: randomData(3000),
    });
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByLabel('Get a link to share myself').check();
    await page.getByTestId('send-review').check();
    await page.getByTestId('send-submit').click();
    await page.getByTestId('done-link').waitFor({ timeout: POLL.timeout });
    const slug = (await page.getByTestId('done-link').inputValue()).split('/').pop()!;
    const review = await api(app, `/transfers/${slug}/review`, { headers: bearer(sender) });
    expect(review.status, review.text).toBe(200);
    expect((review.json as SenderReviewView).settings).toMatchObject({ enabled: true, writable: true });
  });
});
