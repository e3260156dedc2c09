/**
 * Download grants and limits (docs/decisions/0077).
 *
 * - A grant (`GRANT#<deliveryId>` / `GRANT`) is one issued download URL: who, what, the object and
 *   its size, and the bytes the storage reported served under it. The deliveries job finds it by
 *   the id the URL carries; it lives a week past its URL (ttl), its delivery lives with the transfer.
 * - A limit (`TRANSFER#<slug>` / `DLLIMIT#all` or `DLLIMIT#r#<recipientId>`) counts completions and
 *   holds one reservation per URL issued and not yet completed, until the URL lapses. A URL is
 *   issued only while completions plus live reservations stay under the limit: the check and the
 *   reservation are one write, conditional on the version read (optimistic concurrency, retried).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeliveryRecipient } from '../domain/delivery';
import { liveHolds, mayReserve, type LimitState } from '../domain/delivery-events';
import { ddb } from '../lib/clients/dynamodb';
import { failedConditions, isTransactionCancelled, table, type TransactItem } from './base';
import { keys, ttlIn } from './keys';

const GRANT = 'DownloadGrant';
const LIMIT = 'DownloadLimit';
/** grants stay readable this long after their URL lapsed (late storage events still find them) */
const GRANT_KEPT_SECONDS = 7 * 24 * 3600;

export interface GrantRecord {
  readonly deliveryId: string;
  readonly slug: string;
  readonly what: 'file' | 'zip';
  readonly recipient: DeliveryRecipient;
  /** the personal link's recipient id, when the URL was issued through one */
  readonly recipientId?: string;
  /** the files the object holds (one, or every file of the ZIP) */
  readonly fileIds: readonly string[];
  readonly bucket: string;
  readonly key: string;
  readonly size: number;
  readonly startedAt: number;
  readonly urlExpiresAt: number;
  readonly countryCode: string;
  /** the limit scopes this download counts against (`all`, `r#<recipientId>`) */
  readonly scopes: readonly string[];
  /** body bytes the storage reported served under this grant, all requests together */
  readonly servedBytes: number;
  /** set once the bytes served covered the object */
  readonly completedAt?: number;
}

export interface LimitRecord extends LimitState {
  readonly slug: string;
  readonly scope: string;
  /** when the sender was told this limit is used up (once; cleared when the limit changes) */
  readonly notifiedAt?: number;
  readonly version: number;
}

export const TRANSFER_SCOPE = 'all';
export const recipientScope = (recipientId: string) => `r#${recipientId}`;

function toGrant(item: Record<string, unknown>): GrantRecord {
  const { pk: _pk, sk: _sk, entity: _e, ttl: _t, eventIds: _ids, ...rest } = item;
  return rest as unknown as GrantRecord;
}

function toLimit(item: Record<string, unknown>): LimitRecord {
  const { pk: _pk, sk: _sk, entity: _e, ...rest } = item;
  return { held: {}, ...rest } as unknown as LimitRecord;
}

export async function getGrant(deliveryId: string): Promise<GrantRecord | null> {
  const out = await ddb().get({ TableName: table(), Key: keys.downloadGrant(deliveryId), ConsistentRead: true });
  return out.Item ? toGrant(out.Item) : null;
}

export async function getLimit(slug: string, scope: string): Promise<LimitRecord | null> {
  const out = await ddb().get({ TableName: table(), Key: keys.downloadLimit(slug, scope), ConsistentRead: true });
  return out.Item ? toLimit(out.Item) : null;
}

/** The limits of these scopes that exist (a scope without a limit item is unlimited). */
export async function getLimits(slug: string, scopes: readonly string[]): Promise<LimitRecord[]> {
  const found = await Promise.all(scopes.map((s) => getLimit(slug, s)));
  return found.filter((l): l is LimitRecord => l !== null);
}

/** Every limit of a transfer (the sender's modal). */
export async function listLimits(slug: string): Promise<LimitRecord[]> {
  const out = await ddb().query({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.downloadLimitPrefix },
    ConsistentRead: true,
  });
  return (out.Items ?? []).map(toLimit);
}

/**
 * Sets a limit: creates it with `completedSoFar` completions, or changes its number (what was
 * completed stays counted). A changed limit may be used up again, so the sender is told again.
 */
export async function setLimit(slug: string, scope: string, limit: number, completedSoFar: number): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.downloadLimit(slug, scope),
    UpdateExpression:
      'SET entity = :e, slug = :s, #scope = :scope, #limit = :l, completed = if_not_exists(completed, :c), ' +
      'held = if_not_exists(held, :h), version = if_not_exists(version, :zero) + :one REMOVE notifiedAt',
    ExpressionAttributeNames: { '#scope': 'scope', '#limit': 'limit' },
    ExpressionAttributeValues: {
      ':e': LIMIT,
      ':s': slug,
      ':scope': scope,
      ':l': limit,
      ':c': completedSoFar,
      ':h': {},
      ':zero': 0,
      ':one': 1,
    },
  });
}

/** Removes a limit: downloads of that scope are unlimited again. */
export async function deleteLimit(slug: string, scope: string): Promise<void> {
  await ddb().delete({ TableName: table(), Key: keys.downloadLimit(slug, scope) });
}

