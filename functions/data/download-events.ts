/**
 * A recorded download (docs/data-model.md pattern 13) and everything it changes, written in ONE
 * TransactWriteItems so a download is counted everywhere or nowhere:
 *
 * - the download item under the transfer (`TRANSFER#<slug>` / `DOWNLOAD#<at>#<id>`);
 * - the transfer: `ADD totalDownloads`, and out of the sparse "unseen" index gsi4 (condition:
 *   the transfer item exists);
 * - for a signed-in sender (`senderId`): the in-app notification (unread: in gsi1 `UNREAD#`),
 *   the analytics download-log row (`DLOG#<at>#<id>`) and the sender's day counters
 *   (`DAY#<yyyy-mm-dd>`: `downloads`, `c#<country>`, `t#<slug>` and the `recipients` string set).
 *
 * The day counters use flat attribute names (`ADD` on a missing map would fail) so the first
 * download of a day creates the item. Five distinct items, well under the 100 a transaction
 * allows. One id (a UUIDv7 of the download's time, see data/notifications.ts) names the
 * download item, the notification and the log row.
 */
import { QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DetailDownload } from '../domain/dashboard-api';
import { DETAIL_MAX_DOWNLOADS } from '../domain/dashboard-api';
import { dynamo } from '../lib/clients';
import { config } from '../lib/env';
import { keys } from './keys';
import { notificationItem } from './notifications';

const table = () => config().tableName;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface DownloadEvent {
  /** epoch ms */
  readonly at: number;
  /** a UUIDv7 of `at` (eventIdAt) */
  readonly id: string;
  readonly countryCode: string;
  readonly countryName: string;
  /** the file's base name, or the ZIP's */
  readonly fileName: string;
  /** the recipient whose own link was used */
  readonly recipientEmail?: string;
  readonly origin: 'file' | 'zip';
}

/** The UTC day (yyyy-mm-dd) of an epoch-ms time: the day-stats item it is counted in. */
export function utcDayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Attribute names of a day-stats item's counters. */
export const countryAttr = (code: string) => `c#${code}`;
export const transferAttr = (slug: string) => `t#${slug}`;

/** The transaction's items for one download (exported for the analytics benchmark's seeding and tests). */
export function downloadTransaction(t: { slug: string; senderId?: string | undefined }, d: DownloadEvent): TransactItem[] {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table(),
        Item: {
          ...keys.transferDownload(t.slug, d.at, d.id),
          entity: 'Download',
          slug: t.slug,
          dlDate: d.at,
          country_name: d.countryName,
          countryCode: d.countryCode,
          fileName: d.fileName,
          receiverEmail: d.recipientEmail,
          dlOrigin: d.origin,
        },
      },
    },
    {
      Update: {
        TableName: table(),
        Key: keys.transfer(t.slug),
        UpdateExpression: 'ADD totalDownloads :one REMOVE gsi4pk, gsi4sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ];
  if (!t.senderId) return items;
  const userId = t.senderId;
  items.push(
    {
      Put: {
        TableName: table(),
        Item: notificationItem(userId, {
          _id: d.id,
          slug: t.slug,
          read: false,
          dlDate: d.at,
          dlCountryCode: d.countryCode,
          ...(d.recipientEmail ? { receiverEmail: d.recipientEmail } : {}),
          fileName: d.fileName,
          dlOrigin: d.origin,
        }),
      },
    },
    {
      Put: {
        TableName: table(),
        Item: {
          ...keys.downloadLog(userId, d.at, d.id),
          entity: 'DownloadLog',
          dlDate: d.at,
          slug: t.slug,
          fileName: d.fileName,
          dlOrigin: d.origin,
          countryCode: d.countryCode,
          country_name: d.countryName,
          receiverEmail: d.recipientEmail,
        },
      },
    },
    { Update: dayStatsUpdate(userId, d, t.slug) },
  );
  return items;
}

function dayStatsUpdate(userId: string, d: DownloadEvent, slug: string): NonNullable<TransactItem['Update']> {
  const day = utcDayOf(d.at);
  const adds = ['downloads :one', '#c :one', '#t :one', ...(d.recipientEmail ? ['recipients :r'] : [])];
  return {
    TableName: table(),
    Key: keys.dayStats(userId, day),
    UpdateExpression: `SET entity = :e, #day = :day ADD ${adds.join(', ')}`,
    ExpressionAttributeNames: { '#c': countryAttr(d.countryCode), '#t': transferAttr(slug), '#day': 'day' },
    ExpressionAttributeValues: {
      ':one': 1,
      ':e': 'DayStats',
      ':day': day,
      ...(d.recipientEmail ? { ':r': new Set([d.recipientEmail]) } : {}),
    },
  };
}

/** Pattern 13: record one download in one transaction (see above). Throws when the transfer item is gone. */
export async function recordDownload(t: { slug: string; senderId?: string | undefined }, d: DownloadEvent): Promise<void> {
  await dynamo().send(new TransactWriteCommand({ TransactItems: downloadTransaction(t, d) }));
}

/** Pattern 14: a transfer's downloads, newest first, at most `limit` (spec §3: downloads with country_name, dlDate). */
export async function listDownloads(slug: string, limit = DETAIL_MAX_DOWNLOADS): Promise<DetailDownload[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.downloadPrefix },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({
    dlDate: Number(i.dlDate),
    country_name: String(i.country_name),
    countryCode: typeof i.countryCode === 'string' ? i.countryCode : 'XX',
    fileName: String(i.fileName),
    dlOrigin: i.dlOrigin === 'zip' ? 'zip' : 'file',
    ...(typeof i.receiverEmail === 'string' ? { receiverEmail: i.receiverEmail } : {}),
  }));
}
