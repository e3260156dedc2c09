/**
 * The TransferModal's actions against the local stack: forward (a server-side copy
 * in s3rver, counted against storage, mailed with each recipient's own link), resend, remind,
 * expiry changes within the plan, and the download password, through the local gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { ForwardResponse } from '../../functions/domain/dashboard-api';
import { CUSTOM_DATE_MARKER, PURGE_GRACE_SECONDS } from '../../functions/domain/expiry';
import { keys } from '../../functions/data/keys';
import { bucketFor } from '../../functions/adapters/storage';
import type { RegionId } from '../../functions/domain/regions';
import { getTransfer, listFiles } from '../../functions/data/transfers';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { forwardTransfer } from '../../functions/services/transfer-actions';
import { userSender } from '../../functions/services/identity';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  fetchBytes,
  json,
  mailsTo,
  randomData,
  sha256,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let owner: TestUser;
let bob: TestUser;
let freeUser: TestUser;

const DAY = 86_400_000;
const WEEK_S = 604_800;
const MONTH_S = 2_629_746;

beforeAll(async () => {
  app = await startTestApp();
  owner = await createUser(app, 'modal.owner@example.com');
  bob = await createUser(app, 'modal.bob@example.com');
  freeUser = await createUser(app, 'modal.free@example.com', 'free');
});

afterAll(async () => {
  await app?.stop();
});

async function send(
  user: TestUser,
  files: Record<string, Buffer>,
  extra: Record<string, unknown> = {},
): Promise<CreateTransferResponse> {
  const res = await api(
    app,
    '/me/transfers',
    json(
      {
        sendAs: 'link',
        fileObjects: Object.entries(files).map(([p, d]) => ({
          fileName: p.split('/').pop()!,
          ...(p.includes('/') ? { itemPath: p } : {}),
          size: d.length,
        })),
        ...extra,
      },
      bearer(user),
    ),
  );
  expect(res.status, res.text).toBe(201);
  const t = res.json as CreateTransferResponse;
  await uploadAll(app, t, new Map(Object.entries(files)));
  const done = await completeTransfer(app, t);
  expect(done.status, done.text).toBe(200);
  return t;
}

const emailSend = (to: string[]) => ({ sendAs: 'email', emailTo: to.map((email) => ({ email })) });

async function storageUsed(user: TestUser): Promise<number> {
  const res = await api(app, '/folderSize', json({}, bearer(user)));
  expect(res.status, res.text).toBe(200);
  return res.json.size as number;
}

/** Every file of a transfer through the download API (as `recipient` when given): name -> sha256. */
async function downloadHashes(
  slug: string,
  opts: { recipient?: string; password?: string } = {},
): Promise<Map<string, string>> {
  const view = await api(app, '/getDownload', json({ id: slug, ...opts }));
  expect(view.status, view.text).toBe(200);
  const out = new Map<string, string>();
  for (const f of view.json.files as { fileId: string; fileName: string; itemPath?: string }[]) {
    const signed = await api(app, '/getDownload/file', json({ id: slug, fileId: f.fileId, ...opts }));
    expect(signed.status, signed.text).toBe(200);
    const got = await fetchBytes(signed.json.url as string);
    expect(got.status).toBe(200);
    out.set(f.itemPath ?? f.fileName, sha256(got.bytes));
  }
  return out;
}

/** The recipient id of the newest transfer mail to `to` for `slug`. */
async function mailedRecipientId(to: string, slug: string, match = /./): Promise<string> {
  const mail = await waitForMail(app, to, new RegExp(`/downloads/${slug}/[A-Za-z0-9]{8}`));
  expect(mail.body.text).toMatch(match);
  return new RegExp(`/downloads/${slug}/([A-Za-z0-9]{8})`).exec(mail.body.text)![1]!;
}