function grantItem(g: GrantRecord): TransactItem {
  return {
    Put: {
      TableName: table(),
      Item: {
        ...keys.downloadGrant(g.deliveryId),
        entity: GRANT,
        ...g,
        ttl: ttlIn((g.urlExpiresAt - Date.now()) / 1000 + GRANT_KEPT_SECONDS),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

function holdItem(l: LimitRecord, deliveryId: string, until: number, now: number): TransactItem {
  const lapsed = liveHolds(l.held, now).lapsed;
  const names: Record<string, string> = { '#d': deliveryId };
  lapsed.forEach((id, i) => {
    names[`#l${i}`] = id;
  });
  const remove = lapsed.length ? ` REMOVE ${lapsed.map((_, i) => `held.#l${i}`).join(', ')}` : '';
  return {
    Update: {
      TableName: table(),
      Key: keys.downloadLimit(l.slug, l.scope),
      UpdateExpression: `SET held.#d = :until, version = :next${remove}`,
      ConditionExpression: 'version = :v',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':until': until, ':v': l.version, ':next': l.version + 1 },
    },
  };
}

export type ReserveResult = { readonly ok: true } | { readonly ok: false; readonly scope: string };

/** Lost races are retried this many times, each after a short random wait. */
const RESERVE_ATTEMPTS = 80;

/**
 * Writes a grant, reserving a slot of each of its scopes' limits (until `holdUntil`) in the same
 * transaction; refused with the first scope whose limit has no slot left. Concurrent callers
 * race on each limit's version: the losers read again and decide again, so no more URLs are
 * issued than the limit has slots.
 */
export async function reserveGrant(g: GrantRecord, holdUntil: number, now = Date.now()): Promise<ReserveResult> {
  for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
    const limits = await getLimits(g.slug, g.scopes);
    const full = limits.find((l) => !mayReserve(l, now));
    if (full) return { ok: false, scope: full.scope };
    try {
      await ddb().transactWrite({
        TransactItems: [grantItem(g), ...limits.map((l) => holdItem(l, g.deliveryId, holdUntil, now))],
      });
      return { ok: true };
    } catch (err) {
      // a limit moved since it was read (another reservation or completion): read it again
      if (!isTransactionCancelled(err) || failedConditions(err).includes(0)) throw err;
      await sleep(5 + Math.floor(Math.random() * 20 * Math.min(attempt + 1, 5)));
    }
  }
  throw new Error(`download limit of ${g.slug}: no reservation after ${RESERVE_ATTEMPTS} attempts`);
}

/**
 * Adds the bytes of one served request to its grant, once per storage event; the grant after,
 * or null when the event was already counted, the grant is complete or unknown.
 */
export async function addServed(deliveryId: string, eventId: string, bytes: number): Promise<GrantRecord | null> {
  try {
    const out = await ddb().update({
      TableName: table(),
      Key: keys.downloadGrant(deliveryId),
      UpdateExpression: 'ADD servedBytes :b, eventIds :ids',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(completedAt) AND NOT contains(eventIds, :e)',
      ExpressionAttributeValues: { ':b': bytes, ':ids': new Set([eventId]), ':e': eventId },
      ReturnValues: 'ALL_NEW',
    });
    return out.Attributes ? toGrant(out.Attributes) : null;
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return null;
    throw err;
  }
}

/**
 * Marks a grant complete and counts it against the limits that exist for its scopes (its
 * reservation released), in one transaction: false when it was already complete.
 */
export async function completeGrant(g: GrantRecord, at: number): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const limits = await getLimits(g.slug, g.scopes);
    const items: TransactItem[] = [
      {
        Update: {
          TableName: table(),
          Key: keys.downloadGrant(g.deliveryId),
          UpdateExpression: 'SET completedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(completedAt)',
          ExpressionAttributeValues: { ':at': at },
        },
      },
      ...limits.map(
        (l): TransactItem => ({
          Update: {
            TableName: table(),
            Key: keys.downloadLimit(l.slug, l.scope),
            UpdateExpression: 'REMOVE held.#d ADD completed :one, version :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#d': g.deliveryId },
            ExpressionAttributeValues: { ':one': 1 },
          },
        }),
      ),
    ];
    try {
      await ddb().transactWrite({ TransactItems: items });
      return true;
    } catch (err) {
      if (failedConditions(err).includes(0)) return false;
      // a limit removed meanwhile, or a conflict with a reservation: read the limits again
      if (!isTransactionCancelled(err) || attempt >= RESERVE_ATTEMPTS) throw err;
      await sleep(5 + Math.floor(Math.random() * 50));
    }
  }
}

/** Records that the sender was told a limit is used up; false when they already were. */
export async function markLimitNotified(slug: string, scope: string, at: number): Promise<boolean> {
  try {
    await ddb().update({
      TableName: table(),
      Key: keys.downloadLimit(slug, scope),
      UpdateExpression: 'SET notifiedAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(notifiedAt)',
      ExpressionAttributeValues: { ':at': at },
    });
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}
