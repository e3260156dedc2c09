/**
 * Download notifications end to end (spec §2 Notifications panel, §3 Notification, §7):
 * real downloads through the local gateway create them (one transaction with the download),
 * the sender lists them with a bounded unread count, marks one read, deletes one, the read ones
 * and all; another user can neither see, read nor delete them. The transfer leaves the sparse
 * "unseen" index (gsi4) on its first download.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchWriteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalApp } from '../../scripts/local/app';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import type { NotificationView, NotificationsResponse } from '../../functions/domain/dashboard-api';
import { UNREAD_COUNT_CAP } from '../../functions/domain/dashboard-api';
import { keys } from '../../functions/data/keys';
import { eventIdAt, notificationItem } from '../../functions/data/notifications';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { api, startTestApp } from '../helpers/local-app';
import {
  bearer,
  completeTransfer,
  createUser,
  guestToken,
  json,
  randomData,
  recipientIdsOf as recipientIdsOfAt,
  sendFiles,
  uploadAll,
  type TestUser,
} from '../helpers/transfers';

let app: LocalApp;
let alice: TestUser;
let bob: TestUser;
let t: CreateTransferResponse;
let recipientIds: Map<string, string>;
const table = () => app.stack.env.TABLE_NAME!;

const FILES = { 'quarterly-report.pdf': randomData(300), 'appendix.xlsx': randomData(200) };

function sendByEmail(user: TestUser, files: Record<string, Buffer>, to: string[]): Promise<CreateTransferResponse> {
  return sendFiles(app, user, new Map(Object.entries(files)), {
    sendAs: 'email',
    emailTo: to.map((email) => ({ email })),
  });
}

const recipientIdsOf = (slug: string) => recipientIdsOfAt(app, slug);

async function downloadFile(slug: string, fileId: string, country: string, recipient?: string) {
  const res = await api(app, '/getDownload/file', {
    ...json({ id: slug, fileId, ...(recipient ? { recipient } : {}) }),
    headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': country },
  });
  expect(res.status, res.text).toBe(200);
}

async function notificationsOf(user: TestUser): Promise<NotificationsResponse> {
  const res = await api(app, '/notifications', json({}, bearer(user)));
  expect(res.status, res.text).toBe(200);
  return res.json as NotificationsResponse;
}

const post = (path: string, user: TestUser, body: unknown) => api(app, path, json(body, bearer(user)));

async function unseenSlugs(user: TestUser): Promise<string[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi4',
      KeyConditionExpression: 'gsi4pk = :p',
      ExpressionAttributeValues: { ':p': keys.unseenPartition(user.sub) },
    }),
  );
  return (out.Items ?? []).map((i) => String(i.slug));
}

beforeAll(async () => {
  app = await startTestApp();
  alice = await createUser(app, 'alice.notified@example.com');
  bob = await createUser(app, 'bob.nosy@example.com');
  t = await sendByEmail(alice, FILES, ['reader.one@example.com', 'reader.two@example.com']);
  recipientIds = await recipientIdsOf(t.id);
});

afterAll(async () => {
  await app?.stop();
});

describe('a download notifies the signed-in sender', () => {
  it('starts with nothing to show, and the sent transfer is in the unseen index', async () => {
    expect(await notificationsOf(alice)).toEqual({ notifications: [], unreadCount: 0 });
    expect(await unseenSlugs(alice)).toContain(t.id);
  });

  it('a recipient downloading a file creates an unread notification with the spec fields; the transfer leaves the unseen index', async () => {
    const file = t.files.find((f) => f.fileName === 'quarterly-report.pdf')!;
    const before = Date.now();
    await downloadFile(t.id, file.fileId, 'DE', recipientIds.get('reader.one@example.com'));
    const { notifications, unreadCount } = await notificationsOf(alice);
    expect(unreadCount).toBe(1);
    expect(notifications).toHaveLength(1);
    const n = notifications[0]!;
    expect(n).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: t.id,
      read: false,
      dlDate: expect.any(Number),
      dlCountryCode: 'DE',
      receiverEmail: 'reader.one@example.com',
      fileName: 'quarterly-report.pdf',
      dlOrigin: 'file',
    });
    expect(n.dlDate).toBeGreaterThanOrEqual(before);
    expect(await unseenSlugs(alice)).not.toContain(t.id);
    // The same transaction recorded the download under the transfer and counted it.
    const meta = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.transfer(t.id) }));
    expect(meta.Item!.totalDownloads).toBe(1);
  });

  it('the ZIP and a download through the plain link notify too, newest first', async () => {
    const first = await api(app, '/zip', {
      ...json({ id: t.id }),
      headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': 'JP' },
    });
    expect(first.status, first.text).toBe(202);
    await app.gateway.idle();
    const ready = await api(app, '/zip', {
      ...json({ id: t.id, recipient: recipientIds.get('reader.two@example.com') }),
      headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': 'JP' },
    });
    expect(ready.status, ready.text).toBe(200);
    const appendix = t.files.find((f) => f.fileName === 'appendix.xlsx')!;
    await downloadFile(t.id, appendix.fileId, 'BR');
    const { notifications, unreadCount } = await notificationsOf(alice);
    expect(unreadCount).toBe(3);
    expect(notifications.map((n) => [n.dlOrigin, n.dlCountryCode, n.receiverEmail ?? null, n.fileName])).toEqual([
      ['file', 'BR', null, 'appendix.xlsx'],
      ['zip', 'JP', 'reader.two@example.com', expect.stringMatching(/\.zip$/)],
      ['file', 'DE', 'reader.one@example.com', 'quarterly-report.pdf'],
    ]);
  });

  it("another sender's downloads notify that sender only", async () => {
    const mine = await sendByEmail(bob, { 'b.txt': randomData(10) }, ['someone@example.com']);
    await downloadFile(mine.id, mine.files[0]!.fileId, 'FR');
    expect((await notificationsOf(alice)).notifications).toHaveLength(3);
    expect((await notificationsOf(bob)).notifications.map((n) => n.slug)).toEqual([mine.id]);
  });

  it('a guest transfer (no signed-in sender) notifies no one, and its download is still recorded and counted', async () => {
    const senderToken = await guestToken(app, 'guest.sender@example.com');
    const res = await api(
      app,
      '/transfers',
      json(
        {
          sendAs: 'email',
          senderEmail: 'guest.sender@example.com',
          emailTo: [{ email: 'guest.reader@example.com' }],
          fileObjects: [{ fileName: 'g.txt', size: 5 }],
        },
        { 'x-sender-token': senderToken },
      ),
    );
    expect(res.status, res.text).toBe(201);
    const g = res.json as CreateTransferResponse;
    await uploadAll(app, g, new Map([['g.txt', randomData(5)]]));
    expect((await completeTransfer(app, g)).status).toBe(200);
    await downloadFile(g.id, g.files[0]!.fileId, 'IT');
    const meta = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.transfer(g.id) }));
    expect(meta.Item!.totalDownloads).toBe(1);
    const rows = await dynamo().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': keys.transfer(g.id).pk, ':p': keys.downloadPrefix },
      }),
    );
    expect(rows.Items).toEqual([
      expect.objectContaining({ countryCode: 'IT', country_name: 'Italy', fileName: 'g.txt', dlOrigin: 'file' }),
    ]);
    expect((await notificationsOf(alice)).notifications).toHaveLength(3);
    expect((await notificationsOf(bob)).notifications).toHaveLength(1);
  });
});

describe('reading and clearing', () => {
  let list: readonly NotificationView[];

  beforeAll(async () => {
    list = (await notificationsOf(alice)).notifications;
  });

  it('marking one read drops the unread count and keeps it in the list', async () => {
    const res = await post('/notifications/read', alice, { notifyId: list[0]!._id });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ read: true });
    const after = await notificationsOf(alice);
    expect(after.unreadCount).toBe(2);
    expect(after.notifications.find((n) => n._id === list[0]!._id)?.read).toBe(true);
    // again: still read, still 200
    expect((await post('/notifications/read', alice, { notifyId: list[0]!._id })).status).toBe(200);
    expect((await notificationsOf(alice)).unreadCount).toBe(2);
  });

  it("another user can neither read, mark nor delete A's notifications (404, nothing changes)", async () => {
    const bobs = await notificationsOf(bob);
    expect(bobs.notifications.some((n) => list.some((a) => a._id === n._id))).toBe(false);
    expect(JSON.stringify(bobs)).not.toContain('quarterly-report.pdf');
    const read = await post('/notifications/read', bob, { notifyId: list[1]!._id });
    expect(read.status).toBe(404);
    expect(read.json.error.code).toBe('notification_not_found');
    const del = await post('/deleteNotification', bob, { notifyId: list[1]!._id });
    expect(del.status).toBe(404);
    expect(del.json.error.code).toBe('notification_not_found');
    const mine = await notificationsOf(alice);
    expect(mine.notifications).toHaveLength(3);
    expect(mine.unreadCount).toBe(2);
    // bob clearing his own: his one goes, A's stay
    const all = await post('/deleteNotification', bob, { notifyId: 'all' });
    expect(all.json).toEqual({ deleted: 1 });
    expect((await notificationsOf(alice)).notifications).toHaveLength(3);
  });

  it('refuses ids that are not ids (400) and unknown ones (404)', async () => {
    for (const notifyId of ['nope', '../USER#x', 5, null, 'ALL']) {
      const res = await post('/notifications/read', alice, { notifyId });
      expect(res.status, JSON.stringify(notifyId)).toBe(400);
    }
    expect((await post('/deleteNotification', alice, { notifyId: 'allread' })).status).toBe(400);
    // a well-formed random UUIDv4 and a UUIDv7 of another time name nothing
    expect(
      (await post('/notifications/read', alice, { notifyId: '3b241101-e2bb-4255-8caf-4136c566a962' })).status,
    ).toBe(404);
    expect((await post('/notifications/read', alice, { notifyId: eventIdAt(Date.now()) })).status).toBe(404);
  });

  it("deletes one by id, then 'Allread' only the read ones, then 'all' the rest", async () => {
    const one = await post('/deleteNotification', alice, { notifyId: list[2]!._id });
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual({ deleted: 1 });
    expect((await post('/deleteNotification', alice, { notifyId: list[2]!._id })).status).toBe(404);
    let now = await notificationsOf(alice);
    expect(now.notifications.map((n) => n._id)).toEqual([list[0]!._id, list[1]!._id]);
    expect(now.unreadCount).toBe(1);

    const read = await post('/deleteNotification', alice, { notifyId: 'Allread' });
    expect(read.json).toEqual({ deleted: 1 });
    now = await notificationsOf(alice);
    expect(now.notifications.map((n) => n._id)).toEqual([list[1]!._id]);
    expect(now.unreadCount).toBe(1);

    const all = await post('/deleteNotification', alice, { notifyId: 'all' });
    expect(all.json).toEqual({ deleted: 1 });
    expect(await notificationsOf(alice)).toEqual({ notifications: [], unreadCount: 0 });
    expect((await post('/deleteNotification', alice, { notifyId: 'all' })).json).toEqual({ deleted: 0 });
  });
});

describe('bounds', () => {
  it(`counts unread up to ${UNREAD_COUNT_CAP}, lists the newest page, and leaves out expired ones`, async () => {
    const carol = await createUser(app, 'carol.busy@example.com');
    const now = Date.now();
    const items = Array.from({ length: UNREAD_COUNT_CAP + 20 }, (_, i) => {
      const at = now - i * 60_000;
      return notificationItem(carol.sub, {
        _id: eventIdAt(at),
        slug: 'AAAAAAA',
        read: false,
        dlDate: at,
        dlCountryCode: 'DE',
        fileName: `f-${i}.txt`,
        dlOrigin: 'file',
      });
    });
    // two older than the 180 days a notification is kept (DynamoDB removes them lazily; DynamoDB Local never)
    const old = now - 200 * 86_400_000;
    const expiredIds = [eventIdAt(old), eventIdAt(old - 1)];
    items.push(
      ...expiredIds.map((_id, i) =>
        notificationItem(carol.sub, {
          _id,
          slug: 'AAAAAAA',
          read: false,
          dlDate: old - i,
          dlCountryCode: 'DE',
          fileName: 'old.txt',
          dlOrigin: 'file',
        }),
      ),
    );
    for (let i = 0; i < items.length; i += 25) {
      await dynamo().send(
        new BatchWriteCommand({
          RequestItems: { [table()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
        }),
      );
    }
    const res = await notificationsOf(carol);
    expect(res.unreadCount).toBe(UNREAD_COUNT_CAP);
    expect(res.notifications).toHaveLength(50);
    expect(res.notifications[0]!.fileName).toBe('f-0.txt');
    expect(res.notifications.map((n) => n.dlDate)).toEqual(
      [...res.notifications.map((n) => n.dlDate)].sort((a, b) => b - a),
    );
    // an expired one cannot be marked read
    expect((await post('/notifications/read', carol, { notifyId: expiredIds[0] })).status).toBe(404);
    // clearing all removes every one of them, expired included
    expect((await post('/deleteNotification', carol, { notifyId: 'all' })).json).toEqual({ deleted: items.length });
    expect(await notificationsOf(carol)).toEqual({ notifications: [], unreadCount: 0 });
  });
});
