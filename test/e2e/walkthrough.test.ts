/**
 * The public API, webhooks and abuse handling, as a new user meets them, end to end on the built app and the local
 * stack: register in Chromium, create an API key in the dashboard, register a webhook endpoint
 * with that key (a receiver on loopback), `sendbridge send` a folder from a terminal (the built
 * binary, as a child process), the recipient opens the mailed link and downloads a file: the
 * receiver gets `transfer.created` and `transfer.downloaded` (country and recipient), signed
 * with the endpoint's secret. Then an EICAR file sent the same way is refused: the download page
 * shows it removed, the API answers 410 file_removed, `transfer.scan_failed` arrives, and
 * `sendbridge get` brings only the clean file (exit 3).
 */
import { Webhook } from 'standardwebhooks';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EICAR, EICAR_FINDING } from '../../functions/domain/malware-scan';
import { WEBHOOK_HEADERS } from '../../functions/domain/webhooks-api';
import { closePage, openPage, startBrowserStack, stopBrowserStack, type BrowserStack } from '../helpers/browser-stack';
import { buildCli, runCli, type RunOptions } from '../helpers/cli-runner';
import { randomData, sha256, waitForMail } from '../helpers/transfers';
import { eventOf, startReceiver, type ReceivedHook } from '../helpers/webhook-receiver';

const EMAIL = 'walkthrough.newbie@example.com';
const RECIPIENT = 'walkthrough.client@example.com';

let stack: BrowserStack;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let context: BrowserContext;
let page: Page;
let work: string;
let key: string;
let secret: string;

const cli = (args: string[], opts: RunOptions = {}) =>
  runCli(args, { cwd: work, home: work, configDir: path.join(work, 'config') }, opts);

/** The signature check of docs/webhooks.md: the official Standard Webhooks library's signature with the endpoint's secret. */
function signedWith(hook: ReceivedHook, s: string): boolean {
  const expected = new Webhook(s).sign(
    hook.headers[WEBHOOK_HEADERS.id] ?? '',
    new Date(Number(hook.headers[WEBHOOK_HEADERS.timestamp]) * 1000),
    hook.body,
  );
  return (hook.headers[WEBHOOK_HEADERS.signature] ?? '').split(' ').includes(expected);
}

const hookOf = (type: string, transferId: string) => (h: ReceivedHook) =>
  eventOf(h).type === type && eventOf(h).data.transferId === transferId;

beforeAll(async () => {
  buildCli();
  stack = await startBrowserStack();
  receiver = await startReceiver();
  work = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-walkthrough-'));
  ({ context, page } = await openPage(stack.browser));
}, 300_000);

