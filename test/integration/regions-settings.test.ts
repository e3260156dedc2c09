/**
 * Storage regions, data residency and settings against the real local stack: each
 * region is its own s3rver bucket. PATCH /settings/region moves a pro user's next transfer into
 * that region's bucket; free users, unknown or not-offered regions and someone else's userid are
 * refused; the transfer and request settings round-trip through POST /v1/updateProfile and GET /me
 * with the plan's rules enforced; downloadEmails off stops the download mail but not the bell.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { LocalApp } from '../../scripts/local/app';
import type { SessionUser } from '../../functions/domain/auth-api';
import type { RegionsResponse } from '../../functions/domain/settings-api';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { NotificationsResponse } from '../../functions/domain/dashboard-api';
import { OFFERED_REGION_IDS, SPEED_TEST_BYTES, type RegionId } from '../../functions/domain/regions';
import { bucketFor } from '../../functions/adapters/storage';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  guestToken,
  json,
  mailsTo,
  randomData,
  sendFiles,
  uploadAll,
  waitForMail,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let pro: TestUser;
let free: TestUser;
let other: TestUser;

const s3 = () =>
  new S3Client({
    region: 'us-east-1',
    endpoint: app.stack.urls.s3,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

/** The keys under `t/<slug>/` in a region's transfers bucket (or anon bucket), listed straight from s3rver. */
async function objectKeys(region: RegionId, slug: string, anon = false): Promise<string[]> {
  const out = await s3().send(
    new ListObjectsV2Command({ Bucket: bucketFor(region, anon).bucket, Prefix: `t/${slug}/` }),
  );
  return (out.Contents ?? []).map((o) => o.Key!).sort();
}

/** Where the transfer's objects are: every region whose bucket holds any of them. */
async function regionsHolding(slug: string, anon = false): Promise<RegionId[]> {
  const found: RegionId[] = [];
  for (const region of ['hongkong', 'siliconvalley', 'frankfurt', 'dubai', 'hangzhou', 'guangzhou'] as const) {
    if ((await objectKeys(region, slug, anon)).length > 0) found.push(region);
  }
  return found;
}

const patchRegion = (user: TestUser, body: unknown) => api(app, '/settings/region', json(body, bearer(user), 'PATCH'));
const me = async (user: TestUser) => (await api(app, '/me', { headers: bearer(user) })).json as SessionUser;
const update = (user: TestUser, body: unknown) => api(app, '/v1/updateProfile', json(body, bearer(user)));

beforeAll(async () => {
  app = await startTestApp();
  pro = await createUser(app, 'pro.resident@example.com', 'pro');
  free = await createUser(app, 'free.resident@example.com', 'free');
  other = await createUser(app, 'other.resident@example.com', 'business');
});

afterAll(async () => {
  await app?.stop();
});

describe('GET /regions', () => {
  it('lists the four offered regions with a working speed-test URL, and Hangzhou and Guangzhou as not offered', async () => {
    const res = await api(app, '/regions');
    expect(res.status, res.text).toBe(200);
    const body = res.json as RegionsResponse;
    expect(body.defaultRegion).toBe('hongkong');
    expect(body.regions.map((r) => r.regionId)).toEqual([
      'hongkong',
      'siliconvalley',
      'frankfurt',
      'dubai',
      'hangzhou',
      'guangzhou',
    ]);
    for (const r of body.regions.filter((x) => x.offered)) {
      expect(r.available).toBe(true);
      expect(r.speedTestUrl).toContain(bucketFor(r.regionId, false).bucket);
      // The browser's speed test: a HEAD on the 128 KB object, through the presigned URL only.
      const head = await fetch(r.speedTestUrl!, { method: 'HEAD' });
      expect(head.status, r.regionId).toBe(200);
      expect(Number(head.headers.get('content-length'))).toBe(SPEED_TEST_BYTES);
    }
    expect(body.regions.filter((r) => r.offered).map((r) => r.regionId)).toEqual([...OFFERED_REGION_IDS]);
    expect(body.regions.filter((r) => !r.offered).map((r) => [r.regionId, r.speedTestUrl])).toEqual([
      ['hangzhou', null],
      ['guangzhou', null],
    ]);
  });
});

