/**
 * Session families (docs/data-model.md, patterns S1-S5): one item per sign-in, keyed by a
 * random session id carried in the refresh cookie. It holds the SHA-256 of the cookie's current
 * secret, the Cognito refresh token sealed with a key only the cookie carries, the generation
 * the next rotation must find, and the access tokens issued to the family (so ending it can end
 * them too). Revoked access tokens are marker items keyed by `jti`, living until the token's own expiry.
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalUpdate, conditionalWrite, table } from './base';
import { isLive, keys } from './keys';

/** An access token issued to a family: Cognito's `jti` and `exp` (epoch seconds). */
export interface IssuedToken {
  readonly jti: string;
  readonly exp: number;
}

export type RevokeReason = 'logout' | 'reuse';

export interface SessionRecord {
  readonly sessionId: string;
  readonly userId: string;
  /** bumped by every rotation; a rotation writes only over the generation it read */
  readonly generation: number;
  readonly secretHash: string;
  /** the Cognito refresh token, AES-256-GCM with the cookie's key (services/accounts-sessions.ts) */
  readonly cognitoSealed: string;
  readonly createdAt: number;
  readonly rotatedAt: number;
  /** epoch ms: the Cognito refresh token's own end (30 days), after which the item may go */
  readonly expiresAt: number;
  readonly tokens: readonly IssuedToken[];
  readonly revokedAt?: number;
  readonly revokedReason?: RevokeReason;
}

/** A family keeps the newest access tokens only; older ones have long expired (15 min each). */
export const MAX_TRACKED_TOKENS = 100;

/** The tokens still alive at `now`, newest last, at most MAX_TRACKED_TOKENS. */
export function liveTokens(tokens: readonly IssuedToken[], now: number): IssuedToken[] {
  return tokens.filter((t) => t.exp * 1000 > now).slice(-MAX_TRACKED_TOKENS);
}

function ttlOf(expiresAt: number): number {
  return Math.ceil(expiresAt / 1000);
}

/** S1: a new family at sign-in (a random id never collides; the condition makes sure). */
export async function createSession(s: SessionRecord): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: { ...keys.session(s.sessionId), entity: 'Session', ...s, ttl: ttlOf(s.expiresAt) },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
}

/** S2: consistent, so a rotation just made is seen by the next refresh. */
export async function getSession(sessionId: string, now = Date.now()): Promise<SessionRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.session(sessionId), ConsistentRead: true });
  const i = out.Item;
  if (!i || !isLive(i, now) || Number(i.expiresAt) <= now) return undefined;
  return {
    sessionId,
    userId: String(i.userId),
    generation: Number(i.generation),
    secretHash: String(i.secretHash),
    cognitoSealed: String(i.cognitoSealed),
    createdAt: Number(i.createdAt),
    rotatedAt: Number(i.rotatedAt),
    expiresAt: Number(i.expiresAt),
    tokens: Array.isArray(i.tokens)
      ? (i.tokens as IssuedToken[]).map((t) => ({ jti: String(t.jti), exp: Number(t.exp) }))
      : [],
    ...(typeof i.revokedAt === 'number' ? { revokedAt: i.revokedAt } : {}),
    ...(i.revokedReason === 'logout' || i.revokedReason === 'reuse' ? { revokedReason: i.revokedReason } : {}),
  };
}

/**
 * S3: the rotation. Writes the new secret only over the generation and secret it read, and
 * only while the family is alive: of two refreshes with the same cookie, one wins. False when
 * the condition failed (the caller treats that as reuse).
 */
export async function rotateSession(
  s: Pick<SessionRecord, 'sessionId' | 'generation' | 'secretHash'>,
  next: { secretHash: string; tokens: readonly IssuedToken[] },
  now = Date.now(),
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.session(s.sessionId),
      UpdateExpression: 'SET secretHash = :new, generation = :next, rotatedAt = :now, tokens = :tokens',
      ConditionExpression:
        'attribute_exists(pk) AND generation = :gen AND secretHash = :old AND attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: {
        ':new': next.secretHash,
        ':next': s.generation + 1,
        ':now': now,
        ':tokens': next.tokens,
        ':gen': s.generation,
        ':old': s.secretHash,
      },
    }),
  );
}

/**
 * S4: ends the family once (later calls change nothing) and answers the access tokens it had
 * issued, with `extra` (a token issued by a refresh that lost its race) added to them.
 */
export async function revokeSession(
  sessionId: string,
  reason: RevokeReason,
  extra: readonly IssuedToken[],
  now = Date.now(),
): Promise<IssuedToken[]> {
  const out = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key: keys.session(sessionId),
      UpdateExpression:
        'SET revokedAt = :now, revokedReason = :reason, tokens = list_append(if_not_exists(tokens, :none), :extra)',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':now': now, ':reason': reason, ':none': [], ':extra': [...extra] },
      ReturnValues: 'ALL_NEW',
    }),
  );
  if (!out) return [...extra];
  const tokens = Array.isArray(out.tokens) ? (out.tokens as IssuedToken[]) : [...extra];
  return tokens.map((t) => ({ jti: String(t.jti), exp: Number(t.exp) }));
}

/** S5: one marker per access token still alive, each gone with its token's expiry. */
export async function putRevokedTokens(tokens: readonly IssuedToken[], now = Date.now()): Promise<void> {
  const live = [...new Map(liveTokens(tokens, now).map((t) => [t.jti, t])).values()];
  for (let i = 0; i < live.length; i += 25) {
    let requests = live.slice(i, i + 25).map((t) => ({
      PutRequest: {
        Item: { ...keys.revokedAccessToken(t.jti), entity: 'RevokedAccessToken', revokedAt: now, ttl: t.exp },
      },
    }));
    // BatchWriteItem may hand some writes back under load: retried a few times, then it throws.
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt === 5) throw new Error(`revocation markers not written: ${requests.length} left`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out = await ddb().batchWrite({ RequestItems: { [table()]: requests } });
      requests = (out.UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  }
}

/** S5: is this access token revoked? One eventually consistent GetItem of a tiny item. */
export async function isAccessTokenRevoked(jti: string, now = Date.now()): Promise<boolean> {
  const out = await ddb().get({
    TableName: table(),
    Key: keys.revokedAccessToken(jti),
    ProjectionExpression: 'pk, #ttl',
    ExpressionAttributeNames: { '#ttl': 'ttl' },
  });
  return out.Item !== undefined && isLive(out.Item, now);
}