async function objectKeys(region: RegionId, prefix: string): Promise<string[]> {
  const b = bucketFor(region, false);
  const s3 = new S3Client({
    region: b.awsRegion,
    endpoint: app.stack.urls.s3,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const out = await s3.send(new ListObjectsV2Command({ Bucket: b.bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!);
}

async function setTimes(slug: string, v: { expiryDate: number }) {
  await dynamo().send(
    new UpdateCommand({
      TableName: app.stack.env.TABLE_NAME,
      Key: keys.transfer(slug),
      UpdateExpression: 'SET expiryDate = :x, sweepDueAt = :x, gsi2sk = :s',
      ExpressionAttributeValues: { ':x': v.expiryDate, ':s': keys.sweepIndex(v.expiryDate, slug).gsi2sk },
    }),
  );
}

describe('forward: a server-side copy under a new slug', () => {
  const files = { 'brief.pdf': randomData(70_000), 'cuts/take-1.mov': randomData(6 * 1024 * 1024 + 11) };
  let source: CreateTransferResponse;
  let forwarded: ForwardResponse;

  it('copies every object (same bytes), counts the copy against storage and mails each recipient their own link', async () => {
    source = await send(owner, files, { ...emailSend(['first.recipient@example.com']), message: 'original message' });
    // the source's digests, started as its files completed
    await app.gateway.idle();
    const before = await storageUsed(owner);
    const res = await api(
      app,
      '/transfers/forward',
      json(
        {
          slug: source.id,
          emailTo: [{ email: 'fwd.one@example.com' }, { email: 'fwd.two@example.com', name: 'Two' }],
          message: 'Have a look',
        },
        bearer(owner),
      ),
    );
    expect(res.status, res.text).toBe(201);
    forwarded = res.json as ForwardResponse;
    expect(forwarded.slug).not.toBe(source.id);
    expect(forwarded.slug).toMatch(/^[A-Za-z0-9]{7}$/);
    expect([...forwarded.recipients].sort()).toEqual(['fwd.one@example.com', 'fwd.two@example.com']);
    expect(Math.abs(forwarded.expiryDate - (Date.now() + WEEK_S * 1000))).toBeLessThan(60_000);
    const total = Object.values(files).reduce((s, d) => s + d.length, 0);
    expect(await storageUsed(owner)).toBe(before + total);

    // New file ids and keys under the new slug; the source's objects are untouched.
    const copy = await getTransfer(forwarded.slug);
    expect(copy).toMatchObject({
      status: 'ready',
      forwardedFrom: source.id,
      senderId: owner.sub,
      totalBytes: total,
      fileCount: 2,
    });
    expect(copy!.passwordHash).toBeUndefined();
    const copyFiles = await listFiles(forwarded.slug);
    expect(copyFiles.map((f) => f.key).every((k) => k.startsWith(`t/${forwarded.slug}/`))).toBe(true);
    expect(new Set(copyFiles.map((f) => f.fileId)).size).toBe(2);
    for (const f of copyFiles) expect(source.files.map((s) => s.fileId)).not.toContain(f.fileId);
    expect((await objectKeys(copy!.region, `t/${forwarded.slug}/`)).sort()).toEqual(copyFiles.map((f) => f.key).sort());

    const one = await mailedRecipientId('fwd.one@example.com', forwarded.slug, /Have a look/);
    const two = await mailedRecipientId('fwd.two@example.com', forwarded.slug);
    expect(one).not.toBe(two);
    const expected = new Map(Object.entries(files).map(([p, d]) => [p, sha256(d)]));
    // the copy carries the source's SHA-256s (the same bytes)
    expect(new Map(copyFiles.map((f) => [f.itemPath ?? f.fileName, f.sha256]))).toEqual(expected);
    expect(await downloadHashes(forwarded.slug, { recipient: one })).toEqual(expected);
    expect(await downloadHashes(source.id)).toEqual(expected);
    // The first recipient of the source got nothing new.
    expect(
      (await mailsTo(app, 'first.recipient@example.com')).filter((m) => m.body.text.includes(forwarded.slug)),
    ).toEqual([]);
  });

  it('a transfer too large to copy within the request is queued, then copied, sent and mailed by the forward-copy job', async () => {
    const before = await storageUsed(owner);
    // As for a forward above INLINE_COPY_MAX_BYTES (2 GiB): the same service, then the scheduled job.
    const res = await forwardTransfer(
      { slug: source.id, sendAs: 'email', emailTo: [{ email: 'fwd.big@example.com' }], message: '' },
      await userSender({ sub: owner.sub }),
      Date.now(),
      { inlineMaxBytes: 0 },
    );
    expect(res.copying).toBe(true);
    expect(res.recipients).toEqual(['fwd.big@example.com']);
    expect(await storageUsed(owner)).toBe(before + Object.values(files).reduce((s, d) => s + d.length, 0));
    expect((await getTransfer(res.slug))!.status).toBe('uploading');
    expect((await api(app, '/getDownload', json({ id: res.slug }))).status).toBe(404);
    // Two runs at once: one copies, the other finds the copy claimed.
    const runs = (await Promise.all([app.gateway.runJob('forward-copy'), app.gateway.runJob('forward-copy')])) as {
      sent: number;
      failed: number;
    }[];
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(await getTransfer(res.slug)).toMatchObject({ status: 'ready', forwardedFrom: source.id });
    const id = await mailedRecipientId('fwd.big@example.com', res.slug);
    expect(await downloadHashes(res.slug, { recipient: id })).toEqual(
      new Map(Object.entries(files).map(([p, d]) => [p, sha256(d)])),
    );
    expect(await app.gateway.runJob('forward-copy')).toEqual({ sent: 0, failed: 0 });
  });

  it('a queued copy whose source is deleted before the job runs is removed, with its reservation', async () => {
    const src = await send(owner, { 'queued.bin': randomData(4000) });
    const before = await storageUsed(owner);
    const res = await forwardTransfer(
      { slug: src.id, sendAs: 'link', emailTo: [], message: '' },
      await userSender({ sub: owner.sub }),
      Date.now(),
      { inlineMaxBytes: 0 },
    );
    expect(await storageUsed(owner)).toBe(before + 4000);
    expect((await api(app, `/transfers/${src.id}`, { method: 'DELETE', headers: bearer(owner) })).status).toBe(200);
    expect(await app.gateway.runJob('forward-copy')).toEqual({ sent: 0, failed: 1 });
    expect((await getTransfer(res.slug))!.status).toBe('cancelled');
    expect(await storageUsed(owner)).toBe(before - 4000);
    expect(await objectKeys((await getTransfer(res.slug))!.region, `t/${res.slug}/`)).toEqual([]);
  });

  it('forwarding twice makes two copies', async () => {
    const again = await api(app, '/transfers/forward', json({ slug: source.id, sendAs: 'link' }, bearer(owner)));
    expect(again.status, again.text).toBe(201);
    expect(again.json.slug).not.toBe(forwarded.slug);
    expect(again.json.recipients).toEqual([]);
    expect(await downloadHashes(again.json.slug as string)).toEqual(
      new Map(Object.entries(files).map(([p, d]) => [p, sha256(d)])),
    );
  });

  it("refuses another user's transfer (403) and an unknown one (404), copying nothing", async () => {
    const before = await storageUsed(bob);
    const theirs = await api(
      app,
      '/transfers/forward',
      json({ slug: source.id, emailTo: [{ email: 'thief@example.com' }] }, bearer(bob)),
    );
    expect(theirs.status, theirs.text).toBe(403);
    expect(theirs.text).not.toContain('brief.pdf');
    expect(
      (await api(app, '/transfers/forward', json({ slug: 'Zq9Xw2K', sendAs: 'link' }, bearer(owner)))).status,
    ).toBe(404);
    expect(await storageUsed(bob)).toBe(before);
  });

  it('applies the rules of a new send: recipients required for an email forward, the plan caps recipients', async () => {
    const none = await api(app, '/transfers/forward', json({ slug: source.id, sendAs: 'email' }, bearer(owner)));
    expect(none.status).toBe(400);
    expect(none.json.error.code).toBe('email_to_required');
    const mine = await send(freeUser, { 'a.txt': randomData(10) }, emailSend(['x@example.com']));
    const before = await storageUsed(freeUser);
    const many = await api(
      app,
      '/transfers/forward',
      json(
        { slug: mine.id, emailTo: Array.from({ length: 7 }, (_, i) => ({ email: `r${i}@example.com` })) },
        bearer(freeUser),
      ),
    );
    expect(many.status).toBe(400);
    expect(many.json.error.code).toBe('too_many_recipients');
    expect(await storageUsed(freeUser)).toBe(before);
  });

  it('a deleted transfer cannot be forwarded (404), an expired one answers 410', async () => {
    const gone = await send(owner, { 'gone.txt': randomData(100) });
    expect((await api(app, `/transfers/${gone.id}`, { method: 'DELETE', headers: bearer(owner) })).status).toBe(200);
    const before = await storageUsed(owner);
    const res = await api(app, '/transfers/forward', json({ slug: gone.id, sendAs: 'link' }, bearer(owner)));
    expect(res.status, res.text).toBe(404);
    expect(await storageUsed(owner)).toBe(before);

    const old = await send(owner, { 'old.txt': randomData(100) });
    await setTimes(old.id, { expiryDate: Date.now() - 60_000 });
    const expired = await api(app, '/transfers/forward', json({ slug: old.id, sendAs: 'link' }, bearer(owner)));
    expect(expired.status).toBe(410);
    expect(expired.json.error.code).toBe('transfer_expired');
  });

  it('a forward racing a delete of its source copies everything or fails cleanly, and storage adds up', async () => {
    for (let round = 0; round < 3; round += 1) {
      const data = {
        'race-a.bin': randomData(300_000),
        'race-b.bin': randomData(200_000),
        'race-c.bin': randomData(100_000),
      };
      const size = Object.values(data).reduce((s, d) => s + d.length, 0);
      const src = await send(owner, data);
      const before = await storageUsed(owner);
      const [fwd, del] = await Promise.all([
        api(app, '/transfers/forward', json({ slug: src.id, sendAs: 'link' }, bearer(owner))),
        api(app, `/transfers/${src.id}`, { method: 'DELETE', headers: bearer(owner) }),
      ]);
      expect(del.status, del.text).toBe(200);
      expect([201, 404], fwd.text).toContain(fwd.status);
      if (fwd.status === 201) {
        expect(await downloadHashes(fwd.json.slug as string)).toEqual(
          new Map(Object.entries(data).map(([p, d]) => [p, sha256(d)])),
        );
        expect(await storageUsed(owner)).toBe(before);
      } else {
        expect(await storageUsed(owner)).toBe(before - size);
      }
    }
  });
});

describe('resend (emailSend) and remind', () => {
  let t: CreateTransferResponse;
  const to = ['resend.a@example.com', 'resend.b@example.com', 'resend.c@example.com'];
  const count = async (email: string, slug: string) =>
    (await mailsTo(app, email)).filter((m) => m.body.text.includes(`/downloads/${slug}/`)).length;

  it('mails the link again to every recipient, or only to the ones chosen', async () => {
    t = await send(owner, { 'plan.pdf': randomData(500) }, emailSend(to));
    for (const e of to) await mailedRecipientId(e, t.id);
    const all = await api(app, '/transfers/emailSend', json({ slug: t.id }, bearer(owner)));
    expect(all.status, all.text).toBe(200);
    expect([...all.json.sent].sort()).toEqual(to);
    for (const e of to) expect(await count(e, t.id)).toBe(2);
    const one = await api(
      app,
      '/transfers/emailSend',
      json({ slug: t.id, emails: ['Resend.B@example.com'] }, bearer(owner)),
    );
    expect(one.status, one.text).toBe(200);
    expect(one.json.sent).toEqual(['resend.b@example.com']);
    expect(await count('resend.a@example.com', t.id)).toBe(2);
    expect(await count('resend.b@example.com', t.id)).toBe(3);
  });

  it('refuses addresses that are not recipients, link transfers and other users', async () => {
    const stranger = await api(
      app,
      '/transfers/emailSend',
      json({ slug: t.id, emails: ['resend.a@example.com', 'stranger@example.com'] }, bearer(owner)),
    );
    expect(stranger.status).toBe(400);
    expect(stranger.json.error).toMatchObject({
      code: 'not_a_recipient',
      details: { emails: ['stranger@example.com'] },
    });
    expect(await mailsTo(app, 'stranger@example.com')).toEqual([]);
    const link = await send(owner, { 'l.txt': randomData(5) });
    const noRecipients = await api(app, '/transfers/emailSend', json({ slug: link.id }, bearer(owner)));
    expect(noRecipients.status).toBe(409);
    expect(noRecipients.json.error.code).toBe('not_email_transfer');
    expect((await api(app, '/transfers/remind', json({ slug: link.id }, bearer(owner)))).status).toBe(409);
    expect((await api(app, '/transfers/emailSend', json({ slug: t.id }, bearer(bob)))).status).toBe(403);
    expect((await api(app, '/transfers/remind', json({ slug: t.id }, bearer(bob)))).status).toBe(403);
  });

  it('remind mails only the recipients who have not downloaded with their own link', async () => {
    const aId = await mailedRecipientId('resend.a@example.com', t.id);
    const files = (await api(app, '/getDownload', json({ id: t.id, recipient: aId }))).json.files as {
      fileId: string;
    }[];
    expect(
      (await api(app, '/getDownload/file', json({ id: t.id, fileId: files[0]!.fileId, recipient: aId }))).status,
    ).toBe(200);
    // A download through the plain link is nobody's.
    expect((await api(app, '/getDownload/file', json({ id: t.id, fileId: files[0]!.fileId }))).status).toBe(200);
    const res = await api(app, '/transfers/remind', json({ slug: t.id }, bearer(owner)));
    expect(res.status, res.text).toBe(200);
    expect([...res.json.sent].sort()).toEqual(['resend.b@example.com', 'resend.c@example.com']);
    const reminder = await waitForMail(app, 'resend.c@example.com', /haven't downloaded these files yet/);
    expect(reminder.subject).toMatch(/^Reminder: /);
    const cId = await mailedRecipientId('resend.c@example.com', t.id);
    expect(reminder.body.text).toContain(`/downloads/${t.id}/${cId}`);
    expect((await mailsTo(app, 'resend.a@example.com')).filter((m) => /^Reminder/.test(m.subject))).toEqual([]);

    const bId = await mailedRecipientId('resend.b@example.com', t.id);
    for (const id of [bId, cId])
      expect(
        (await api(app, '/getDownload/file', json({ id: t.id, fileId: files[0]!.fileId, recipient: id }))).status,
      ).toBe(200);
    const none = await api(app, '/transfers/remind', json({ slug: t.id }, bearer(owner)));
    expect(none.status, none.text).toBe(200);
    expect(none.json.sent).toEqual([]);
  });

  it('is rate limited per transfer: 10 an hour, then 429 rate_limited with Retry-After', async () => {
    const r = await send(owner, { 'r.txt': randomData(5) }, emailSend(['limit.one@example.com']));
    for (let i = 0; i < 10; i += 1)
      expect((await api(app, '/transfers/emailSend', json({ slug: r.id }, bearer(owner)))).status).toBe(200);
    const over = await api(app, '/transfers/emailSend', json({ slug: r.id }, bearer(owner)));
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await count('limit.one@example.com', r.id)).toBe(11);
  });
});

describe('expiry: extend, shorten, within the plan', () => {
  it('extends and shortens from now by a preset, or to a custom date, and the download page follows', async () => {
    const t = await send(owner, { 'e.txt': randomData(50) });
    const month = await api(app, '/transfers/expiry', json({ slug: t.id, expirySeconds: MONTH_S }, bearer(owner)));
    expect(month.status, month.text).toBe(200);
    expect(month.json.state).toBe('active');
    expect(Math.abs(month.json.expiryDate - (Date.now() + MONTH_S * 1000))).toBeLessThan(60_000);
    expect((await api(app, '/getDownload', json({ id: t.id }))).json.expiryDate).toBe(month.json.expiryDate);

    const week = await api(app, '/transfers/expiry', json({ slug: t.id, expirySeconds: WEEK_S }, bearer(owner)));
    expect(week.status).toBe(200);
    expect(week.json.expiryDate).toBeLessThan(month.json.expiryDate);
    expect((await api(app, '/getDownload', json({ id: t.id }))).json.expiryDate).toBe(week.json.expiryDate);

    const date = Date.now() + 2 * DAY;
    const custom = await api(
      app,
      '/transfers/expiry',
      json({ slug: t.id, expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: date }, bearer(owner)),
    );
    expect(custom.status, custom.text).toBe(200);
    expect(custom.json.expiryDate).toBe(date);
    expect(await getTransfer(t.id)).toMatchObject({
      expiryDate: date,
      expirySeconds: CUSTOM_DATE_MARKER,
      customExpiryDate: date,
    });

    const soon = await api(
      app,
      '/transfers/expiry',
      json({ slug: t.id, expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: Date.now() + 60_000 }, bearer(owner)),
    );
    expect(soon.status).toBe(400);
    expect(soon.json.error.code).toBe('expiry_too_soon');
    const odd = await api(app, '/transfers/expiry', json({ slug: t.id, expirySeconds: 3600 }, bearer(owner)));
    expect(odd.status).toBe(400);
    expect(odd.json.error.code).toBe('expiry_not_allowed');
    expect((await api(app, '/transfers/expiry', json({ slug: t.id, expirySeconds: WEEK_S }, bearer(bob)))).status).toBe(
      403,
    );
    expect((await getTransfer(t.id))!.expiryDate).toBe(date);
  });

  it('a free user may only pick 1 Week', async () => {
    const t = await send(freeUser, { 'f.txt': randomData(50) }, emailSend(['free.r@example.com']));
    const month = await api(app, '/transfers/expiry', json({ slug: t.id, expirySeconds: MONTH_S }, bearer(freeUser)));
    expect(month.status).toBe(400);
    expect(month.json.error.code).toBe('expiry_not_allowed');
    const custom = await api(
      app,
      '/transfers/expiry',
      json({ slug: t.id, expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: Date.now() + DAY }, bearer(freeUser)),
    );
    expect(custom.status).toBe(400);
    expect(custom.json.error.code).toBe('expiry_not_allowed');
    expect(
      (await api(app, '/transfers/expiry', json({ slug: t.id, expirySeconds: WEEK_S }, bearer(freeUser)))).status,
    ).toBe(200);
  });

  it('an expired transfer inside its grace period is active again; a purged one answers 410', async () => {
    const t = await send(owner, { 'late.txt': randomData(50) });
    await setTimes(t.id, { expiryDate: Date.now() - DAY });
    await app.gateway.runJob('expiry-sweep');
    expect((await getTransfer(t.id))!.status).toBe('expired');
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(410);
    const back = await api(app, '/transfers/expiry', json({ slug: t.id, expirySeconds: WEEK_S }, bearer(owner)));
    expect(back.status, back.text).toBe(200);
    expect(back.json.state).toBe('active');
    expect((await getTransfer(t.id))!.status).toBe('ready');
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(200);

    const p = await send(owner, { 'purged.txt': randomData(50) });
    await setTimes(p.id, { expiryDate: Date.now() - PURGE_GRACE_SECONDS * 1000 - DAY });
    await app.gateway.runJob('expiry-sweep');
    await app.gateway.runJob('expiry-sweep');
    expect((await getTransfer(p.id))!.purged).toBe(true);
    for (const body of [{ expirySeconds: WEEK_S }, { password: 'abcd' }]) {
      const res = await api(
        app,
        `/transfers/${'expirySeconds' in body ? 'expiry' : 'password'}`,
        json({ slug: p.id, ...body }, bearer(owner)),
      );
      expect(res.status, res.text).toBe(410);
      expect(res.json.error.code).toBe('transfer_purged');
    }
  });
});

describe('download password', () => {
  it('set: the download page asks for it; removed: it no longer does', async () => {
    const t = await send(owner, { 'secret.txt': randomData(40) });
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(200);
    const set = await api(app, '/transfers/password', json({ slug: t.id, password: 'Purple-Rain-7' }, bearer(owner)));
    expect(set.status, set.text).toBe(200);
    expect(set.json).toEqual({ hasPassword: true });
    const without = await api(app, '/getDownload', json({ id: t.id }));
    expect(without.status).toBe(401);
    expect(without.json.error.code).toBe('password_required');
    expect((await api(app, '/getDownload', json({ id: t.id, password: 'wrong-one' }))).status).toBe(401);
    expect((await api(app, '/getDownload', json({ id: t.id, password: 'Purple-Rain-7' }))).status).toBe(200);

    const short = await api(app, '/transfers/password', json({ slug: t.id, password: 'abc' }, bearer(owner)));
    expect(short.status).toBe(400);
    expect((await api(app, '/transfers/password', json({ slug: t.id, password: null }, bearer(bob)))).status).toBe(403);
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(401);

    const removed = await api(app, '/transfers/password', json({ slug: t.id, password: null }, bearer(owner)));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toEqual({ hasPassword: false });
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(200);
  });

  it('a forwarded copy does not keep the password', async () => {
    const t = await send(owner, { 'locked.txt': randomData(40) }, { password: 'Locked-Door-1' });
    const fwd = await api(app, '/transfers/forward', json({ slug: t.id, sendAs: 'link' }, bearer(owner)));
    expect(fwd.status, fwd.text).toBe(201);
    expect((await api(app, '/getDownload', json({ id: fwd.json.slug }))).status).toBe(200);
    expect((await api(app, '/getDownload', json({ id: t.id }))).status).toBe(401);
  });
});
