/**
 * Idempotency-Key records (docs/data-model.md pattern IK1): one item per (caller,
 * key). A call claims its key with a conditional put, then stores its answer on the item (or
 * deletes the item when it failed, so the caller may try again). A repeat reads the item.
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalWrite, table } from './base';
import { isLive, keys, ttlIn } from './keys';

export type IdempotencyRecord =
  | { readonly state: 'pending'; readonly requestHash: string; readonly claimedAt: number; readonly claim: string }
  | {
      readonly state: 'done';
      readonly requestHash: string;
      readonly claimedAt: number;
      readonly claim: string;
      readonly status: number;
      readonly body: Uint8Array;
    };

/**
 * Claims `key` for one call: succeeds when the key is new, its record expired, or a claim on it
 * is older than `staleBefore` (the call that made it died). Otherwise answers the record there.
 */
export async function claimIdempotencyKey(
  scope: string,
  key: string,
  v: { requestHash: string; claim: string; ttlSeconds: number; staleBefore: number },
  now = Date.now(),
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord | undefined }> {
  const claimed = await conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: {
        ...keys.idempotencyKey(scope, key),
        entity: 'IdempotencyKey',
        state: 'pending',
        requestHash: v.requestHash,
        claim: v.claim,
        claimedAt: now,
        ttl: ttlIn(v.ttlSeconds, now),
      },
      ConditionExpression:
        'attribute_not_exists(pk) OR #ttl < :nowSeconds OR (#state = :pending AND claimedAt < :staleBefore)',
      ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
      ExpressionAttributeValues: {
        ':nowSeconds': Math.floor(now / 1000),
        ':pending': 'pending',
        ':staleBefore': v.staleBefore,
      },
    }),
  );
  return claimed ? { claimed: true } : { claimed: false, existing: await getIdempotencyRecord(scope, key, now) };
}

export async function getIdempotencyRecord(
  scope: string,
  key: string,
  now = Date.now(),
): Promise<IdempotencyRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.idempotencyKey(scope, key), ConsistentRead: true });
  const i = out.Item;
  if (!i || !isLive(i, now)) return undefined;
  const base = { requestHash: String(i.requestHash), claimedAt: Number(i.claimedAt), claim: String(i.claim) };
  if (i.state === 'done' && i.body instanceof Uint8Array)
    return { state: 'done', ...base, status: Number(i.status), body: i.body };
  return { state: 'pending', ...base };
}

/** Stores the answer of the call holding `claim` (a later claimer's record is left alone). */
export async function completeIdempotencyKey(
  scope: string,
  key: string,
  v: { claim: string; status: number; body: Uint8Array; ttlSeconds: number },
  now = Date.now(),
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.idempotencyKey(scope, key),
      UpdateExpression: 'SET #state = :done, #status = :status, #body = :body, #ttl = :ttl',
      ConditionExpression: 'claim = :claim',
      ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#body': 'body', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':done': 'done',
        ':status': v.status,
        ':body': v.body,
        ':ttl': ttlIn(v.ttlSeconds, now),
        ':claim': v.claim,
      },
    }),
  );
}

/** Gives the key back after a failed call, so the same key may try again. */
export async function releaseIdempotencyKey(scope: string, key: string, claim: string): Promise<void> {
  await conditionalWrite(() =>
    ddb().delete({
      TableName: table(),
      Key: keys.idempotencyKey(scope, key),
      ConditionExpression: 'claim = :claim AND #state = :pending',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':claim': claim, ':pending': 'pending' },
    }),
  );
}
