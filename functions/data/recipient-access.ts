/**
 * Verified recipients in the single table (docs/data-model.md, patterns RA1-RA5): the setting on
 * the transfer item, one item per address on its access list under the transfer's partition
 * (deleted with it), and recipients' verified sessions (stored as their hash, with a ttl).
 */
import { ddb } from '../lib/clients/dynamodb';
import type { AccessEntry, RecipientAccessConfig } from '../domain/recipient-access';
import { conditionalWrite, queryAll, table } from './base';
import { isLive, keys, ttlIn } from './keys';
import { mapLimited } from '../lib/concurrency';

function entryOf(i: Record<string, unknown>): AccessEntry {
  const num = (k: string) => (typeof i[k] === 'number' ? { [k]: i[k] as number } : {});
  return {
    email: String(i.email),
    recipientId: String(i.recipientId),
    addedAt: Number(i.addedAt),
    ...num('expiresAt'),
    ...num('revokedAt'),
    ...num('removedAt'),
    ...num('openedAt'),
  };
}

/** Pattern RA1: sets (or, with undefined, clears) the transfer's verified-recipients setting. */
export async function setAccessConfig(slug: string, config: RecipientAccessConfig | undefined): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(slug),
      ...(config
        ? { UpdateExpression: 'SET recipientAccess = :c', ExpressionAttributeValues: { ':c': config } }
        : { UpdateExpression: 'REMOVE recipientAccess' }),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

/** Pattern RA2: one address's entry (removed ones included), or undefined. */
export async function getAccessEntry(slug: string, email: string): Promise<AccessEntry | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.transferAccess(slug, email), ConsistentRead: true });
  return out.Item ? entryOf(out.Item) : undefined;
}

/** Pattern RA2: every entry of the transfer, removed ones included, by address. */
export async function listAccessEntries(slug: string): Promise<AccessEntry[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.accessPrefix },
    ConsistentRead: true,
  });
  return items.map(entryOf);
}

/**
 * Pattern RA3: puts an address on the list: a new entry, or a removed one back (its record of opening kept,
 * revocation and expiry replaced). An address already listed is left as it is: false.
 */
export async function putAccessEntry(slug: string, e: AccessEntry): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: { ...keys.transferAccess(slug, e.email), entity: 'RecipientAccess', slug, ...e },
      ConditionExpression: 'attribute_not_exists(pk) OR attribute_exists(removedAt)',
    }),
  );
}

/** Pattern RA3 for a new transfer's first list (no entry exists yet). */
export async function seedAccessEntries(slug: string, entries: readonly AccessEntry[]): Promise<void> {
  await mapLimited(entries, 8, (e) => putAccessEntry(slug, e));
}

type EntryChange =
  | { readonly kind: 'remove'; readonly at: number }
  | { readonly kind: 'revoke'; readonly at: number }
  | { readonly kind: 'restore' }
  | { readonly kind: 'expiry'; readonly expiresAt: number | undefined }
  | { readonly kind: 'opened'; readonly at: number };

/** Pattern RA4: one change to a listed (not removed) address; false when there is no such address. */
export async function changeAccessEntry(slug: string, email: string, change: EntryChange): Promise<boolean> {
  const update = ((): { UpdateExpression: string; ExpressionAttributeValues?: Record<string, unknown> } => {
    switch (change.kind) {
      case 'remove':
        return { UpdateExpression: 'SET removedAt = :t', ExpressionAttributeValues: { ':t': change.at } };
      case 'revoke':
        return { UpdateExpression: 'SET revokedAt = :t', ExpressionAttributeValues: { ':t': change.at } };
      case 'restore':
        return { UpdateExpression: 'REMOVE revokedAt' };
      case 'expiry':
        return change.expiresAt === undefined
          ? { UpdateExpression: 'REMOVE expiresAt' }
          : { UpdateExpression: 'SET expiresAt = :t', ExpressionAttributeValues: { ':t': change.expiresAt } };
      case 'opened':
        return {
          UpdateExpression: 'SET openedAt = if_not_exists(openedAt, :t)',
          ExpressionAttributeValues: { ':t': change.at },
        };
    }
  })();
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferAccess(slug, email),
      ...update,
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(removedAt)',
    }),
  );
}

export interface RecipientSession {
  readonly slug: string;
  readonly email: string;
  readonly expiresAt: number;
}

/** Pattern RA5: a verified session, by the hash of its token. */
export async function putRecipientSession(tokenHash: string, s: RecipientSession, now = Date.now()): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: {
      ...keys.recipientSession(tokenHash),
      entity: 'RecipientSession',
      ...s,
      ttl: ttlIn((s.expiresAt - now) / 1000, now),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

export async function getRecipientSession(tokenHash: string, now = Date.now()): Promise<RecipientSession | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.recipientSession(tokenHash), ConsistentRead: true });
  if (!out.Item || !isLive(out.Item, now) || Number(out.Item.expiresAt) <= now) return undefined;
  return { slug: String(out.Item.slug), email: String(out.Item.email), expiresAt: Number(out.Item.expiresAt) };
}
