/**
 * Short-lived secrets in the table (docs/data-model.md, patterns 17-22): guest sender codes,
 * sender tokens, extension tokens and fixed-window rate counters. All carry a ttl; reads treat
 * a past ttl as absent because DynamoDB deletes expired items only eventually.
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalUpdate, conditionalWrite, table } from './base';
import { isLive, keys, ttlIn, type CodePurpose, type TokenPurpose } from './keys';

export interface EmailCode {
  readonly purpose: CodePurpose;
  readonly email: string;
  readonly codeHash: string;
  readonly salt: string;
  readonly expiresAt: number;
}

/** Pattern 17: a new code replaces any earlier one for the address and purpose. */
export async function putEmailCode(code: EmailCode, now = Date.now()): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: {
      ...keys.emailCode(code.purpose, code.email),
      entity: 'EmailCode',
      ...code,
      ttl: ttlIn((code.expiresAt - now) / 1000, now),
    },
  });
}

export async function getEmailCode(
  purpose: CodePurpose,
  email: string,
  now = Date.now(),
): Promise<EmailCode | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.emailCode(purpose, email), ConsistentRead: true });
  if (!out.Item || !isLive(out.Item, now)) return undefined;
  const i = out.Item;
  return { purpose, email, codeHash: String(i.codeHash), salt: String(i.salt), expiresAt: Number(i.expiresAt) };
}

export async function deleteEmailCode(purpose: CodePurpose, email: string): Promise<void> {
  await ddb().delete({ TableName: table(), Key: keys.emailCode(purpose, email) });
}

/** Pattern 19: a proof token (proven address, or a reset link), stored as its hash. */
export async function putProofToken(
  purpose: TokenPurpose,
  tokenHash: string,
  v: { email: string; userId?: string },
  expiresAt: number,
  now = Date.now(),
): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: {
      ...keys.proofToken(purpose, tokenHash),
      entity: 'ProofToken',
      purpose,
      ...v,
      expiresAt,
      ttl: ttlIn((expiresAt - now) / 1000, now),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

export async function getProofToken(
  purpose: TokenPurpose,
  tokenHash: string,
  now = Date.now(),
): Promise<{ email: string; userId?: string } | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.proofToken(purpose, tokenHash), ConsistentRead: true });
  if (!out.Item || !isLive(out.Item, now) || Number(out.Item.expiresAt) <= now) return undefined;
  return { email: String(out.Item.email), ...(typeof out.Item.userId === 'string' ? { userId: out.Item.userId } : {}) };
}

/** Single use: deletes the token and answers whether it was still there (only one caller wins). */
export async function consumeProofToken(purpose: TokenPurpose, tokenHash: string): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().delete({
      TableName: table(),
      Key: keys.proofToken(purpose, tokenHash),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

export interface ExtensionToken {
  readonly slug: string;
  readonly requesterEmail: string;
  readonly lang: string;
  readonly createdAt: number;
  /** set when approved: the expiry it granted (a second approval answers the same) */
  readonly grantedExpiryDate?: number;
}

/** Pattern 20 */
export async function putExtensionToken(
  tokenHash: string,
  t: ExtensionToken,
  validUntil: number,
  now = Date.now(),
): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: {
      ...keys.extensionToken(tokenHash),
      entity: 'ExtensionRequest',
      ...t,
      ttl: ttlIn((validUntil - now) / 1000, now),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

export async function getExtensionToken(tokenHash: string, now = Date.now()): Promise<ExtensionToken | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.extensionToken(tokenHash), ConsistentRead: true });
  if (!out.Item || !isLive(out.Item, now)) return undefined;
  const i = out.Item;
  return {
    slug: String(i.slug),
    requesterEmail: String(i.requesterEmail),
    lang: String(i.lang),
    createdAt: Number(i.createdAt),
    ...(typeof i.grantedExpiryDate === 'number' ? { grantedExpiryDate: i.grantedExpiryDate } : {}),
  };
}