afterAll(async () => {
  await closePage(context);
  await receiver?.close();
  await stopBrowserStack(stack);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the public API, webhooks and abuse handling as a new user tries them', () => {
  it('registers, creates an API key in the dashboard and registers a webhook endpoint with it', async () => {
    const { app, web } = stack;
    await page.goto(`${web.url}/register?plan=free`);
    await page.getByTestId('register-email').fill(EMAIL);
    await page.getByTestId('register-continue').click();
    await page.waitForURL((u) => u.searchParams.get('step') === '2');
    const code = /\b(\d{5})\b/.exec((await waitForMail(app, EMAIL, /\b\d{5}\b/)).body.text)![1]!;
    for (let i = 0; i < 5; i += 1) await page.getByTestId(`code-box-${i}`).fill(code[i]!);
    await page.waitForURL((u) => u.searchParams.get('step') === '3');
    await page.getByTestId('register-name').fill('Walk Through');
    await page.getByTestId('register-password').fill('walk-pass-123');
    await page.getByTestId('register-submit').click();
    await page.getByTestId('dashboard-greeting').waitFor({ timeout: 60_000 });

    await page.getByTestId('nav-avatar').click();
    await page.getByTestId('nav-apiKeys').click();
    await page.getByTestId('apikeys-name').fill('Laptop');
    for (const scope of ['send', 'transfers:read', 'webhooks'])
      await page.getByTestId(`apikeys-scope-${scope}`).check();
    await page.getByTestId('apikeys-create').click();
    await page.getByTestId('apikeys-new').waitFor();
    key = (await page.getByTestId('apikeys-secret').textContent())!.trim();
    expect(key).toMatch(/^sbk_local_/u);

    const made = await fetch(`${web.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: receiver.url,
        events: ['transfer.created', 'transfer.downloaded', 'transfer.scan_failed'],
        description: 'my receiver',
      }),
    });
    expect(made.status).toBe(201);
    secret = ((await made.json()) as { secret: string }).secret;
    // the dashboard's Webhooks screen lists the endpoint the key made
    await page.goto(`${web.url}/dash/account/webhooks`);
    await expect.poll(() => page.locator('main').textContent()).toContain(receiver.url);
  });

  it('sends a folder with `sendbridge send`; the recipient downloads a file; the webhooks arrive signed', async () => {
    const { web } = stack;
    const folder = path.join(work, 'renders');
    mkdirSync(path.join(folder, 'day2'), { recursive: true });
    const files = new Map([
      ['renders/cut.mov', randomData(3 * 1024 * 1024 + 17)],
      ['renders/day2/still.bin', randomData(40_000)],
      ['renders/notes.txt', Buffer.from('Notes for the edit\n')],
    ]);
    for (const [rel, data] of files) writeFileSync(path.join(work, rel), data);

    expect((await cli(['login', '--api', web.url], { env: { SENDBRIDGE_API_KEY: key } })).code).toBe(0);
    const sent = await cli([
      'send',
      './renders',
      '--to',
      RECIPIENT,
      '--message',
      'Day 2 renders',
      '--expiry',
      '1w',
      '--json',
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    const done = sent.events.find((e) => e.event === 'done')!;
    const id = done.id as string;
    expect(sent.stdout + sent.stderr).not.toContain(key);

    const created = await receiver.waitFor(hookOf('transfer.created', id));
    expect(signedWith(created, secret)).toBe(true);
    expect(eventOf(created).data).toMatchObject({ sendAs: 'email', fileCount: 3, recipients: [RECIPIENT] });

    // the recipient follows the mailed link (from Germany, as CloudFront would tell the API)
    const mail = await waitForMail(stack.app, RECIPIENT, /\/downloads\/[A-Za-z0-9]+\/[A-Za-z0-9]+/);
    const link = /(https?:\/\/\S+\/downloads\/[A-Za-z0-9]+\/[A-Za-z0-9]+)/.exec(mail.body.text)![1]!;
    await context.route('**/api/**', (route) =>
      route.continue({ headers: { ...route.request().headers(), 'cloudfront-viewer-country': 'DE' } }),
    );
    await page.goto(link);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid="download-file"][data-file-name="notes.txt"]').click(),
    ]);
    const saved = path.join(work, 'got-notes.txt');
    await download.saveAs(saved);
    expect(sha256(readFileSync(saved))).toBe(sha256(files.get('renders/notes.txt')!));
    await context.unrouteAll();

    const downloaded = await receiver.waitFor(hookOf('transfer.downloaded', id));
    expect(signedWith(downloaded, secret)).toBe(true);
    expect(eventOf(downloaded).data).toMatchObject({
      country: 'DE',
      countryName: 'Germany',
      recipient: RECIPIENT,
      origin: 'file',
      fileName: 'notes.txt',
    });
    expect(signedWith(downloaded, 'whsec_bm90IHRoZSBlbmRwb2ludCdzIHNlY3JldA==')).toBe(false);
  });

  it('refuses an EICAR file: removed on the download page, 410 from the API, scan_failed webhook, get skips it', async () => {
    const { web } = stack;
    mkdirSync(path.join(work, 'invoices'));
    writeFileSync(path.join(work, 'invoices', 'invoice.pdf.exe'), EICAR);
    writeFileSync(path.join(work, 'invoices', 'invoice.txt'), 'clean invoice\n');
    const sent = await cli(['send', './invoices', '--link', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const id = sent.events.find((e) => e.event === 'done')!.id as string;

    const failed = await receiver.waitFor(hookOf('transfer.scan_failed', id));
    expect(signedWith(failed, secret)).toBe(true);
    expect(eventOf(failed).data).toMatchObject({ fileName: 'invoice.pdf.exe', finding: EICAR_FINDING });

    await page.goto(`${web.url}/w/${id}`);
    await page.getByTestId('download-file-note').waitFor();
    expect(await page.locator('li', { has: page.getByTestId('download-file-note') }).textContent()).toContain(
      'invoice.pdf.exe',
    );
    expect(await page.getByTestId('download-file').getAttribute('data-file-name')).toBe('invoice.txt');

    const view = (await (
      await fetch(`${web.url}/api/getDownload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id }),
      })
    ).json()) as { files: { fileId: string; fileName: string }[] };
    const infected = view.files.find((f) => f.fileName === 'invoice.pdf.exe')!;
    const refused = await fetch(`${web.url}/api/getDownload/file`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, fileId: infected.fileId }),
    });
    expect(refused.status).toBe(410);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('file_removed');

    const got = await cli(['get', id, '-o', path.join(work, 'got'), '--json']);
    expect(got.code, got.stderr).toBe(3);
    expect(got.events[0]).toMatchObject({
      files: [{ size: 14 }],
      skipped: [{ path: 'invoices/invoice.pdf.exe', reason: 'file_removed' }],
    });
    expect(readFileSync(path.join(work, 'got', 'invoices', 'invoice.txt'), 'utf8')).toBe('clean invoice\n');
  });
});
