/**
 * The done-when of verified recipients, download limits and signed receipts as one story against
 * the local stack, each step on what the step before left: a pro user sends with verified
 * recipients to two addresses and a download limit of 1; the first recipient enters the code
 * mailed to their own address on their personal link and downloads; the link forwarded to a
 * third address is refused; the sender removes the second recipient, whose open session gets
 * 410; the limit lets exactly one download through; that real delivery's receipt downloads as
 * JSON and as the PDF the modal makes, and `sendbridge receipt verify` accepts it and refuses
 * it after one byte is changed. The delivery is detected from the storage's own report, as in use.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptPdf } from '../../frontend/src/features/transfers/receipt-pdf';
import { parseKeySet, verifyReceiptText } from '../../functions/domain/receipt';
import { receiptFileName, type ReceiptDocument } from '../../functions/domain/receipt-format';
import type { DeliveriesResponse } from '../../functions/domain/receipts-api';
import type { AccessListResponse } from '../../functions/domain/recipient-access';
import type { CreateTransferResponse, DownloadView } from '../../functions/domain/transfer-api';
import type { LocalApp } from '../../scripts/local/app';
import { buildCli, runCli } from '../helpers/cli-runner';
import { api, startTestApp } from '../helpers/local-app';
import { attachmentsOf } from '../helpers/pdf-attachments';
import {
  bearer,
  createUser,
  fetchBytes,
  json,
  mailsTo,
  randomData,
  recipientIdsOf,
  sendFiles,
  sha256,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let sender: TestUser;
let t: CreateTransferResponse;
let ids: Map<string, string>;
let firstSession = '';
let deliveryId = '';
let receiptJson = '';
const work = mkdtempSync(path.join(tmpdir(), 'sendbridge-done-when-'));
const place = { cwd: work, home: work, configDir: path.join(work, 'config') };

const SENDER = 'done.when.sender@example.com';
const FIRST = 'done.when.first@example.com';
const SECOND = 'done.when.second@example.com';
const THIRD = 'done.when.forwarded@example.com';
const DATA = randomData(120_000);

beforeAll(async () => {
  buildCli();
  app = await startTestApp();
  sender = await createUser(app, SENDER, 'pro');
  t = await sendFiles(app, sender, new Map([['board/minutes-q3.pdf', DATA]]), {
    sendAs: 'email',
    emailTo: [{ email: FIRST }, { email: SECOND }],
    verifiedRecipients: {},
    downloadLimit: 1,
  });
  ids = await recipientIdsOf(app, t.id);
  await app.gateway.idle(); // the digest job started at completion: the manifest has the SHA-256
}, 300_000);

afterAll(async () => {
  await app?.stop();
  rmSync(work, { recursive: true, force: true });
});

const isDownloadCode = (m: { subject: string }) => /code to download files/u.test(m.subject);

/** Asks the code for `email` on the personal link `recipient` and enters the one mailed: the session. */
async function verify(email: string, recipient: string | undefined): Promise<string> {
  const on = { id: t.id, ...(recipient ? { recipient } : {}) };
  const seen = (await mailsTo(app, email)).filter(isDownloadCode).length;
  const asked = await api(app, '/getDownload/access/code', json({ ...on, email, lang: 'en' }));
  expect(asked.status, asked.text).toBe(202);
  await expect.poll(async () => (await mailsTo(app, email)).filter(isDownloadCode).length).toBeGreaterThan(seen);
  const mail = (await mailsTo(app, email)).filter(isDownloadCode).pop()!;
  const code = /\b(\d{5})\b/u.exec(mail.subject)![1]!;
  const checked = await api(app, '/getDownload/access/verify', json({ ...on, email, code }));
  expect(checked.status, checked.text).toBe(200);
  return checked.json.access as string;
}

const fileUrl = (session: string) =>
  api(
    app,
    '/getDownload/file',
    json({ id: t.id, fileId: t.files[0]!.fileId, recipient: ids.get(FIRST), access: session }),
  );