describe('PATCH /settings/region', () => {
  it('starts at the default region', async () => {
    expect((await me(pro)).region).toBe('hongkong');
  });

  it("then a new transfer of the user has its objects in that region's bucket, not in the default one", async () => {
    const res = await patchRegion(pro, { userid: pro.sub, region: 'frankfurt' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ region: 'frankfurt' });
    expect((await me(pro)).region).toBe('frankfurt');

    const t = await sendFiles(
      app,
      pro,
      new Map([
        ['residency.pdf', randomData(2048)],
        ['folder/notes.txt', randomData(100)],
      ]),
    );
    expect(t.region).toBe('frankfurt');
    expect(await objectKeys('frankfurt', t.id)).toHaveLength(2);
    expect(await regionsHolding(t.id)).toEqual(['frankfurt']);
    // The recipient downloads from the Frankfurt bucket.
    const file = await api(app, '/getDownload/file', json({ id: t.id, fileId: t.files[0]!.fileId }));
    expect(file.status, file.text).toBe(200);
    expect(String(file.json.url)).toContain(bucketFor('frankfurt', false).bucket);
  });

  it('a region the send names is not honoured: the server decides from the account', async () => {
    const res = await api(
      app,
      '/me/transfers',
      json({ sendAs: 'link', region: 'dubai', fileObjects: [{ fileName: 'a.txt', size: 10 }] }, bearer(pro)),
    );
    expect(res.status, res.text).toBe(201);
    const t = res.json as CreateTransferResponse;
    expect(t.region).toBe('frankfurt');
    await uploadAll(app, t, new Map([['a.txt', randomData(10)]]));
    expect((await completeTransfer(app, t)).status).toBe(200);
    expect(await regionsHolding(t.id)).toEqual(['frankfurt']);
  });

  it("adding files to a transfer keeps them in the transfer's own region after the default changes", async () => {
    const t = await sendFiles(app, pro, new Map([['first.txt', randomData(10)]]));
    expect((await patchRegion(pro, { userid: pro.sub, region: 'dubai' })).status).toBe(200);
    const added = await api(
      app,
      '/transfers/addFiles',
      json({ slug: t.id, fileObjects: [{ fileName: 'second.txt', size: 12 }] }, bearer(pro), 'PATCH'),
    );
    expect(added.status, added.text).toBe(200);
    const more = added.json as CreateTransferResponse;
    expect(more.region).toBe('frankfurt');
    await uploadAll(app, more, new Map([['second.txt', randomData(12)]]));
    expect(await regionsHolding(t.id)).toEqual(['frankfurt']);
    // The next new transfer goes to Dubai.
    const next = await sendFiles(app, pro, new Map([['third.txt', randomData(10)]]));
    expect(await regionsHolding(next.id)).toEqual(['dubai']);
  });

  it('refuses a free plan with 403 and an upgrade message; its transfers stay in hongkong', async () => {
    const res = await patchRegion(free, { userid: free.sub, region: 'frankfurt' });
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.code).toBe('region_choice_not_in_plan');
    expect(res.json.error.message).toMatch(/Upgrade your plan/);
    expect((await me(free)).region).toBe('hongkong');
    const t = await sendFiles(app, free, new Map([['free.txt', randomData(10)]]));
    expect(await regionsHolding(t.id)).toEqual(['hongkong']);
  });

  it('refuses a region outside the list (400 unknown_region) and Hangzhou / Guangzhou (400 region_unavailable, not offered)', async () => {
    for (const region of ['mars', 'HongKong', 'frankfurt ', '']) {
      const res = await patchRegion(other, { userid: other.sub, region });
      expect(res.status, `${region}: ${res.text}`).toBe(400);
      expect(res.json.error.code, region).toBe(region === '' ? 'invalid_request' : 'unknown_region');
    }
    for (const region of ['hangzhou', 'guangzhou']) {
      const res = await patchRegion(other, { userid: other.sub, region });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'region_unavailable', details: { reason: 'not_offered' } });
    }
    for (const body of [{ region: 'dubai' }, { userid: other.sub }, { userid: other.sub, region: 7 }, 'dubai']) {
      const res = await patchRegion(other, body);
      expect(res.status, res.text).toBe(400);
    }
    expect((await me(other)).region).toBe('hongkong');
  });

  it("refuses someone else's userid with 403, changing nothing", async () => {
    const res = await patchRegion(other, { userid: pro.sub, region: 'siliconvalley' });
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.code).toBe('not_your_account');
    expect(res.text).not.toContain(pro.sub);
    expect((await me(pro)).region).toBe('dubai');
    expect((await me(other)).region).toBe('hongkong');
    expect((await api(app, '/settings/region', json({ userid: pro.sub, region: 'dubai' }, {}, 'PATCH'))).status).toBe(
      401,
    );
  });

  it('a guest send goes to the default region whatever the body says', async () => {
    const email = 'guest.resident@example.com';
    const token = await guestToken(app, email);
    const res = await api(
      app,
      '/transfers',
      json(
        {
          sendAs: 'email',
          senderEmail: email,
          emailTo: [{ email: 'to@example.com' }],
          region: 'frankfurt',
          fileObjects: [{ fileName: 'g.txt', size: 10 }],
        },
        { 'x-sender-token': token },
      ),
    );
    expect(res.status, res.text).toBe(201);
    const t = res.json as CreateTransferResponse;
    expect(t.region).toBe('hongkong');
    await uploadAll(app, t, new Map([['g.txt', randomData(10)]]));
    expect(await regionsHolding(t.id, true)).toEqual(['hongkong']);
  });
});

