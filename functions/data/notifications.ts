/**
 * In-app notifications of a signed-in sender (spec §3 Notification: _id, slug, read, dlDate,
 * dlCountryCode, receiverEmail, fileName, dlOrigin), under `pk=USER#<id>`, `sk=NOTIFY#<at>#<id>`
 * (docs/data-model.md patterns 23, 46-50). Written by the download's transaction
 * (data/download-events.ts); while unread the item is also in gsi1 under `UNREAD#<id>`, so the
 * badge's count is a bounded Query of that sparse partition.
 *
 * Finding an item by its `_id` needs its sort key, which embeds the time: the id is a UUIDv7
 * (RFC 9562) made from the download's time, so the time is read back from the id itself and no
 * pointer item is needed. A foreign or forged id simply names no item under the caller's pk.
 */
import { v7 as uuidV7, validate as isUuid, version as uuidVersion } from 'uuid';
import type { NotificationView, ReviewNotice } from '../domain/dashboard-api';
import type { RequestUploadNotice } from '../domain/requests-api';
import { ddb, type QueryCommandInput } from '../lib/clients/dynamodb';
import { mapLimited } from '../lib/concurrency';
import { conditionalWrite, table } from './base';
import { isLive, keys, ttlIn } from './keys';

/** Notifications are kept 180 days (table ttl). */
export const NOTIFICATION_TTL_SECONDS = 180 * 24 * 3600;

/** Spec §3 Notification, as stored and as POST /notifications lists it. */
export type NotificationRecord = NotificationView;

/** A new id for something that happened at `at` (epoch ms): a UUIDv7, which carries `at`. */
export function eventIdAt(at: number): string {
  return uuidV7({ msecs: at });
}

