/**
 * Deliveries and download limits against the local stack: the URLs a limit lets out are
 * reserved under concurrency, and a download counts once the storage reports its bytes served
 * to the end. s3rver reports each GetObject as CloudTrail does in AWS (bytes actually sent, an
 * aborted response included) and the deliveries job records them; nothing here calls the job.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApp } from '../../scripts/local/app';
import { listDeliveries } from '../../functions/data/deliveries';
import { completeGrant, getGrant, getLimit, TRANSFER_SCOPE } from '../../functions/data/download-grants';
import { grantIdOf } from '../../functions/domain/delivery-events';
import type { CreateTransferResponse, DownloadView } from '../../functions/domain/transfer-api';
import type { DownloadLimitsView, NotificationsResponse } from '../../functions/domain/dashboard-api';
import { api, startTestApp } from '../helpers/local-app';
import { eventOf, startReceiver } from '../helpers/webhook-receiver';
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
let user: TestUser;
const work = mkdtempSync(path.join(tmpdir(), 'sendbridge-deliveries-'));
const SENDER = 'deliveries.sender@example.com';

beforeAll(async () => {
  app = await startTestApp();
  user = await createUser(app, SENDER);
});

afterAll(async () => {
  await app?.stop();
  rmSync(work, { recursive: true, force: true });
});

const MiB = 1024 * 1024;

const fileUrl = (t: CreateTransferResponse, extra: Record<string, unknown> = {}) =>
  api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId, ...extra }));

const deliveryIdOf = (url: string) => grantIdOf(new URL(url).searchParams.get('response-content-disposition'));

describe('a download limit of 3 under 20 parallel downloads', () => {
  const data = randomData(200_000);
  let t: CreateTransferResponse;
  let urls: string[];

  it('issues exactly 3 URLs; the other 17 are refused with download_limit_reached', async () => {
    t = await sendFiles(app, user, new Map([['report.pdf', data]]), { downloadLimit: 3 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => fileUrl(t)));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('download_limit_reached');
      expect(r.json.error.message).toMatch(/download limit/u);
    }
    urls = ok.map((a) => a.json.url as string);
    expect(new Set(urls.map(deliveryIdOf)).size).toBe(3);
    // reserved, not yet used: the page does not say it is used up
    const view = (await api(app, '/getDownload', json({ id: t.id }))).json as DownloadView;
    expect(view.limitReached).toBeUndefined();
  });

  it('records exactly 3 deliveries once the 3 URLs are served to the end', async () => {
    const got = await Promise.all(urls.map((u) => fetchBytes(u)));
    for (const g of got) expect(sha256(g.bytes)).toBe(sha256(data));
    await expect.poll(async () => (await listDeliveries(t.id)).length).toBe(3);
    const deliveries = await listDeliveries(t.id);
    expect(new Set(deliveries.map((d) => d.deliveryId))).toEqual(new Set(urls.map(deliveryIdOf)));
    for (const d of deliveries) {
      expect(d).toMatchObject({ what: 'file', recipient: { kind: 'link' }, bytes: data.length, servedWhole: true });
      expect(d.files).toEqual([
        expect.objectContaining({ fileId: t.files[0]!.fileId, path: 'report.pdf', size: data.length }),
      ]);
    }
    const limit = await getLimit(t.id, TRANSFER_SCOPE);
    expect(limit).toMatchObject({ limit: 3, completed: 3, held: {} });
  });

  it('then shows the used-up message, refuses a 21st URL, and tells the sender once', async () => {
    const view = (await api(app, '/getDownload', json({ id: t.id }))).json as DownloadView;
    expect(view.limitReached).toBe(true);
    const again = await fileUrl(t);
    expect(again.status).toBe(403);
    expect(again.json.error.code).toBe('download_limit_reached');
    await expect
      .poll(async () => (await mailsTo(app, SENDER)).filter((m) => /download limit/u.test(m.subject)).length)
      .toBe(1);
    const notes = (await api(app, '/notifications', json({}, bearer(user)))).json as NotificationsResponse;
    expect(notes.notifications.filter((n) => n.kind === 'download-limit' && n.slug === t.id)).toEqual([
      expect.objectContaining({ downloadLimit: { limit: 3 } }),
    ]);
  });

  it('lets the sender raise the limit through PATCH /transfers/{id}/download-limit', async () => {
    const res = await api(app, `/transfers/${t.id}/download-limit`, json({ limit: 4 }, bearer(user), 'PATCH'));
    expect(res.status).toBe(200);
    expect((res.json as DownloadLimitsView).transfer).toEqual({ limit: 4, used: 3 });
    expect((await fileUrl(t)).status).toBe(200);
    expect((await fileUrl(t)).json.error.code).toBe('download_limit_reached');
    const bad = await api(app, `/transfers/${t.id}/download-limit`, json({ limit: 101 }, bearer(user), 'PATCH'));
    expect(bad.status).toBe(400);
  });
});

// ---- curl killed half way, then resumed -------------------------------------------------------

/**
 * curl writes the download to a pipe read slowly here (so curl drains its socket no faster,
 * and the kernel's buffers stay small); once `stopAt` bytes came through, curl is killed.
 * Answers the bytes received.
 */
