/**
 * API keys in the single table (docs/data-model.md patterns K1-K6). One item per key
 * under `APIKEY#<id>/KEY` (found by the id inside the key, then the stored SHA-256 of the whole
 * key compared in constant time), listed per user on gsi1 `APIKEYS#<userId>`; a counter item
 * keeps a user under MAX_API_KEYS; revoking deletes the item, so the next request fails.
 */
import { ddb } from '../lib/clients/dynamodb';
import type { ApiKeyEnv, ApiScope } from '../domain/api-keys';
import { API_SCOPES } from '../domain/api-keys';
import { conditionalWrite, queryAll, table, transact } from './base';
import { keys } from './keys';

export interface ApiKeyRecord {
  readonly keyId: string;
  readonly userId: string;
  readonly env: ApiKeyEnv;
  readonly name: string;
  readonly scopes: readonly ApiScope[];
  /** SHA-256 (base64url) of the whole key */
  readonly keyHash: string;
  readonly createdAt: number;
  readonly lastUsedAt?: number;
  /** the team admin, for a key a team member made: it acts only while that membership lasts */
  readonly teamAdminId?: string;
}

function recordOf(i: Record<string, unknown>): ApiKeyRecord {
  return {
    keyId: String(i.keyId),
    userId: String(i.userId),
    env: i.env === 'live' ? 'live' : 'local',
    name: String(i.name),
    scopes: (Array.isArray(i.scopes) ? i.scopes : []).filter((s): s is ApiScope =>
      (API_SCOPES as readonly unknown[]).includes(s),
    ),
    keyHash: String(i.keyHash),
    createdAt: Number(i.createdAt),
    ...(typeof i.lastUsedAt === 'number' ? { lastUsedAt: i.lastUsedAt } : {}),
    ...(typeof i.teamAdminId === 'string' ? { teamAdminId: i.teamAdminId } : {}),
  };
}

/** K1: a new key, counted against `max`; false when the user already has `max` keys. */
export async function createApiKey(k: ApiKeyRecord, max: number): Promise<boolean> {
  return transact([
    {
      Update: {
        TableName: table(),
        Key: keys.apiKeyStats(k.userId),
        UpdateExpression: 'SET entity = :e ADD #n :one',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
        ExpressionAttributeNames: { '#n': 'count' },
        ExpressionAttributeValues: { ':e': 'ApiKeyStats', ':one': 1, ':max': max },
      },
    },
    {
      Put: {
        TableName: table(),
        Item: { ...keys.apiKey(k.keyId), ...keys.userApiKeys(k.userId, k.createdAt, k.keyId), entity: 'ApiKey', ...k },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
}

/** K2: a key by its id (consistent: a revoked key is gone at once). */
export async function getApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.apiKey(keyId), ConsistentRead: true });
  return out.Item ? recordOf(out.Item) : undefined;
}

/** K3: the user's keys, oldest first. */
export async function listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p',
    ExpressionAttributeValues: { ':p': keys.userApiKeysPartition(userId) },
  });
  return items.filter((i) => i.entity === 'ApiKey').map(recordOf);
}

/** K4: deletes the user's key; false when it is not theirs or already gone. */
export async function deleteApiKey(userId: string, keyId: string): Promise<boolean> {
  return transact([
    {
      Delete: {
        TableName: table(),
        Key: keys.apiKey(keyId),
        ConditionExpression: 'userId = :u',
        ExpressionAttributeValues: { ':u': userId },
      },
    },
    {
      Update: {
        TableName: table(),
        Key: keys.apiKeyStats(userId),
        UpdateExpression: 'ADD #n :minus',
        ConditionExpression: '#n > :zero',
        ExpressionAttributeNames: { '#n': 'count' },
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      },
    },
  ]);
}

/** K4b: every key of the user goes (a team membership ended); how many. */
export async function deleteUserApiKeys(userId: string): Promise<number> {
  let deleted = 0;
  for (const k of await listApiKeys(userId)) if (await deleteApiKey(userId, k.keyId)) deleted += 1;
  return deleted;
}

/** K5: when the key was last used; only while it exists (a revoked key is not brought back). */
export async function touchApiKey(keyId: string, at: number): Promise<void> {
  await conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.apiKey(keyId),
      UpdateExpression: 'SET lastUsedAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :at)',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

/** K6: whether a team admin lets the team's members use API keys (default: no). */
export async function teamAllowsApiKeys(adminId: string): Promise<boolean> {
  const out = await ddb().get({ TableName: table(), Key: keys.teamApiKeys(adminId), ConsistentRead: true });
  return out.Item?.membersAllowed === true;
}

export async function setTeamApiKeys(adminId: string, membersAllowed: boolean, at: number): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: { ...keys.teamApiKeys(adminId), entity: 'TeamApiKeys', membersAllowed, updatedAt: at },
  });
}