/** The time a UUIDv7 id was made for; undefined for anything else. */
export function eventTimeOf(id: string): number | undefined {
  if (!isUuid(id) || uuidVersion(id) !== 7) return undefined;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/** The notification item for the download transaction: unread, so in gsi1, kept 180 days. */
export function notificationItem(userId: string, n: NotificationRecord): Record<string, unknown> {
  return {
    ...keys.notification(userId, n.dlDate, n._id),
    ...(n.read ? {} : keys.unreadNotification(userId, n.dlDate, n._id)),
    entity: 'Notification',
    ttl: ttlIn(NOTIFICATION_TTL_SECONDS, n.dlDate),
    ...n,
  };
}

function fromItem(i: Record<string, unknown>): NotificationRecord {
  return {
    _id: String(i._id),
    slug: String(i.slug),
    read: i.read === true,
    dlDate: Number(i.dlDate),
    dlCountryCode: String(i.dlCountryCode),
    ...(typeof i.receiverEmail === 'string' ? { receiverEmail: i.receiverEmail } : {}),
    fileName: String(i.fileName),
    dlOrigin: i.dlOrigin === 'zip' ? 'zip' : 'file',
    ...(i.kind === 'scan-failed' && i.scan && typeof i.scan === 'object'
      ? { kind: 'scan-failed' as const, scan: { finding: String((i.scan as Record<string, unknown>).finding ?? '') } }
      : {}),
    ...(i.kind === 'request-upload' && i.request && typeof i.request === 'object'
      ? { kind: 'request-upload' as const, request: requestNoticeOf(i.request as Record<string, unknown>) }
      : {}),
    ...(i.kind === 'review' && i.review && typeof i.review === 'object'
      ? { kind: 'review' as const, review: reviewNoticeOf(i.review as Record<string, unknown>) }
      : {}),
    ...(i.kind === 'download-limit' && i.downloadLimit && typeof i.downloadLimit === 'object'
      ? { kind: 'download-limit' as const, downloadLimit: limitNoticeOf(i.downloadLimit as Record<string, unknown>) }
      : {}),
  };
}

function reviewNoticeOf(r: Record<string, unknown>): ReviewNotice {
  return {
    comments: Number(r.comments ?? 0),
    approvals: Number(r.approvals ?? 0),
    changesRequested: Number(r.changesRequested ?? 0),
  };
}

function limitNoticeOf(l: Record<string, unknown>): NonNullable<NotificationRecord['downloadLimit']> {
  return { limit: Number(l.limit ?? 0), ...(typeof l.recipient === 'string' ? { recipient: l.recipient } : {}) };
}

function requestNoticeOf(r: Record<string, unknown>): RequestUploadNotice {
  return {
    requestId: String(r.requestId ?? ''),
    requestTitle: String(r.requestTitle ?? ''),
    senderName: String(r.senderName ?? ''),
    senderEmail: String(r.senderEmail ?? ''),
    fileCount: Number(r.fileCount ?? 0),
    totalBytes: Number(r.totalBytes ?? 0),
  };
}

/**
 * Pattern 23b: someone finished an upload to one of the user's file requests. An
 * unread notification of kind 'request-upload' (same list, badge and retention as downloads).
 */
export async function putRequestUploadNotification(
  userId: string,
  at: number,
  slug: string,
  firstFileName: string,
  notice: RequestUploadNotice,
): Promise<string> {
  return putEventNotification(userId, at, slug, firstFileName, { kind: 'request-upload', request: notice });
}

/** Pattern 23c: a file of the user's transfer was found infected and removed. */
export async function putScanFailedNotification(
  userId: string,
  at: number,
  slug: string,
  fileName: string,
  finding: string,
): Promise<string> {
  return putEventNotification(userId, at, slug, fileName, { kind: 'scan-failed', scan: { finding } });
}

/** A download limit of the user's transfer was used up (once per limit, services/deliveries.ts). */
export async function putLimitReachedNotification(
  userId: string,
  at: number,
  slug: string,
  fileName: string,
  downloadLimit: NonNullable<NotificationRecord['downloadLimit']>,
): Promise<string> {
  return putEventNotification(userId, at, slug, fileName, { kind: 'download-limit', downloadLimit });
}

/** Pattern RV10: the first activity of a review burst on the user's transfer (services/reviews.ts). */
export async function putReviewNotification(
  userId: string,
  at: number,
  slug: string,
  title: string,
  review: ReviewNotice,
): Promise<string> {
  return putEventNotification(userId, at, slug, title, { kind: 'review', review });
}

/**
 * Pattern RV10b: the burst's notification counts what the burst holds now, and is unread again
 * (the sender may have read it before the burst went on). False when it is gone (deleted, expired).
 */
export async function updateReviewNotification(
  userId: string,
  id: string,
  review: ReviewNotice,
  now = Date.now(),
): Promise<boolean> {
  const at = eventTimeOf(id);
  if (at === undefined) return false;
  const unread = keys.unreadNotification(userId, at, id);
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.notification(userId, at, id),
      UpdateExpression: 'SET review = :r, #read = :f, gsi1pk = :gpk, gsi1sk = :gsk',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#ttl) OR #ttl > :now)',
      ExpressionAttributeNames: { '#read': 'read', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':r': review,
        ':f': false,
        ':gpk': unread.gsi1pk,
        ':gsk': unread.gsi1sk,
        ':now': Math.floor(now / 1000),
      },
    }),
  );
}

/** An unread notification of something other than a download: no country, origin 'file', its own kind. */
async function putEventNotification(
  userId: string,
  at: number,
  slug: string,
  fileName: string,
  event: Pick<NotificationRecord, 'kind' | 'request' | 'scan' | 'downloadLimit' | 'review'>,
): Promise<string> {
  const id = eventIdAt(at);
  const n: NotificationRecord = {
    _id: id,
    slug,
    read: false,
    dlDate: at,
    dlCountryCode: 'XX',
    fileName,
    dlOrigin: 'file',
    ...event,
  };
  await ddb().put({ TableName: table(), Item: notificationItem(userId, n) });
  return id;
}

