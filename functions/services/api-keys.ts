/**
 * API keys (docs/api.md). The signed-in user creates, lists and revokes keys (Cognito
 * session only: a key never manages keys); `authenticateKey` turns an `Authorization: Bearer
 * sbk_…` header into the key's user for the public API v1 routes (`auth: 'key'` in
 * functions/routes.ts), checks the route's scope, counts the request against the key's rate
 * limit and records when the key was last used. The answer is claims like the JWT
 * authorizer's (`sub`), so the v1 handlers call the same services as the app's.
 */
import {
  API_KEY_ALPHABET,
  API_KEY_ID_LENGTH,
  API_KEY_RATE_LIMIT,
  API_KEY_UPLOAD_RATE_LIMIT,
  type ApiKeyRateWindow,
  API_KEY_SECRET_LENGTH,
  MAX_API_KEYS,
  formatApiKey,
  keyFromAuthorization,
  keyHint,
  parseApiKey,
  scopeAllows,
  type ApiKeyEnv,
  type ApiKeyView,
  type ApiKeysResponse,
  type ApiScope,
  type CreateApiKeyResponse,
} from '../domain/api-keys';
import { randomString } from '../domain/slug';
import * as data from '../data/api-keys';
import { getProfile, type UserProfile } from '../data/users';
import { isOnTeam } from '../data/teams';
import { hitRateWindow } from '../data/verification';
import { config } from '../lib/env';
import { conflict, forbidden, notFound, tooManyRequests, unauthorized } from '../lib/errors';
import { httpRoute, type HttpRequest, type JwtClaims, type Reply, type Schemas } from '../lib/http';
import { safeEqual, hashToken } from '../lib/secrets';
import { teamLimitOf } from './teams';

/** Claims a key adds beside `sub` (never the key itself). */
export const KEY_ID_CLAIM = 'sendbridge:key_id';
export const KEY_SCOPES_CLAIM = 'sendbridge:scopes';

/** `live` in AWS, `local` on the emulators (their endpoints are set only there). */
export function keyEnv(): ApiKeyEnv {
  return config().endpoints.dynamodb ? 'local' : 'live';
}

function viewOf(k: data.ApiKeyRecord): ApiKeyView {
  return {
    id: k.keyId,
    name: k.name,
    scopes: k.scopes,
    hint: keyHint(k.env, k.keyId),
    createdAt: k.createdAt,
    ...(k.lastUsedAt !== undefined ? { lastUsedAt: k.lastUsedAt } : {}),
  };
}

const notAllowed = () =>
  forbidden('api_keys_not_allowed', "Your team's admin has not allowed API keys for team members.");

/** Whether this user may hold and use keys: everyone but a team member whose admin has not allowed it. */
export async function keysAllowed(profile: UserProfile): Promise<boolean> {
  if (!profile.isTeamMember) return true;
  return profile.parentAdminId ? data.teamAllowsApiKeys(profile.parentAdminId) : false;
}

/** GET /me/api-keys */
export async function listKeys(profile: UserProfile): Promise<ApiKeysResponse> {
  const allowed = await keysAllowed(profile);
  const isAdmin = !profile.isTeamMember && teamLimitOf(profile) > 0;
  return {
    keys: allowed ? (await data.listApiKeys(profile.userId)).map(viewOf) : [],
    allowed,
    ...(isAdmin ? { membersAllowed: await data.teamAllowsApiKeys(profile.userId) } : {}),
  };
}

/** POST /me/api-keys: the whole key is in this answer and nowhere else, ever. */
export async function createKey(
  profile: UserProfile,
  input: { name: string; scopes: readonly ApiScope[] },
  now = Date.now(),
): Promise<CreateApiKeyResponse> {
  if (!(await keysAllowed(profile))) throw notAllowed();
  const env = keyEnv();
  const keyId = randomString(API_KEY_ID_LENGTH, API_KEY_ALPHABET);
  const key = formatApiKey(env, keyId, randomString(API_KEY_SECRET_LENGTH, API_KEY_ALPHABET));
  const record: data.ApiKeyRecord = {
    keyId,
    userId: profile.userId,
    env,
    name: input.name,
    scopes: [...new Set(input.scopes)],
    keyHash: hashToken(key),
    createdAt: now,
    // A member's key is bound to the membership it was made in (authenticateKey re-checks it).
    ...(profile.isTeamMember && profile.parentAdminId ? { teamAdminId: profile.parentAdminId } : {}),
  };
  if (!(await data.createApiKey(record, MAX_API_KEYS)))
    throw conflict('too_many_keys', `You can have at most ${MAX_API_KEYS} API keys. Revoke one first.`);
  return { ...viewOf(record), key };
}