describe('transfer and request settings', () => {
  it('GET /me returns every setting with the defaults filled', async () => {
    const user = await me(other);
    expect(user.transferSettings).toEqual({
      expiryReminders: true,
      downloadEmails: true,
      defaultExpirySeconds: 604800,
      defaultSendAs: 'email',
      defaultMessage: '',
    });
    expect(user.requestSettings).toEqual({ emailOnUpload: true });
  });

  it('round-trips: only the transfer settings sent change, the request settings are replaced whole', async () => {
    let res = await update(other, {
      transferSettings: { defaultExpirySeconds: 2629746, defaultSendAs: 'link', defaultMessage: 'Files from Other' },
    });
    expect(res.status, res.text).toBe(200);
    res = await update(other, { transferSettings: { downloadEmails: false } });
    expect(res.status, res.text).toBe(200);
    const requestSettings = {
      defaultMessage: 'Please upload your invoices',
      defaultDueDays: 14,
      defaultRules: { maxBytes: 5_000_000, allowedTypes: ['pdf', 'jpg'], maxFiles: 20 },
      emailOnUpload: false,
    };
    res = await update(other, { requestSettings });
    expect(res.status, res.text).toBe(200);
    const expected = {
      transferSettings: {
        expiryReminders: true,
        downloadEmails: false,
        defaultExpirySeconds: 2629746,
        defaultSendAs: 'link',
        defaultMessage: 'Files from Other',
      },
      requestSettings,
    };
    expect(res.json).toMatchObject(expected);
    expect(await me(other)).toMatchObject(expected);
    // The older card's single toggle still works and leaves the rest alone.
    res = await update(other, { transferSettings: { expiryReminders: false } });
    expect((res.json as SessionUser).transferSettings).toEqual({
      ...expected.transferSettings,
      expiryReminders: false,
    });
  });

  it('enforces the plan: free may only default to 1 Week; request defaults within the plan per upload', async () => {
    let res = await update(free, { transferSettings: { defaultExpirySeconds: 2629746 } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('expiry_not_allowed');
    res = await update(free, { transferSettings: { defaultExpirySeconds: 604800, defaultSendAs: 'link' } });
    expect(res.status, res.text).toBe(200);
    res = await update(free, { requestSettings: { defaultRules: { maxBytes: 4_000_000_000 } } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('transfer_too_large');
    res = await update(free, { requestSettings: { defaultRules: { maxFiles: 51 } } });
    expect(res.json.error.code).toBe('too_many_files');
    const user = await me(free);
    expect(user.transferSettings?.defaultExpirySeconds).toBe(604800);
    expect(user.requestSettings).toEqual({ emailOnUpload: true });
  });

  it('refuses malformed settings with a 400, never a 5xx', async () => {
    for (const transferSettings of [
      { defaultExpirySeconds: 1234 },
      { defaultExpirySeconds: 604801 },
      { defaultSendAs: 'fax' },
      { defaultMessage: 'x'.repeat(281) },
      { downloadEmails: 'no' },
      'on',
    ]) {
      const res = await update(pro, { transferSettings });
      expect(res.status, `${JSON.stringify(transferSettings)}: ${res.text}`).toBe(400);
    }
    for (const requestSettings of [
      { defaultDueDays: 0 },
      { defaultRules: { allowedTypes: ['../etc'] } },
      { defaultRules: { maxBytes: -1 } },
      { defaultMessage: 'x'.repeat(2001) },
    ]) {
      const res = await update(pro, { requestSettings });
      expect(res.status, `${JSON.stringify(requestSettings)}: ${res.text}`).toBe(400);
    }
  });
});

describe('download notification mail follows downloadEmails', () => {
  async function downloadAndCount(user: TestUser, fileName: string): Promise<{ mails: number; notified: boolean }> {
    const t = await sendFiles(app, user, new Map([[fileName, randomData(64)]]));
    const dl = await api(app, '/getDownload/file', {
      ...json({ id: t.id, fileId: t.files[0]!.fileId }),
      headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': 'FR' },
    });
    expect(dl.status, dl.text).toBe(200);
    const notes = (await api(app, '/notifications', json({}, bearer(user)))).json as NotificationsResponse;
    return {
      mails: (await mailsTo(app, user.email)).filter((m) => m.subject.includes(fileName)).length,
      notified: notes.notifications.some((n) => n.fileName === fileName),
    };
  }

  it('on (the default): the sender gets the mail and the bell', async () => {
    const fileName = 'mailed-on-download.pdf';
    const t = await downloadAndCount(pro, fileName);
    expect(t.notified).toBe(true);
    await waitForMail(app, pro.email, new RegExp(fileName.replace('.', '\\.')));
  });

  it('off: the bell still gets the download, no mail is sent', async () => {
    expect((await update(pro, { transferSettings: { downloadEmails: false } })).status).toBe(200);
    const fileName = 'silent-on-download.pdf';
    const first = await downloadAndCount(pro, fileName);
    expect(first.notified).toBe(true);
    // The mail would have been sent within the request; give the inbox the same time the "on" case needs.
    await new Promise((r) => setTimeout(r, 1000));
    expect(
      (await mailsTo(app, pro.email)).filter((m) => m.subject.includes(fileName) || m.body.text.includes(fileName)),
    ).toEqual([]);
  });
});