/** Pattern 46: the newest `limit` notifications, newest first (expired ones, always the oldest, left out). */
export async function listNotifications(
  userId: string,
  limit: number,
  now = Date.now(),
): Promise<NotificationRecord[]> {
  const out = await ddb().query({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.notification(userId, 0, '').pk, ':p': keys.notificationPrefix },
    ScanIndexForward: false,
    Limit: limit,
  });
  return (out.Items ?? []).filter((i) => isLive(i, now)).map(fromItem);
}

/**
 * Pattern 47: unread notifications, counted up to `cap` (one bounded Query of the sparse gsi1
 * partition, keys only). The ttl follows the time in the key, so live ones are those newer
 * than the retention: the range condition leaves out expired items DynamoDB has not removed yet.
 */
export async function countUnread(userId: string, cap: number, now = Date.now()): Promise<number> {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :since',
    ExpressionAttributeValues: {
      ':pk': keys.unreadNotification(userId, 0, '').gsi1pk,
      ':since': keys.unreadNotification(userId, now - NOTIFICATION_TTL_SECONDS * 1000, '').gsi1sk,
    },
    Select: 'COUNT',
    Limit: cap,
  });
  return Math.min(out.Count ?? 0, cap);
}

/** The item key of the caller's notification `id`; undefined when the id cannot be one. */
function keyOf(userId: string, id: string) {
  const at = eventTimeOf(id);
  return at === undefined ? undefined : keys.notification(userId, at, id);
}

/** Pattern 48: mark one read (it leaves the unread index). False when the caller has no such notification. */
export async function markRead(userId: string, id: string, now = Date.now()): Promise<boolean> {
  const key = keyOf(userId, id);
  if (!key) return false;
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: key,
      UpdateExpression: 'SET #r = :true REMOVE gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#ttl) OR #ttl > :now)',
      ExpressionAttributeNames: { '#r': 'read', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':true': true, ':now': Math.floor(now / 1000) },
    }),
  );
}

/** Pattern 49: delete one. False when the caller has no such notification. */
export async function deleteNotification(userId: string, id: string): Promise<boolean> {
  const key = keyOf(userId, id);
  if (!key) return false;
  return conditionalWrite(() =>
    ddb().delete({ TableName: table(), Key: key, ConditionExpression: 'attribute_exists(pk)' }),
  );
}

type Key = Record<string, unknown>;

/** BatchWriteItem deletes of 25, a few batches in flight, unprocessed keys retried with backoff. */
async function batchDelete(all: readonly Key[]): Promise<void> {
  const batches: Key[][] = [];
  for (let i = 0; i < all.length; i += 25) batches.push(all.slice(i, i + 25));
  await mapLimited(batches, 4, async (batch) => {
    let requests = batch.map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt > 8) throw new Error('BatchWrite left unprocessed items');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out = await ddb().batchWrite({ RequestItems: { [table()]: requests } });
      requests = (out.UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  });
}

/**
 * Pattern 50: delete all of the caller's notifications, or only the read ones: the keys are read
 * a page at a time (keys only; `read = true` filtered for 'read') and deleted in batches.
 * Returns how many were deleted.
 */
export async function deleteNotifications(userId: string, which: 'all' | 'read'): Promise<number> {
  let deleted = 0;
  let ExclusiveStartKey: Key | undefined;
  do {
    const input: QueryCommandInput = {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: {
        ':pk': keys.notification(userId, 0, '').pk,
        ':p': keys.notificationPrefix,
        ...(which === 'read' ? { ':true': true } : {}),
      },
      ProjectionExpression: 'pk, sk',
      ...(which === 'read' ? { FilterExpression: '#r = :true', ExpressionAttributeNames: { '#r': 'read' } } : {}),
      ExclusiveStartKey,
    };
    const out = await ddb().query(input);
    const found = (out.Items ?? []).map((i) => ({ pk: i.pk, sk: i.sk }));
    await batchDelete(found);
    deleted += found.length;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return deleted;
}