describe('a pro user sends with verified recipients to two addresses and a download limit of 1', () => {
  it("asks the first recipient's personal link for that address's code, then lets them download", async () => {
    const locked = await api(app, '/getDownload', json({ id: t.id, recipient: ids.get(FIRST) }));
    expect(locked.status).toBe(401);
    expect(locked.json.error).toMatchObject({ code: 'verification_required', details: { email: FIRST } });
    firstSession = await verify(FIRST, ids.get(FIRST));
    const view = await api(app, '/getDownload', json({ id: t.id, recipient: ids.get(FIRST), access: firstSession }));
    expect(view.status, view.text).toBe(200);
    expect((view.json as DownloadView).recipientEmail).toBe(FIRST);
  });

  it('refuses the link forwarded to a third address, and mails that address nothing', async () => {
    const asked = await api(app, '/getDownload/access/code', json({ id: t.id, email: THIRD, lang: 'en' }));
    expect(asked.status).toBe(403);
    expect(asked.json.error.code).toBe('address_not_allowed');
    expect(await mailsTo(app, THIRD)).toEqual([]);
  });

  it("stops the second recipient's open session once the sender removes them: 410 with a clear message", async () => {
    const second = await verify(SECOND, ids.get(SECOND));
    expect((await api(app, '/getDownload', json({ id: t.id, access: second }))).status).toBe(200);
    const removed = await api(
      app,
      '/transfers/access/recipient',
      json({ slug: t.id, email: SECOND, action: 'remove' }, bearer(sender)),
    );
    expect(removed.status, removed.text).toBe(200);
    const after = await api(app, '/getDownload', json({ id: t.id, access: second }));
    expect(after.status).toBe(410);
    expect(after.json.error).toMatchObject({
      code: 'recipient_removed',
      message: 'The sender removed your access to these files.',
    });
  });

  it('lets exactly one of 10 parallel downloads through at a limit of 1, counted once its bytes are served', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => fileUrl(firstSession)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe('download_limit_reached');
    }
    const got = await fetchBytes(ok[0]!.json.url as string);
    expect(sha256(got.bytes)).toBe(sha256(DATA));
    const deliveries = async () =>
      (await api(app, `/transfers/${t.id}/deliveries`, { headers: bearer(sender) })).json as DeliveriesResponse;
    await expect.poll(async () => (await deliveries()).deliveries.length, { timeout: 60_000 }).toBe(1);
    deliveryId = (await deliveries()).deliveries[0]!.deliveryId;
    const view = await api(app, '/getDownload', json({ id: t.id, recipient: ids.get(FIRST), access: firstSession }));
    expect((view.json as DownloadView).limitReached).toBe(true);
    expect((await fileUrl(firstSession)).json.error.code).toBe('download_limit_reached');
    // the sender is told, and the access list counts the download as the first recipient's
    await expect
      .poll(async () => (await mailsTo(app, SENDER)).filter((m) => /download limit/u.test(m.subject)).length)
      .toBe(1);
    const list = (await api(app, '/transfers/access', json({ slug: t.id }, bearer(sender)))).json as AccessListResponse;
    expect(list.recipients.map((r) => [r.email, r.state, r.downloads])).toEqual([[FIRST, 'downloaded', 1]]);
  });

  it('gives the sender that delivery’s signed receipt as JSON, and as the PDF with that JSON attached', async () => {
    expect(deliveryId).not.toBe('');
    const res = await api(app, `/transfers/${t.id}/deliveries/${deliveryId}/receipt`, { headers: bearer(sender) });
    expect(res.status, res.text).toBe(200);
    receiptJson = res.text;
    const doc = JSON.parse(receiptJson) as ReceiptDocument;
    expect(doc.receipt).toMatchObject({
      transfer: t.id,
      delivery: deliveryId,
      what: 'file',
      recipient: { kind: 'verified', email: FIRST },
      files: [{ path: 'board/minutes-q3.pdf', size: DATA.length, sha256: sha256(DATA) }],
      servedWhole: true,
    });
    const keys = parseKeySet((await api(app, '/receipts/keys')).text)!;
    expect(await verifyReceiptText(receiptJson, keys)).toMatchObject({ ok: true });
    const pdf = await receiptPdf(doc, receiptJson, `${app.apiOrigin}/verify`);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(await attachmentsOf(pdf)).toEqual(new Map([[receiptFileName(doc.receipt, 'json'), receiptJson]]));
  });

  it('is accepted by sendbridge receipt verify, and refused after one byte is changed', async () => {
    expect(receiptJson).not.toBe('');
    const file = path.join(work, 'receipt.json');
    writeFileSync(file, receiptJson);
    const run = await runCli(['receipt', 'verify', file, '--api', app.apiOrigin], place);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('VALID receipt');
    expect(run.stdout).toContain(FIRST);
    const at = receiptJson.indexOf(FIRST);
    const changed = `${receiptJson.slice(0, at)}e${receiptJson.slice(at + 1)}`;
    expect(changed.length).toBe(receiptJson.length);
    expect(changed).not.toBe(receiptJson);
    const changedFile = path.join(work, 'changed.json');
    writeFileSync(changedFile, changed);
    const refused = await runCli(['receipt', 'verify', changedFile, '--api', app.apiOrigin], place);
    expect(refused.code, refused.stdout + refused.stderr).toBe(6);
    expect(refused.stdout).toContain('INVALID receipt');
    expect(refused.stdout).toContain('receipt_mismatch');
  });
});