function curlKilledAt(url: string, stopAt: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-sS', '-o', '-', url], { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let got = 0;
    child.on('error', reject);
    child.stdout.on('data', (c: Buffer) => {
      chunks.push(c);
      got += c.length;
      if (got >= stopAt) {
        child.stdout.pause();
        child.kill('SIGKILL');
        return;
      }
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 4);
    });
    child.on('exit', () => resolve(Buffer.concat(chunks)));
  });
}

function curl(args: readonly string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

describe('a download killed half way', () => {
  const big = randomData(24 * MiB);
  let t: CreateTransferResponse;
  let url: string;
  let deliveryId: string;

  it('records no delivery: the storage reported fewer bytes than the file has', async () => {
    t = await sendFiles(app, user, new Map([['video.mov', big]]));
    url = (await fileUrl(t)).json.url as string;
    deliveryId = deliveryIdOf(url)!;
    const received = await curlKilledAt(url, 6 * MiB);
    expect(received.length).toBeGreaterThanOrEqual(6 * MiB);
    expect(received.length).toBeLessThan(big.length);
    writeFileSync(path.join(work, 'video.mov'), received);
    // the aborted response is reported with what it got to send
    await expect.poll(async () => (await getGrant(deliveryId))?.servedBytes ?? 0).toBeGreaterThan(0);
    const grant = (await getGrant(deliveryId))!;
    expect(grant.servedBytes).toBeGreaterThanOrEqual(received.length);
    expect(grant.servedBytes).toBeLessThan(big.length);
    expect(grant.completedAt).toBeUndefined();
    expect(await listDeliveries(t.id)).toEqual([]);
  });

  it('records one delivery once curl -C - resumes it to the end', async () => {
    const out = path.join(work, 'video.mov');
    expect(await curl(['-sS', '--fail', '-C', '-', '-o', out, url])).toBe(0);
    expect(sha256(readFileSync(out))).toBe(sha256(big));
    await expect.poll(async () => (await listDeliveries(t.id)).length).toBe(1);
    const [d] = await listDeliveries(t.id);
    expect(d).toMatchObject({ deliveryId, bytes: big.length, servedWhole: true });
    expect((await getGrant(deliveryId))!.servedBytes).toBeGreaterThanOrEqual(big.length);
    // a repeat of the same URL is the same grant: still one delivery
    expect(sha256((await fetchBytes(url)).bytes)).toBe(createHash('sha256').update(big).digest('hex'));
    await app.gateway.idle();
    expect(await listDeliveries(t.id)).toHaveLength(1);
  });
});

// ---- "Download all", and a recipient's own limit --------------------------------------------

describe('the ZIP of all files', () => {
  it('is one delivery of every file, with their SHA-256 from the manifest, once served to the end', async () => {
    const a = randomData(30_000);
    const b = randomData(40_000);
    const t = await sendFiles(
      app,
      user,
      new Map([
        ['a.txt', a],
        ['docs/b.txt', b],
      ]),
    );
    let res = await api(app, '/zip', json({ id: t.id }));
    if (res.status === 202) {
      await app.gateway.idle();
      res = await api(app, '/zip', json({ id: t.id }));
    }
    expect(res.status, res.text).toBe(200);
    await app.gateway.idle(); // the digest jobs started at completion
    const zip = await fetchBytes(res.json.url as string);
    expect(zip.bytes.length).toBe(res.json.size);
    await expect.poll(async () => (await listDeliveries(t.id)).length).toBe(1);
    const [d] = await listDeliveries(t.id);
    expect(d).toMatchObject({ what: 'zip', bytes: res.json.size, servedWhole: true });
    expect(d!.files.map((f) => [f.path, f.size, f.sha256]).sort()).toEqual(
      [
        ['a.txt', a.length, sha256(a)],
        ['docs/b.txt', b.length, sha256(b)],
      ].sort(),
    );
  });
});

describe('a recipient’s own limit', () => {
  it('limits downloads through that recipient’s link only, and is set by address', async () => {
    const t = await sendFiles(app, user, new Map([['memo.txt', randomData(10_000)]]), {
      sendAs: 'email',
      emailTo: [{ email: 'limited.one@example.com' }, { email: 'free.one@example.com' }],
    });
    const set = await api(
      app,
      `/transfers/${t.id}/download-limit`,
      json({ limit: 1, recipient: 'limited.one@example.com' }, bearer(user), 'PATCH'),
    );
    expect(set.status).toBe(200);
    expect((set.json as DownloadLimitsView).recipients).toEqual([
      { recipient: 'limited.one@example.com', limit: 1, used: 0 },
    ]);
    const ids = await recipientIdsOf(app, t.id);
    const limited = await fileUrl(t, { recipient: ids.get('limited.one@example.com') });
    expect(limited.status).toBe(200);
    // the slot is held while the URL lives
    expect((await fileUrl(t, { recipient: ids.get('limited.one@example.com') })).json.error.code).toBe(
      'download_limit_reached',
    );
    expect((await fileUrl(t, { recipient: ids.get('free.one@example.com') })).status).toBe(200);
    expect((await fileUrl(t)).status).toBe(200);
    await fetchBytes(limited.json.url as string);
    await expect.poll(async () => (await listDeliveries(t.id)).length).toBe(1);
    expect((await listDeliveries(t.id))[0]!.recipient).toEqual({ kind: 'personal', email: 'limited.one@example.com' });
    const view = (await api(app, '/getDownload', json({ id: t.id, recipient: ids.get('limited.one@example.com') })))
      .json as DownloadView;
    expect(view.limitReached).toBe(true);
    expect(((await api(app, '/getDownload', json({ id: t.id }))).json as DownloadView).limitReached).toBeUndefined();
    const unknown = await api(
      app,
      `/transfers/${t.id}/download-limit`,
      json({ limit: 1, recipient: 'stranger@example.com' }, bearer(user), 'PATCH'),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('recipient_not_found');
  });
});

describe('the transfer.delivered webhook', () => {
  it('carries the delivery to an endpoint subscribed to it, once per delivery', async () => {
    const receiver = await startReceiver();
    try {
      const hooked = await createUser(app, 'deliveries.hooks@example.com');
      const add = await api(
        app,
        '/webhooks',
        json({ url: receiver.url, events: ['transfer.delivered'] }, bearer(hooked)),
      );
      expect(add.status, add.text).toBe(201);
      const data = randomData(12_345);
      const t = await sendFiles(app, hooked, new Map([['plan.txt', data]]));
      const url = (await fileUrl(t)).json.url as string;
      await fetchBytes(url);
      const hook = await receiver.waitFor((h) => eventOf(h).type === 'transfer.delivered');
      const event = eventOf(hook);
      expect(event.data).toMatchObject({
        transferId: t.id,
        delivery: {
          deliveryId: deliveryIdOf(url),
          what: 'file',
          recipient: { kind: 'link' },
          bytes: data.length,
          servedWhole: true,
          files: [expect.objectContaining({ path: 'plan.txt', size: data.length })],
        },
      });
      // served again under the same URL: the same delivery, no second event
      await fetchBytes(url);
      await app.gateway.idle();
      expect(receiver.received.filter((h) => eventOf(h).type === 'transfer.delivered')).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('a job run that died between completing a grant and writing its delivery', () => {
  it('is made good by the next storage event of that grant: one delivery', async () => {
    const t = await sendFiles(app, user, new Map([['late.txt', randomData(5_000)]]));
    const url = (await fileUrl(t)).json.url as string;
    const grant = (await getGrant(deliveryIdOf(url)!))!;
    // what the dead run got to do: the grant complete, no delivery written
    expect(await completeGrant(grant, Date.now())).toBe(true);
    expect(await listDeliveries(t.id)).toEqual([]);
    await fetchBytes(url);
    await expect.poll(async () => (await listDeliveries(t.id)).length).toBe(1);
    expect((await listDeliveries(t.id))[0]).toMatchObject({ deliveryId: grant.deliveryId, servedWhole: true });
  });
});
