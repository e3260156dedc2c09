import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { keys } from '../../functions/data/keys';
import { putDelivery } from '../../functions/data/deliveries';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import type { LocalApp } from '../../scripts/local/app';
import { seriousAxeViolations } from '../helpers/browser';
import { closePage, logIn as logInAt, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  downloadFrom as downloadFromAt,
  fileRecordOf,
  guestToken,
  json,
  sendFiles,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';
import type { RequestSummary } from '../../functions/domain/requests-api';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { keyFragment } from '../../functions/domain/e2e-format';
import { localS3Client } from '../../scripts/local/s3';
import { stackBuckets } from '../helpers/local-app';
import { sendSealed } from '../helpers/sealed-transfers';
import { tinyPdf } from '../helpers/tiny-pdf';

/**
 * axe-core on every screen of the transfer loop and the account screens, in the shipped app
 * under its real CSP: no serious or critical violation (WCAG 2.x A/AA and axe best practices),
 * and no CSP violation on the way. New screens join the list as they arrive.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let context: BrowserContext;
let page: Page;

const DAY = 86_400_000;

function send(extra: Record<string, unknown> = {}, by: TestUser = owner): Promise<CreateTransferResponse> {
  const files = new Map<string, Uint8Array>([
    ['quarterly-report.pdf', Buffer.alloc(2048, 7)],
    ['site-photos/entrance.jpg', Buffer.alloc(4096, 3)],
  ]);
  return sendFiles(app, by, files, extra);
}

const linkPath = (t: CreateTransferResponse) => new URL(t.link).pathname;

/** A download of the transfer's first file, from `country` as CloudFront reports it. */
const downloadFrom = (t: CreateTransferResponse, country: string) => downloadFromAt(app, t, country);

/** One second of a 440 Hz tone as 8 kHz 16-bit mono PCM WAV. */
function wavTone(): Buffer {
  const rate = 8000;
  const samples = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i += 1)
    samples.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

async function expectAccessible(p: Page) {
  // The resting state is what is checked: with reduced motion the app's transitions end at once
  // (styles: prefers-reduced-motion), so axe never samples a colour halfway through one.
  await p.emulateMedia({ reducedMotion: 'reduce' });
  const violations = await seriousAxeViolations(p);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

const logIn = (p: Page, email: string, password: string) => logInAt(p, web.url, email, password);

// ---- file requests: a request, and a visitor's upload to it, through the API ----
async function createRequest(by: TestUser, body: Record<string, unknown>): Promise<RequestSummary> {
  const res = await api(app, '/requests', json(body, { authorization: `Bearer ${by.accessToken}` }));
  if (res.status !== 201) throw new Error(`POST /requests ${res.status} ${res.text}`);
  return res.json as RequestSummary;
}

async function uploadToRequest(id: string, visitor: string): Promise<void> {
  const token = await guestToken(app, visitor);
  const contents = new Map<string, Uint8Array>([
    ['contract-signed.pdf', Buffer.alloc(3000, 4)],
    ['scans/page-1.jpg', Buffer.alloc(5000, 2)],
  ]);
  const res = await api(
    app,
    `/r/${id}/uploads`,
    json(
      {
        senderName: 'Ada Visitor',
        senderEmail: visitor,
        message: 'Signed copy attached.',
        fileObjects: [...contents].map(([name, data]) => {
          const slash = name.lastIndexOf('/');
          return slash < 0
            ? { fileName: name, size: data.length }
            : { fileName: name.slice(slash + 1), itemPath: name, size: data.length };
        }),
      },
      { 'x-sender-token': token },
    ),
  );
  if (res.status !== 201) throw new Error(`POST /r/${id}/uploads ${res.status} ${res.text}`);
  const created = res.json as CreateTransferResponse;
  await uploadAll(app, created, contents);
  await completeTransfer(app, created);
}

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  owner = await createUser(app, 'a11y.owner@example.com', 'pro');
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

describe('no serious or critical axe violation', () => {
  it('home', async () => {
    await page.goto(`${web.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Send big files anywhere. Know when they land.' }).waitFor();
    await page.getByTestId('file-input').waitFor({ state: 'attached' });
    await expectAccessible(page);
  });

  it('home with its formats strip and an example toast', async () => {
    await page.goto(`${web.url}/`);
    await page.getByRole('region', { name: 'Works with the files and devices you already use' }).waitFor();
    const toast = page.getByRole('complementary', { name: 'Example activity' });
    await toast.waitFor({ timeout: 60_000 });
    // its arrival's fade (240 ms) over, so colours are sampled at rest; reduced motion would hide it
    await page.waitForTimeout(400);
    const violations = await seriousAxeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  it('a comparison page with the competitors and their sources', async () => {
    await page.goto(`${web.url}/compare/china`);
    await page.getByRole('list', { name: 'Sources' }).waitFor();
    await expectAccessible(page);
  });

  it('the roadmap with its notice for an unknown item', async () => {
    await page.goto(`${web.url}/roadmap/no-such-item`);
    await page.getByRole('status').waitFor();
    await expectAccessible(page);
  });

  it('the send form with files added', async () => {
    await page.goto(`${web.url}/`);
    await page.getByTestId('file-input').setInputFiles([
      { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 demo') },
      { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(2048, 1) },
    ]);
    await page.getByText('photo.jpg').first().waitFor();
    await page.getByTestId('options-toggle').click();
    await expectAccessible(page);
  });

  it('the signed-in send form with end-to-end encryption on: its passphrase fields, then the link note', async () => {
    await logIn(page, owner.email, 'secret123');
    await page.getByTestId('file-input').setInputFiles({
      name: 'photo.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.alloc(2048, 1),
    });
    await page.getByText('photo.jpg').first().waitFor();
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByTestId('send-e2e').check();
    await page.getByTestId('send-e2e-passphrase').fill('short');
    await expectAccessible(page);
    await page.getByLabel('Get a link to share myself').check();
    await page.getByText('The key is in the link; our server never sees it.').waitFor();
    await expectAccessible(page);
  });

  it("the guest's send form with end-to-end encryption shown off, and why", async () => {
    await page.goto(`${web.url}/`);
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 demo') });
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Sharing' }).click();
    expect(await page.getByTestId('send-e2e').isDisabled()).toBe(true);
    await expectAccessible(page);
  });

  it("the guest's verification step", async () => {
    await page.goto(`${web.url}/`);
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 demo') });
    await page.getByTestId('sender-email').fill('a11y.guest@example.com');
    await page.getByTestId('recipients-input').fill('a11y.friend@example.com');
    await page.getByTestId('recipients-input').press('Enter');
    await page.getByTestId('send-submit').click();
    await page.getByTestId('code-input').waitFor();
    await expectAccessible(page);
  });

  it('the download page of an open transfer', async () => {
    const t = await send();
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByTestId('download-summary').waitFor();
    await expectAccessible(page);
  });

  // the SHA256SUMS link saved once, one file's digest still being computed: its line pending, the page says so
  it('the download page after its checksums were saved, one file still being fingerprinted', async () => {
    const t = await send();
    await app.gateway.idle();
    const pending = t.files.find((f) => f.fileName === 'entrance.jpg')!;
    // a digest whose run holds a live claim: the manifest answers null for it and starts nothing
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transferFile(t.id, pending.fileId),
        UpdateExpression: 'REMOVE sha256 SET digestLeaseUntil = :l, digestAttempt = :a',
        ExpressionAttributeValues: { ':l': Date.now() + DAY, ':a': 'e0000000-0000-4000-8000-000000000001' },
      }),
    );
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByTestId('download-summary').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-checksums').click(),
    ]);
    expect(download.suggestedFilename()).toBe('SHA256SUMS');
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n');
    expect(lines.sort()).toEqual(
      [
        `${createHash('sha256').update(Buffer.alloc(2048, 7)).digest('hex')}  quarterly-report.pdf`,
        '# pending: site-photos/entrance.jpg',
      ].sort(),
    );
    await page.getByTestId('download-info').waitFor();
    await expectAccessible(page);
  });

  // the previews (a thumbnail, a player, the typed icons) and the viewer dialog
  it('the download page with its previews, and the viewer open', async () => {
    const photo = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    const t = await sendFiles(
      app,
      owner,
      new Map<string, Uint8Array>([
        ['garden.png', photo],
        ['notes.txt', Buffer.from('Planting plan\n- tomatoes\n- basil\n')],
        ['birdsong.wav', wavTone()],
        ['archive.zip', Buffer.alloc(512, 1)],
      ]),
    );
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByTestId('preview-thumbnail').waitFor({ timeout: 30_000 });
    await page.getByTestId('preview-player').waitFor();
    await expectAccessible(page);
    await page.locator('[data-testid="preview-tile"][data-kind="image"] [data-testid="preview-open"]').click();
    await page.getByTestId('preview-full-image').waitFor();
    await expectAccessible(page);
    await page.getByTestId('preview-next').click();
    await page.getByTestId('preview-text').waitFor();
    await expectAccessible(page);
  });

  it('the TransferModal with its previews', async () => {
    const user = await createUser(app, 'a11y.modal.previews@example.com', 'pro');
    const photo = await sharp({ create: { width: 240, height: 240, channels: 3, background: '#a26' } })
      .jpeg()
      .toBuffer();
    const t = await sendFiles(
      app,
      user,
      new Map<string, Uint8Array>([
        ['portrait.jpg', photo],
        ['readme.md', Buffer.from('# Read me\n')],
      ]),
    );
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const modal = page.getByRole('dialog');
    await modal.getByTestId('preview-thumbnail').waitFor({ timeout: 30_000 });
    await expectAccessible(page);
  });

  // a link shared while the upload runs: one file in, one still coming, "Mail me when it's complete" (docs/decisions/0074)
  it('the download page of a transfer still uploading, and withdrawn', async () => {
    const contents = new Map<string, Uint8Array>([
      ['first-cut.mov', Buffer.alloc(3000, 5)],
      ['second-cut.mov', Buffer.alloc(4000, 6)],
    ]);
    const created = await api(
      app,
      '/me/transfers',
      json(
        { sendAs: 'link', fileObjects: [...contents].map(([fileName, d]) => ({ fileName, size: d.length })) },
        { authorization: `Bearer ${owner.accessToken}` },
      ),
    );
    expect(created.status, created.text).toBe(201);
    const t = created.json as CreateTransferResponse;
    await uploadAll(app, { ...t, files: t.files.filter((f) => f.fileName === 'first-cut.mov') }, contents);
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByTestId('download-live').waitFor();
    await page.getByTestId('download-file').waitFor();
    await expectAccessible(page);
    const cancelled = await api(app, `/transfers/${t.id}/cancel`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    await page.getByTestId('download-withdrawn').waitFor({ timeout: 120_000 });
    await expectAccessible(page);
  });

  // the review view (a pinned thread, the comment box, decisions), its "who is commenting?" dialog, and both at 320 px
  it('the review view of a transfer with review on, its identity dialog, and at 320 px', async () => {
    const mockup = await sharp({ create: { width: 640, height: 400, channels: 3, background: '#48c' } })
      .png()
      .toBuffer();
    const t = await sendFiles(
      app,
      owner,
      new Map<string, Uint8Array>([
        ['mockup.png', mockup],
        ['birdsong.wav', wavTone()],
      ]),
    );
    const on = await api(app, `/transfers/${t.id}/review`, json({ enabled: true }, bearer(owner), 'PATCH'));
    expect(on.status, on.text).toBe(200);
    const visitor = { visitorId: 'a11yVisitor0000000000A', name: 'Ada Reviewer' };
    const fileId = t.files.find((f) => f.fileName === 'mockup.png')!.fileId;
    for (const anchor of [{ kind: 'point', x: 0.4, y: 0.3 }, undefined]) {
      const res = await api(
        app,
        '/getDownload/review/comment',
        json({ id: t.id, visitor, fileId, body: 'Brighter, please', ...(anchor ? { anchor } : {}) }),
      );
      expect(res.status, res.text).toBe(201);
    }
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.locator('[data-testid="review-file-tab"][data-file-name="mockup.png"]').click();
    await page.getByTestId('review-marker').waitFor({ timeout: 60_000 });
    await expectAccessible(page);
    await page.getByTestId('review-place-pin').click();
    await page.getByTestId('review-draft-pin').waitFor();
    await page.getByTestId('review-comment-body').fill('Looks good');
    await page.getByTestId('review-comment-submit').click();
    await page.getByTestId('review-identity-dialog').waitFor();
    await expectAccessible(page);
    await page.getByTestId('review-identity-name').click();
    await page.getByTestId('review-visitor-name').waitFor();
    await expectAccessible(page);
    await page.setViewportSize({ width: 320, height: 700 });
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await page.getByTestId('review-identity-dialog').waitFor({ state: 'detached' });
    await expectAccessible(page);
    // nothing wider than the phone: no sideways scroll
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });

  it('the download page asking for the password', async () => {
    const t = await send({ password: 'open sesame' });
    await page.goto(`${web.url}${linkPath(t)}`);
    await page
      .getByLabel(/password/i)
      .first()
      .waitFor();
    await expectAccessible(page);
  });

  it("a verified recipient's code step, its code field, and the page of a removed recipient", async () => {
    const recipient = 'a11y.verified@example.com';
    const t = await send({ sendAs: 'link', verifiedRecipients: { addresses: [recipient] } });
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByTestId('download-verify').waitFor();
    await expectAccessible(page);
    await page.getByTestId('download-verify-email').fill(recipient);
    await page.getByTestId('download-verify-send').click();
    await page.getByTestId('download-verify-code').waitFor();
    await expectAccessible(page);
    const mail = await waitForMail(app, recipient, /\b\d{5}\b/u);
    await page.getByTestId('download-verify-code').fill(/\b(\d{5})\b/u.exec(mail.subject)![1]!);
    await page.getByTestId('download-verify-submit').click();
    await page.getByTestId('download-summary').waitFor();
    const removed = await api(
      app,
      '/transfers/access/recipient',
      json({ slug: t.id, email: recipient, action: 'remove' }, bearer(owner)),
    );
    expect(removed.status, removed.text).toBe(200);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.getByTestId('download-access-ended').waitFor();
    await expectAccessible(page);
  });

  it('the download page of an end-to-end encrypted transfer: its passphrase, a link without its key, the files, a changed file', async () => {
    const pdf = { fileName: 'plan.pdf', bytes: tinyPdf() };
    const byWords = await sendSealed(app, owner, [pdf], 'a passphrase told in person');
    await page.goto(`${web.url}${byWords.path}`);
    await page.getByTestId('sealed-passphrase').fill('not it');
    await page.getByTestId('sealed-open').click();
    await page.getByTestId('sealed-passphrase-error').waitFor();
    await expectAccessible(page);

    const byLink = await sendSealed(app, owner, [pdf, { fileName: 'data.bin', bytes: Buffer.alloc(3000, 9) }]);
    await page.goto(`${web.url}${byLink.path}`);
    await page.getByTestId('sealed-key-problem').waitFor();
    await expectAccessible(page);

    const s3 = localS3Client(app.stack.urls.s3);
    try {
      const bucket = stackBuckets(app.stack).bucket;
      const fileId = byLink.t.files.find((f) => f.fileName === 'data.bin')!.fileId;
      const objectKey = (await fileRecordOf(app, byLink.t.id, fileId))!.key;
      const raw = Buffer.from(
        await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey }))).Body!.transformToByteArray(),
      );
      raw[10] = (raw[10] ?? 0) ^ 1;
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey, Body: raw }));
    } finally {
      s3.destroy();
    }
    await page.goto(`${web.url}${byLink.path}#${keyFragment(byLink.key)}`);
    await page.getByTestId('sealed-notice').waitFor();
    await expectAccessible(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid="download-file"][data-file-name="data.bin"]').click(),
    ]);
    expect(await download.failure()).not.toBeNull();
    await page.getByTestId('download-action-error').waitFor();
    await expectAccessible(page);
  });

  it('the download page of an expired transfer', async () => {
    const t = await send();
    const expiryDate = Date.now() - 3 * DAY;
    await dynamo().send(
      new UpdateCommand({
        TableName: app.stack.env.TABLE_NAME,
        Key: keys.transfer(t.id),
        UpdateExpression: 'SET expiryDate = :x, sweepDueAt = :x, gsi2sk = :s',
        ExpressionAttributeValues: { ':x': expiryDate, ':s': keys.sweepIndex(expiryDate, t.id).gsi2sk },
      }),
    );
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByText('Sorry, this download expired 3 days ago.').waitFor();
    await expectAccessible(page);
  });

  it('the reload screen of a screen whose chunk never arrived', async () => {
    await page.route('**/assets/about-page-*.js*', (route) =>
      route.request().method() === 'GET' ? route.abort('connectionreset') : route.continue(),
    );
    await page.goto(`${web.url}/about`);
    await page.getByRole('alert').getByRole('button', { name: 'Reload' }).waitFor({ timeout: 40_000 });
    await expectAccessible(page);
  }, 300_000);

  it('login', async () => {
    await page.goto(`${web.url}/login`);
    await page.getByRole('heading', { level: 1, name: 'Log in to SendBridge' }).waitFor();
    await expectAccessible(page);
  });

  it('register', async () => {
    await page.goto(`${web.url}/register?plan=free`);
    await page.getByTestId('register-email').waitFor();
    await expectAccessible(page);
  });

  it('the dashboard', async () => {
    await logIn(page, owner.email, 'secret123');
    await expectAccessible(page);
  });

  // Each with its own account on its first sign-in, so the feedback prompt (3rd login) stays away.
  it('the notifications panel, open', async () => {
    const user = await createUser(app, 'a11y.bell@example.com', 'pro');
    await downloadFrom(await send({}, user), 'DE');
    await logIn(page, user.email, 'secret123');
    await page.getByTestId('bell-badge').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await page.getByRole('dialog', { name: 'Notifications' }).getByTestId('bell-item').first().waitFor();
    await expectAccessible(page);
  });

  it('the notifications panel with a download limit used up', async () => {
    const user = await createUser(app, 'a11y.bell.limit@example.com', 'pro');
    const t = await send({ downloadLimit: 1 }, user);
    const res = await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId }));
    expect(res.status).toBe(200);
    await fetch(res.json.url as string).then((r) => r.arrayBuffer());
    await logIn(page, user.email, 'secret123');
    await page.getByTestId('bell-badge').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Notifications' })
      .getByText('reached its download limit (1)', { exact: false })
      .waitFor({ timeout: 30_000 });
    await expectAccessible(page);
  });

  it('analytics, with downloads on the chart, the map and the tables', async () => {
    const user = await createUser(app, 'a11y.analytics@example.com', 'pro');
    await downloadFrom(await send({}, user), 'JP');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/analytics`);
    await page.getByTestId('analytics-countries').getByRole('row', { name: /Japan/ }).waitFor();
    await page.getByTestId('analytics-chart').locator('canvas').waitFor();
    await expectAccessible(page);
  });

  it('updates, its entries from GET /canny/changelog', async () => {
    await page.goto(`${web.url}/updates`);
    await page.getByTestId('changelog-entry').first().waitFor();
    await expectAccessible(page);
  });

  it('the transfers list', async () => {
    const user = await createUser(app, 'a11y.transfers@example.com', 'pro');
    const t = await send({}, user);
    await downloadFrom(t, 'DE');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/transfers`);
    await page.locator(`[data-testid="transfer-row"][data-slug="${t.id}"]`).waitFor();
    await expectAccessible(page);
  });

  it('the TransferModal, open, with a download and the forward panel', async () => {
    const user = await createUser(app, 'a11y.modal@example.com', 'pro');
    const t = await send(
      { sendAs: 'email', emailTo: [{ email: 'a11y.recipient@example.com' }], message: 'For review' },
      user,
    );
    await downloadFrom(t, 'FR');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const modal = page.getByRole('dialog');
    await modal.getByTestId('download-row').first().waitFor();
    await expectAccessible(page);
    await modal.getByTestId('action-forward').click();
    await modal.getByTestId('panel-forward').getByTestId('recipients-input').waitFor();
    await expectAccessible(page);
  });

  it('the TransferModal’s delivery receipts; /verify empty, with a valid receipt and with a refused one', async () => {
    const user = await createUser(app, 'a11y.receipts@example.com', 'pro');
    const t = await send({}, user);
    await putDelivery({
      slug: t.id,
      deliveryId: '0193a1b2-c3d4-7e5f-8a9b-0000000a11ee',
      startedAt: Date.now() - 5000,
      at: Date.now(),
      what: 'zip',
      recipient: { kind: 'personal', email: 'a11y.recipient@example.com' },
      countryCode: 'DE',
      files: t.files.map((f, i) => ({ fileId: f.fileId, path: `file-${i}`, size: 10 })),
      bytes: 20,
      servedWhole: false,
    });
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const rows = page.getByRole('dialog').getByTestId('delivery-row');
    await rows.first().waitFor();
    await expectAccessible(page);

    const receipt = (
      await api(app, `/transfers/${t.id}/deliveries/0193a1b2-c3d4-7e5f-8a9b-0000000a11ee/receipt`, {
        headers: { authorization: `Bearer ${user.accessToken}` },
      })
    ).text;
    await page.goto(`${web.url}/verify`);
    await page.getByTestId('verify-form').waitFor();
    await expectAccessible(page);
    for (const [text, shown] of [
      [receipt, 'verify-valid'],
      [receipt.replace('"country": "DE"', '"country": "DF"'), 'verify-invalid'],
    ] as const) {
      await page
        .getByTestId('verify-receipt-file')
        .setInputFiles({ name: 'receipt.json', mimeType: 'application/json', buffer: Buffer.from(text) });
      await page.getByTestId('verify-submit').click();
      await page.getByTestId(shown).waitFor();
      await expectAccessible(page);
    }
  });

  it("the TransferModal's access list of a transfer with verified recipients", async () => {
    const user = await createUser(app, 'a11y.access@example.com', 'pro');
    const t = await send(
      {
        sendAs: 'email',
        emailTo: [{ email: 'a11y.listed@example.com' }, { email: 'a11y.revoked@example.com' }],
        verifiedRecipients: { domain: 'a11y.example' },
      },
      user,
    );
    const revoked = await api(
      app,
      '/transfers/access/recipient',
      json({ slug: t.id, email: 'a11y.revoked@example.com', action: 'revoke' }, bearer(user)),
    );
    expect(revoked.status, revoked.text).toBe(200);
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const modal = page.getByRole('dialog');
    await modal.getByTestId('access-row').nth(1).waitFor();
    await expectAccessible(page);
  });

  it('the TransferModal’s review (threads with anchors, a reply, a resolved one, decisions), wide and at 320 px, and its bell item', async () => {
    const user = await createUser(app, 'a11y.review@example.com', 'pro');
    const t = await send({ review: true }, user);
    const [pdf, photo] = t.files.map((f) => f.fileId);
    const visitor = { visitorId: 'A11yVisitor00000000001', name: 'Ana (studio)' };
    const asRecipient = async (path: string, body: Record<string, unknown>) => {
      const res = await api(app, `/getDownload/review${path}`, json({ id: t.id, visitor, ...body }));
      expect(res.status, res.text).toBeLessThan(300);
      return res.json as { comment?: { commentId: string } };
    };
    const pinned = await asRecipient('/comment', {
      fileId: photo,
      anchor: { kind: 'point', x: 0.4, y: 0.6 },
      body: 'A long remark that wraps on a narrow phone: https://example.com/a/very/long/path/without/spaces',
    });
    await asRecipient('/comment', { fileId: pdf, anchor: { kind: 'page', page: 2 }, body: 'Typo on this page' });
    await asRecipient('/decision', { subject: pdf, decision: 'changes_requested', note: 'See page 2' });
    await asRecipient('/decision', { subject: 'transfer', decision: 'approved' });
    await asRecipient('/favourite', { fileId: photo, favourite: true });
    const reply = await api(
      app,
      `/transfers/${t.id}/review/comments`,
      json({ fileId: photo, parentId: pinned.comment!.commentId, body: 'Fixed' }, bearer(user)),
    );
    expect(reply.status, reply.text).toBe(201);
    const resolved = await api(
      app,
      `/transfers/${t.id}/review/threads/${pinned.comment!.commentId}`,
      json({ resolved: true }, bearer(user)),
    );
    expect(resolved.status, resolved.text).toBe(200);

    await logIn(page, user.email, 'secret123');
    await page.getByTestId('bell-badge').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await page.getByRole('dialog', { name: 'Notifications' }).locator('[data-kind="review"]').waitFor();
    await expectAccessible(page);

    await page.goto(`${web.url}/dash/transfers/${t.id}#review`);
    const section = page.getByRole('dialog').getByTestId('review-section');
    await section.getByTestId('review-reply').waitFor();
    await section.getByTestId('review-reply-open').first().click();
    await expectAccessible(page);

    await page.setViewportSize({ width: 320, height: 700 });
    await expectAccessible(page);
    // nothing of the review reaches past a 320 px phone's edge (the modal scrolls only downwards)
    const wider = await page.evaluate(() => {
      const dialog = document.querySelector('dialog[open]')!;
      return [document.documentElement, dialog]
        .filter((e) => e.scrollWidth > e.clientWidth)
        .map((e) => `${e.tagName} ${e.scrollWidth - e.clientWidth}px`);
    });
    expect(wider).toEqual([]);
  });

  it('the TransferModal with its download limit panel, a recipient’s limit set', async () => {
    const user = await createUser(app, 'a11y.limit@example.com', 'pro');
    const t = await send({ sendAs: 'email', emailTo: [{ email: 'a11y.limited@example.com' }], downloadLimit: 5 }, user);
    const set = await api(
      app,
      `/transfers/${t.id}/download-limit`,
      json(
        { limit: 2, recipient: 'a11y.limited@example.com' },
        { authorization: `Bearer ${user.accessToken}` },
        'PATCH',
      ),
    );
    expect(set.status).toBe(200);
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/transfers/${t.id}`);
    const modal = page.getByRole('dialog');
    await modal.getByTestId('action-limit').click();
    await modal.getByTestId('transfer-limits').getByText('a11y.limited@example.com: 0 of 2 downloads used').waitFor();
    await modal.getByTestId('transfer-limit-input').fill('3');
    await expectAccessible(page);
  });

  it('the send form’s expiry tab with the download limit', async () => {
    await page.goto(`${web.url}/`);
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 demo') });
    await page.getByTestId('options-toggle').click();
    await page.getByRole('tab', { name: 'Expiry' }).click();
    await page.getByTestId('send-download-limit').fill('3');
    await expectAccessible(page);
  });

  it('the download page of a transfer whose download limit is used up', async () => {
    const t = await send({ downloadLimit: 1 });
    const res = await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId }));
    expect(res.status).toBe(200);
    // served to the end through s3rver: its GetObject report makes the delivery
    expect((await fetch(res.json.url as string).then((r) => r.arrayBuffer())).byteLength).toBe(t.files[0]!.size);
    await page.goto(`${web.url}${linkPath(t)}`);
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByTestId('download-summary').waitFor();
        return page.getByTestId('download-limit-reached').count();
      })
      .toBe(1);
    await expectAccessible(page);
  });

  // Contacts: the list with its tools, the edit dialog, the remove confirmation, the empty state
  it('contacts, with a contact, its edit dialog and the remove confirmation', async () => {
    const user = await createUser(app, 'a11y.contacts@example.com', 'pro');
    await send(
      { sendAs: 'email', emailTo: [{ email: 'a11y.contact@example.com', name: 'Ada Contact', company: 'Engines' }] },
      user,
    );
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/contacts`);
    await page.getByTestId('contact-row').first().waitFor();
    await expectAccessible(page);
    await page.getByTestId('contact-edit').first().click();
    await page.getByTestId('contact-edit-dialog').getByTestId('contact-edit-name').waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await page.getByTestId('contact-remove').first().click();
    await page.getByTestId('contact-remove-dialog').getByTestId('contact-remove-confirm').waitFor();
    await expectAccessible(page);
  });

  it('contacts, empty', async () => {
    const user = await createUser(app, 'a11y.nocontacts@example.com', 'pro');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/contacts`);
    await page.getByTestId('contacts-empty').waitFor();
    await expectAccessible(page);
  });

  // ---- storage region picker (measured, and a free plan's disabled choice), settings, the dashboard's roadmap
  it('the storage region picker, measured', async () => {
    const user = await createUser(app, 'a11y.regions@example.com', 'pro');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/data-residency`);
    await expect
      .poll(() => page.getByTestId('region-ms-dubai').getAttribute('data-ms'), { timeout: 60_000 })
      .toMatch(/^\d+$/);
    await page.getByTestId('regions-not-offered').waitFor();
    await expectAccessible(page);
  });

  it('the storage region picker on a free plan', async () => {
    const user = await createUser(app, 'a11y.regions.free@example.com', 'free');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/data-residency`);
    await page.getByTestId('residency-plan-note').waitFor();
    await expect
      .poll(() => page.getByTestId('region-ms-dubai').getAttribute('data-ms'), { timeout: 60_000 })
      .toMatch(/^\d+$/);
    await expectAccessible(page);
  });

  it('settings, with a refused field', async () => {
    const user = await createUser(app, 'a11y.settings@example.com', 'pro');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/settings`);
    await page.getByTestId('setting-dueDays').fill('999');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-status').getByText('Check the highlighted fields.').waitFor();
    await expectAccessible(page);
  });

  // domain settings with a pending custom domain (its records and a failed check) and the email domain's upgrade path
  it('the domain settings page', async () => {
    const user = await createUser(app, 'a11y.domains@example.com', 'pro');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/account/domain`);
    await page.getByTestId('custom-domain-input').fill('files.a11y.test');
    await page.getByTestId('custom-domain-add').click();
    await page.getByTestId('custom-domain-check').click();
    await page.getByTestId('custom-domain-problems').waitFor();
    await page.getByTestId('domains-upgrade-business').waitFor();
    await expectAccessible(page);
  });

  // webhooks with an endpoint whose receiver does not answer (a pending delivery with
  // its error and next retry in the log), the secret shown once, the team toggle and the delete confirmation
  it('the webhooks screen', async () => {
    const user = await createUser(app, 'a11y.webhooks@example.com', 'pro');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/account/webhooks`);
    await page.getByTestId('webhook-url').fill('http://127.0.0.1:9/hook');
    await page.getByTestId('webhook-add-submit').click();
    await page.getByTestId('webhook-secret-panel').waitFor();
    await page.getByTestId('webhook-test').click();
    await page.getByTestId('webhook-log-toggle').click();
    await page.getByTestId('delivery-row').waitFor();
    await page.getByTestId('webhook-team').waitFor();
    await expectAccessible(page);
    await page.getByTestId('webhook-delete').click();
    await page.getByTestId('webhook-delete-confirm').waitFor();
    await expectAccessible(page);
  });

  it('the roadmap inside the dashboard', async () => {
    const user = await createUser(app, 'a11y.roadmap@example.com', 'pro');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/roadmap`);
    await page.locator('.roadmap-board').waitFor();
    await expectAccessible(page);
  });

  it("the what's-new panel", async () => {
    const user = await createUser(app, 'a11y.whatsnew@example.com', 'pro');
    await logIn(page, user.email, 'secret123');
    await page.getByTestId('whats-new').click();
    await page.getByTestId('whats-new-panel').getByTestId('changelog-entry').first().waitFor();
    await expectAccessible(page);
  });

  // ---- file requests ----
  it('the public file request page, with a file its rules refuse', async () => {
    const user = await createUser(app, 'a11y.request.public@example.com', 'pro');
    const request = await createRequest(user, {
      title: 'Signed contracts',
      message: 'One PDF per contract, please.',
      dueDate: Date.now() + 7 * DAY,
      rules: { allowedTypes: ['pdf'], maxFiles: 3 },
    });
    await page.goto(`${web.url}${new URL(request.link).pathname}`);
    await page.getByTestId('request-title').waitFor();
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(2048, 1) });
    await page.getByText('This request does not accept the type of photo.jpg.').waitFor();
    await expectAccessible(page);
  });

  it('the public file request page of a closed request', async () => {
    const user = await createUser(app, 'a11y.request.closed@example.com', 'pro');
    const request = await createRequest(user, { title: 'Closed already' });
    const closed = await api(
      app,
      `/requests/${request.id}`,
      json({ state: 'closed' }, { authorization: `Bearer ${user.accessToken}` }, 'PATCH'),
    );
    expect(closed.status).toBe(200);
    await page.goto(`${web.url}${new URL(request.link).pathname}`);
    await page.locator('[data-testid="request-state"][data-state="closed"]').waitFor();
    await expectAccessible(page);
  });

  it('the requests list with the new-request form open', async () => {
    const user = await createUser(app, 'a11y.requests@example.com', 'pro');
    const request = await createRequest(user, { title: 'Event photos', rules: { maxBytes: 2_000_000_000 } });
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/requests`);
    await page.locator(`[data-request-id="${request.id}"]`).waitFor();
    await expectAccessible(page);
    await page.getByTestId('request-new').click();
    await page.getByTestId('request-form-submit').click();
    await page.getByText('Give the request a title.').waitFor();
    await expectAccessible(page);
  });

  it('one request with an upload, and the delete dialog open', async () => {
    const user = await createUser(app, 'a11y.request.detail@example.com', 'pro');
    const request = await createRequest(user, { title: 'Signed contracts', message: 'One PDF per contract.' });
    await uploadToRequest(request.id, 'a11y.request.visitor@example.com');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/requests/${request.id}`);
    await page.getByTestId('request-upload-card').waitFor();
    await expectAccessible(page);
    await page.getByTestId('request-upload-delete').click();
    await page.getByRole('dialog', { name: 'Delete this upload?' }).waitFor();
    await expectAccessible(page);
  });
  // ---- plans and billing, on the simulated payment provider ----
  it('pricing, with the trial and contact buttons', async () => {
    await page.goto(`${web.url}/pricing?plan=premium&save=1`);
    await page.getByTestId('plan-table-trial-pro').waitFor();
    await page.getByTestId('pricing-contact').waitFor();
    await expectAccessible(page);
  });

  it("the plan tab with the simulator's checkout, its field problems, then /thankyou2 and the billing page with its cancel dialog", async () => {
    const user = await createUser(app, 'a11y.billing@example.com', 'free');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/account?tab=1&plan=pro&period=month`);
    await page.getByTestId('simulated-checkout').waitFor({ timeout: 60_000 });
    await expectAccessible(page);
    await page.getByTestId('checkout-submit').click();
    await page.getByText('Your card number is incomplete.').waitFor();
    await expectAccessible(page);

    await page.getByTestId('card-number').fill('4242 4242 4242 4242');
    await page.getByTestId('card-expiry').fill('12 / 34');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('checkout-submit').click();
    await page.getByTestId('thankyou-confirmed').waitFor({ timeout: 60_000 });
    await expectAccessible(page);

    await page.goto(`${web.url}/dash/account/billing`);
    await page.getByTestId('billing-subscription').getByTestId('subscription-status').waitFor();
    await page.getByTestId('invoice-row').or(page.getByText('No invoices yet.')).first().waitFor();
    await expectAccessible(page);
    await page.getByTestId('billing-cancel').click();
    await page.getByTestId('billing-cancel-dialog').waitFor();
    await expectAccessible(page);
  });

  // ---- teams: the admin's screen with a member and a pending invite, the invite page, the upgrade path ----
  it('teams: the admin screen with a member, a pending invite and the remove confirmation; the invite page', async () => {
    const admin = await createUser(app, 'a11y.team.admin@example.com', 'business');
    const auth = { authorization: `Bearer ${admin.accessToken}` };
    const tokenOf = async (email: string) =>
      /\/invite\/([A-Za-z0-9_-]{43})/.exec((await waitForMail(app, email, /\/invite\//)).body.text)![1]!;
    expect((await api(app, '/teams/invites', json({ email: 'a11y.member@example.com' }, auth))).status).toBe(201);
    const joined = await api(
      app,
      '/v1/teams',
      json(
        {
          token: await tokenOf('a11y.member@example.com'),
          newMemberEmail: 'a11y.member@example.com',
          fullName: 'Ada Member',
          password: 'Member-pass-123',
        },
        {},
        'PATCH',
      ),
    );
    expect(joined.status, joined.text).toBe(201);
    expect((await api(app, '/teams/invites', json({ email: 'a11y.invitee@example.com' }, auth))).status).toBe(201);
    await page.goto(`${web.url}/invite/${await tokenOf('a11y.invitee@example.com')}`);
    await page.getByTestId('invite-form').waitFor();
    await expectAccessible(page);
    await logIn(page, admin.email, 'secret123');
    await page.goto(`${web.url}/dash/account/teams`);
    await page.getByTestId('teams-invite').waitFor();
    await page.getByTestId('teams-member').filter({ hasText: 'Ada Member' }).getByRole('button').click();
    await page.getByTestId('teams-remove-confirm').getByRole('button', { name: 'Keep' }).waitFor();
    await expectAccessible(page);
  });

  it('teams: the upgrade path of a plan without seats', async () => {
    const user = await createUser(app, 'a11y.team.free@example.com', 'free');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/account/teams`);
    await page.getByTestId('teams-upgrade').waitFor();
    await expectAccessible(page);
  });

  // ---- branding ----
  it('customize with a picked accent in the preview, and powered-by with the upgrade path (pro)', async () => {
    await logIn(page, owner.email, 'secret123');
    await page.goto(`${web.url}/dash/account/customize`);
    await page.getByTestId('branding-preview').waitFor();
    await page.getByTestId('branding-accent-color').fill('#ffcc00');
    await page.getByTestId('branding-background-color').fill('#10');
    await page.getByText('Enter a colour like #1d4ed8.').first().waitFor();
    await expectAccessible(page);
    await page.goto(`${web.url}/dash/account/powered-by`);
    await page.getByTestId('powered-by-upgrade').waitFor();
    await expectAccessible(page);
  });

  it("a download page in its sender's colours", async () => {
    const brand = await createUser(app, 'a11y.brand@example.com', 'business');
    const res = await api(
      app,
      '/branding/me',
      json(
        { accentColor: '#ffcc00', backgroundColor: '#102030', showPoweredBy: true },
        { authorization: `Bearer ${brand.accessToken}` },
        'PATCH',
      ),
    );
    expect(res.status, res.text).toBe(200);
    const t = await send({}, brand);
    await page.goto(`${web.url}${linkPath(t)}`);
    await page.getByTestId('download-branded').waitFor();
    await page.getByTestId('download-summary').waitFor();
    await expectAccessible(page);
  });

  // ---- API keys and the public API's reference ----
  it('API keys: a new key shown once, the list with a used key and the revoke confirmation, the team toggle', async () => {
    const user = await createUser(app, 'a11y.keys@example.com', 'business');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/dash/account/api-keys`);
    await page.getByTestId('apikeys-empty').waitFor();
    await page.getByTestId('apikeys-create').click();
    await page.getByTestId('apikeys-create-error').getByText('Give the key a name.').waitFor();
    await expectAccessible(page);
    await page.getByTestId('apikeys-name').fill('CI');
    await page.getByTestId('apikeys-create').click();
    const key = (await page.getByTestId('apikeys-secret').textContent())!.trim();
    expect((await api(app, '/v1/transfers', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await page.getByTestId('apikeys-team').waitFor();
    await expectAccessible(page);
    await page.reload();
    await page.getByTestId('apikeys-row').waitFor();
    await page.getByTestId('apikeys-revoke').click();
    await page.getByTestId('apikeys-confirm').waitFor();
    await expectAccessible(page);
  });

  it('API keys refused to a team member whose admin has not allowed them', async () => {
    const admin = await createUser(app, 'a11y.keys.admin@example.com', 'business');
    const auth = { authorization: `Bearer ${admin.accessToken}` };
    expect((await api(app, '/teams/invites', json({ email: 'a11y.keys.member@example.com' }, auth))).status).toBe(201);
    const token = /\/invite\/([A-Za-z0-9_-]{43})/.exec(
      (await waitForMail(app, 'a11y.keys.member@example.com', /\/invite\//)).body.text,
    )![1]!;
    const joined = await api(
      app,
      '/v1/teams',
      json(
        { token, newMemberEmail: 'a11y.keys.member@example.com', fullName: 'Ada Keys', password: 'Member-pass-123' },
        {},
        'PATCH',
      ),
    );
    expect(joined.status, joined.text).toBe(201);
    await logIn(page, 'a11y.keys.member@example.com', 'Member-pass-123');
    await page.goto(`${web.url}/dash/account/api-keys`);
    await page.getByTestId('apikeys-refused').waitFor();
    await expectAccessible(page);
  });

  it('developers: the API reference with its examples and the webhooks section, an example answer open', async () => {
    await page.goto(`${web.url}/developers`);
    await page.getByTestId('dev-reference').waitFor();
    await page.getByTestId('dev-webhook-verify').waitFor();
    await page.locator('[data-operation="POST /v1/transfers"] details summary').click();
    await expectAccessible(page);
  });

  it('the lifetime deal with the redeem form and a refused code', async () => {
    const user = await createUser(app, 'a11y.sumo@example.com', 'free');
    await logIn(page, user.email, 'secret123');
    await page.goto(`${web.url}/appsumoforever`);
    await page.getByTestId('sumo-code').fill('NOT-A-REAL-CODE');
    await page.getByTestId('sumo-submit').click();
    await page.getByTestId('sumo-error').getByText("That code isn't valid. Check it and try again.").waitFor();
    await expectAccessible(page);
  });
});