/** DELETE /me/api-keys/{id}: from the next request on, the key is refused. */
export async function revokeKey(userId: string, keyId: string): Promise<void> {
  if (!(await data.deleteApiKey(userId, keyId))) throw notFound('key_not_found', 'This API key does not exist.');
}

/** PUT /teams/api-keys: the admin lets the team's members use keys, or stops them (at once). */
export async function setMembersAllowed(
  profile: UserProfile,
  membersAllowed: boolean,
  now = Date.now(),
): Promise<{ membersAllowed: boolean }> {
  if (profile.isTeamMember) throw forbidden('team_member_forbidden', "Your team's admin decides about API keys.");
  await data.setTeamApiKeys(profile.userId, membersAllowed, now);
  return { membersAllowed };
}

const invalidKey = () => unauthorized('invalid_api_key', 'Send a valid API key as "Authorization: Bearer sbk_…".');

/**
 * The user behind a request's API key, for a route that needs `scope`: 401 invalid_api_key
 * (none, malformed, unknown, revoked, or a member's key once that membership ended), 403
 * key_scope_missing, 403 api_keys_not_allowed (a team member whose admin turned keys off), 429
 * rate_limited (Retry-After) past the key's window.
 */
export async function authenticateKey(
  authorization: string | undefined,
  scope: ApiScope,
  now = Date.now(),
  window: ApiKeyRateWindow = 'default',
): Promise<JwtClaims> {
  const key = keyFromAuthorization(authorization);
  const parsed = key ? parseApiKey(key) : undefined;
  if (!key || !parsed) throw invalidKey();
  const record = await data.getApiKey(parsed.id);
  if (!record || !safeEqual(hashToken(key), record.keyHash)) throw invalidKey();
  if (!scopeAllows(record.scopes, scope)) {
    throw forbidden('key_scope_missing', `This API key does not have the "${scope}" scope.`);
  }
  const limit = window === 'upload' ? API_KEY_UPLOAD_RATE_LIMIT : API_KEY_RATE_LIMIT;
  const rate = await hitRateWindow(
    window === 'upload' ? 'apikey-upload' : 'apikey',
    record.keyId,
    limit.requests,
    limit.windowSeconds,
    now,
  );
  if (!rate.allowed)
    throw tooManyRequests(
      rate.retryAfterSeconds,
      `Too many requests with this API key. Try again in ${rate.retryAfterSeconds} seconds.`,
    );
  const [profile] = await Promise.all([getProfile(record.userId), data.touchApiKey(record.keyId, now)]);
  if (!profile) throw invalidKey();
  // A key made by a team member dies with the membership, even if its removal missed it.
  if (
    record.teamAdminId !== undefined &&
    !(profile.parentAdminId === record.teamAdminId && (await isOnTeam(record.teamAdminId, record.userId)))
  )
    throw invalidKey();
  if (!(await keysAllowed(profile))) throw notAllowed();
  return { sub: record.userId, [KEY_ID_CLAIM]: record.keyId, [KEY_SCOPES_CLAIM]: record.scopes.join(' ') };
}

/**
 * The handler of an `auth: 'key'` route: `httpRoute` whose authorizer is the API key with
 * `scope`, run before the input is parsed; `claims.sub` is then the key's user. The scope
 * stays readable on the handler (test/infra/handlers.test.ts checks it against the route table).
 */
export function keyRoute<S extends Schemas>(
  scope: ApiScope,
  schemas: S,
  fn: (req: HttpRequest<S>) => Promise<Reply>,
  opts: { rateWindow?: ApiKeyRateWindow } = {},
) {
  const handler = httpRoute(schemas, fn, {
    authorize: (event) => authenticateKey(event.headers?.authorization, scope, Date.now(), opts.rateWindow),
  });
  return Object.assign(handler, { keyScope: scope });
}
