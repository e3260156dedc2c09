/**
 * A recorded download (docs/data-model.md pattern 13) and everything it changes, written in ONE
 * TransactWriteItems so a download is counted everywhere or nowhere:
 *
 * - the download item under the transfer (`TRANSFER#<slug>` / `DOWNLOAD#<at>#<id>`);
 * - the transfer: `ADD totalDownloads`, and out of the sparse "unseen" index gsi4 (condition:
 *   the transfer item exists);
 * - for a signed-in sender (`senderId`): the in-app notification (unread: in gsi1 `UNREAD#`),
 *   the analytics download-log row (`DLOG#<at>#<id>`), and the sender's counters of the UTC day
 *   (`DAY#<yyyy-mm-dd>`) and of its month (`MSTATS#<yyyy-mm>`): `downloads`, `c#<country>`,
 *   `t#<slug>`, the `recipients` string set (hashed addresses), and on the month `d#<dd>`.
 *
 * The counters use flat attribute names (`ADD` on a missing map would fail) so the first
 * download of a day or month creates its item. Six distinct items, well under the 100 a
 * transaction allows. A year of analytics then reads about 12 month items and the days of the
 * range's partial months at its ends, whatever the number of downloads.
 *
 * One id (a UUIDv7 of the download's time, see data/notifications.ts) names the download item,
 * the notification and the log row.
 */
import { createHash } from 'node:crypto';
import type { DetailDownload } from '../domain/dashboard-api';
import { DETAIL_MAX_DOWNLOADS } from '../domain/dashboard-api';
import { ddb } from '../lib/clients/dynamodb';
import { failedConditions, table, type TransactItem } from './base';
import { keys } from './keys';
import { notificationItem } from './notifications';

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
/** a month item's downloads of one day (`d#<dd>`) */
export const dayAttr = (day: string) => `d#${day.slice(8, 10)}`;

/** The transaction's items for one download (exported for the analytics benchmark's seeding and tests). */
export function downloadTransaction(
  t: { slug: string; senderId?: string | undefined },
  d: DownloadEvent,
  /** false: the day's / month's recipient set is full, count the download without adding to it */
  opts: { recipientInDay?: boolean; recipientInMonth?: boolean } = {},
): TransactItem[] {
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
    // A full recipient set (RECIPIENT_SET_CAP) fails its condition; recordDownload then counts the download without it.
    { Update: dayStatsUpdate(userId, opts.recipientInDay === false ? { ...d, recipientEmail: undefined } : d, t.slug) },
    {
      Update: monthStatsUpdate(
        userId,
        opts.recipientInMonth === false ? { ...d, recipientEmail: undefined } : d,
        t.slug,
      ),
    },
  );
  return items;
}

/**
 * Recipients are counted in the aggregates by a short hash of the address (10 base64url
 * characters, 60 bits), not the address: the sets stay small (a month of 10,000 recipients is
 * ~110 KB of the 400 KB an item may hold) and the aggregates hold no addresses.
 */
export function recipientToken(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 10);
}

/**
 * Distinct recipients a day or month item counts at most (~220 KB of hashes), so the item keeps
 * room under DynamoDB's 400 KB for its other counters; past it the set stops growing.
 */
export const RECIPIENT_SET_CAP = 20_000;
const RECIPIENTS_NOT_FULL = 'attribute_not_exists(recipients) OR size(recipients) < :cap';

/** The counters a download adds to the sender's day item and month item. */
function statsUpdate(
  key: { pk: string; sk: string },
  d: DownloadEvent,
  slug: string,
  extra: { name: string; value: string; entity: string; perDay?: string },
): NonNullable<TransactItem['Update']> {
  const adds = [
    'downloads :one',
    '#c :one',
    '#t :one',
    ...(extra.perDay ? ['#d :one'] : []),
    ...(d.recipientEmail ? ['recipients :r'] : []),
  ];
  return {
    TableName: table(),
    Key: key,
    UpdateExpression: `SET entity = :e, #k = :k ADD ${adds.join(', ')}`,
    ...(d.recipientEmail ? { ConditionExpression: RECIPIENTS_NOT_FULL } : {}),
    ExpressionAttributeNames: {
      '#c': countryAttr(d.countryCode),
      '#t': transferAttr(slug),
      '#k': extra.name,
      ...(extra.perDay ? { '#d': extra.perDay } : {}),
    },
    ExpressionAttributeValues: {
      ':one': 1,
      ':e': extra.entity,
      ':k': extra.value,
      ...(d.recipientEmail ? { ':r': new Set([recipientToken(d.recipientEmail)]), ':cap': RECIPIENT_SET_CAP } : {}),
    },
  };
}

function dayStatsUpdate(userId: string, d: DownloadEvent, slug: string): NonNullable<TransactItem['Update']> {
  const day = utcDayOf(d.at);
  return statsUpdate(keys.dayStats(userId, day), d, slug, { name: 'day', value: day, entity: 'DayStats' });
}

function monthStatsUpdate(userId: string, d: DownloadEvent, slug: string): NonNullable<TransactItem['Update']> {
  const day = utcDayOf(d.at);
  return statsUpdate(keys.monthStats(userId, day.slice(0, 7)), d, slug, {
    name: 'month',
    value: day.slice(0, 7),
    entity: 'MonthStats',
    perDay: dayAttr(day),
  });
}

/**
 * Pattern 13: record one download in one transaction (see above). Throws when the transfer item
 * is gone. When a day's or month's recipient set is full (RECIPIENT_SET_CAP), the download is
 * recorded again without adding the recipient to that set: every count stays right, only
 * "unique recipients" stops growing for that period.
 */
export async function recordDownload(
  t: { slug: string; senderId?: string | undefined },
  d: DownloadEvent,
): Promise<void> {
  const items = downloadTransaction(t, d);
  try {
    await ddb().transactWrite({ TransactItems: items });
  } catch (err) {
    const failed = failedConditions(err);
    const statsFull =
      failed.length > 0 && failed.every((i) => items[i]?.Update?.ConditionExpression === RECIPIENTS_NOT_FULL);
    if (!d.recipientEmail || !t.senderId || !statsFull) throw err;
    // The day item comes second to last, the month item last (downloadTransaction).
    const full = new Set(failed);
    await ddb().transactWrite({
      TransactItems: downloadTransaction(t, d, {
        recipientInDay: !full.has(items.length - 2),
        recipientInMonth: !full.has(items.length - 1),
      }),
    });
  }
}

/** Pattern 14: a transfer's downloads, newest first, at most `limit` (spec §3: downloads with country_name, dlDate). */
export async function listDownloads(slug: string, limit = DETAIL_MAX_DOWNLOADS): Promise<DetailDownload[]> {
  const out = await ddb().query({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.downloadPrefix },
    ScanIndexForward: false,
    Limit: limit,
  });
  return (out.Items ?? []).map((i) => ({
    dlDate: Number(i.dlDate),
    country_name: String(i.country_name),
    countryCode: typeof i.countryCode === 'string' ? i.countryCode : 'XX',
    fileName: String(i.fileName),
    dlOrigin: i.dlOrigin === 'zip' ? 'zip' : 'file',
    ...(typeof i.receiverEmail === 'string' ? { receiverEmail: i.receiverEmail } : {}),
  }));
}