/** Pattern 21: marks the token used, once; false if it already was. */
export async function grantExtensionToken(tokenHash: string, expiryDate: number): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.extensionToken(tokenHash),
      UpdateExpression: 'SET grantedExpiryDate = :x',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(grantedExpiryDate)',
      ExpressionAttributeValues: { ':x': expiryDate },
    }),
  );
}

/**
 * Pattern 22: fixed-window counter. Adds one hit and answers whether it stayed within `limit`;
 * the conditional update keeps concurrent requests from passing together.
 */
export async function hitRateWindow(
  scope: string,
  subject: string,
  limit: number,
  windowSeconds: number,
  now = Date.now(),
  /** what this hit counts (1 a request; bytes or recipients for volume caps) */
  amount = 1,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
  if (amount > limit) return { allowed: false, retryAfterSeconds };
  const allowed = await conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.rateWindow(scope, subject, windowStart),
      UpdateExpression: 'SET entity = :e, #t = if_not_exists(#t, :ttl) ADD hits :n',
      // "hits + amount <= limit", written without arithmetic, which conditions lack
      ConditionExpression: 'attribute_not_exists(hits) OR hits <= :max',
      ExpressionAttributeNames: { '#t': 'ttl' },
      ExpressionAttributeValues: {
        ':e': 'RateWindow',
        ':n': amount,
        ':max': limit - amount,
        ':ttl': Math.floor((windowStart + 2 * windowMs) / 1000),
      },
    }),
  );
  return { allowed, retryAfterSeconds };
}

/** Hits so far in the current window, without adding one. */
export async function rateWindowHits(
  scope: string,
  subject: string,
  windowSeconds: number,
  now = Date.now(),
): Promise<number> {
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const out = await ddb().get({
    TableName: table(),
    Key: keys.rateWindow(scope, subject, windowStart),
    ConsistentRead: true,
  });
  return typeof out.Item?.hits === 'number' ? out.Item.hits : 0;
}

/** Pattern 33: a client's failed attempts on one subject, and when the last one was. */
export async function getClientFailures(
  scope: string,
  subject: string,
  client: string,
  now = Date.now(),
): Promise<{ failures: number; lastFailureAt: number }> {
  const out = await ddb().get({
    TableName: table(),
    Key: keys.clientFailures(scope, subject, client),
    ConsistentRead: true,
  });
  if (!isLive(out.Item, now)) return { failures: 0, lastFailureAt: 0 };
  return { failures: Number(out.Item?.failures ?? 0), lastFailureAt: Number(out.Item?.lastFailureAt ?? 0) };
}

/** Adds one failure atomically (the count restarts once the previous record has expired) and returns the new count. */
export async function addClientFailure(
  scope: string,
  subject: string,
  client: string,
  keepSeconds: number,
  now = Date.now(),
): Promise<number> {
  const Key = keys.clientFailures(scope, subject, client);
  const ttl = Math.floor(now / 1000) + keepSeconds;
  const out = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key,
      UpdateExpression: 'SET entity = :e, lastFailureAt = :now, #t = :ttl ADD failures :one',
      ConditionExpression: 'attribute_not_exists(pk) OR #t > :nowSeconds',
      ExpressionAttributeNames: { '#t': 'ttl' },
      ExpressionAttributeValues: {
        ':e': 'ClientFailures',
        ':now': now,
        ':ttl': ttl,
        ':one': 1,
        ':nowSeconds': Math.floor(now / 1000),
      },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  if (out) return Number(out.failures ?? 1);
  // An expired record that DynamoDB has not deleted yet: start over.
  await ddb().put({
    TableName: table(),
    Item: { ...Key, entity: 'ClientFailures', failures: 1, lastFailureAt: now, ttl },
  });
  return 1;
}

export async function clearClientFailures(scope: string, subject: string, client: string): Promise<void> {
  await ddb().delete({ TableName: table(), Key: keys.clientFailures(scope, subject, client) });
}
