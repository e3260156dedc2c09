/**
 * API keys (docs/api.md). Pure rules shared by the API and the app: the key format,
 * the scopes and what each one opens, the request and answer shapes of the key routes.
 *
 * A key is `sbk_<env>_<id>_<secret>`: the fixed prefix lets secret scanners and log filters
 * recognise it, `env` says which deployment minted it (`live` in AWS, `local` on the emulators),
 * `id` (16 base62) names the record (list, revoke, last used) and `secret` (40 base62, ~238
 * bits) is the part only its holder knows. The table keeps the SHA-256 of the whole key, never
 * the key, and compares in constant time.
 */
import * as z from 'zod/mini';
import { API_KEY_NAME_MAX, API_SCOPES, type ApiScope } from './api-key-scopes';

// The scopes, the name's length and the rate limit live in a module without zod, for the app's screens.
export {
  API_KEY_NAME_MAX,
  API_KEY_RATE_LIMIT,
  API_KEY_UPLOAD_RATE_LIMIT,
  API_SCOPES,
  type ApiKeyRateWindow,
  type ApiScope,
} from './api-key-scopes';

export const API_KEY_PREFIX = 'sbk_';
export const API_KEY_ENVS = ['live', 'local'] as const;
export type ApiKeyEnv = (typeof API_KEY_ENVS)[number];
export const API_KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_ID_LENGTH = 16;
export const API_KEY_SECRET_LENGTH = 40;
export const API_KEY_PATTERN = /^sbk_(live|local)_([0-9A-Za-z]{16})_([0-9A-Za-z]{40})$/u;
/** Anything that looks like a key, wherever it appears (log scrubbing, secret scanners). */
export const API_KEY_SCAN_PATTERN = /\bsbk_(?:live|local)_[0-9A-Za-z]{16}_[0-9A-Za-z]{40}\b/gu;

/** Keys per user (a key is cheap to make; a runaway script should not fill the table). */
export const MAX_API_KEYS = 25;

export interface ParsedApiKey {
  readonly env: ApiKeyEnv;
  readonly id: string;
  readonly secret: string;
}

/** The parts of a well-formed key, or undefined. */
export function parseApiKey(key: string): ParsedApiKey | undefined {
  const m = API_KEY_PATTERN.exec(key);
  if (!m) return undefined;
  return { env: m[1] as ApiKeyEnv, id: m[2]!, secret: m[3]! };
}

export function formatApiKey(env: ApiKeyEnv, id: string, secret: string): string {
  const key = `${API_KEY_PREFIX}${env}_${id}_${secret}`;
  if (!API_KEY_PATTERN.test(key)) throw new RangeError('malformed API key parts');
  return key;
}

/** The key in an `Authorization: Bearer <key>` header (the only place a key is read from). */
export function keyFromAuthorization(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/iu.exec(header ?? '');
  return m?.[1];
}

/** Whether a key with `granted` scopes may call a route that needs `needed`. */
export function scopeAllows(granted: readonly string[], needed: ApiScope): boolean {
  return granted.includes(needed);
}

/** The first characters shown in lists, so a user can tell keys apart without the secret. */
export function keyHint(env: ApiKeyEnv, id: string): string {
  return `${API_KEY_PREFIX}${env}_${id.slice(0, 6)}…`;
}

export const apiScopeSchema = z.enum(API_SCOPES);
export const apiKeyIdSchema = z.string().check(z.regex(/^[0-9A-Za-z]{16}$/u, 'invalid_key_id'));

export const createApiKeySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(API_KEY_NAME_MAX)),
  scopes: z.array(apiScopeSchema).check(z.minLength(1), z.maxLength(API_SCOPES.length)),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeySchema>;

export interface ApiKeyView {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly ApiScope[];
  /** `sbk_live_AbC123…`: never the secret */
  readonly hint: string;
  readonly createdAt: number;
  /** epoch ms of the last request made with it (absent: never used) */
  readonly lastUsedAt?: number;
}

export interface CreateApiKeyResponse extends ApiKeyView {
  /** the whole key: shown once, never stored or shown again */
  readonly key: string;
}

export interface ApiKeysResponse {
  readonly keys: readonly ApiKeyView[];
  /** false for a team member whose admin has not allowed keys (the section stays hidden) */
  readonly allowed: boolean;
  /** a team admin's setting: whether members may create keys (absent for everyone else) */
  readonly membersAllowed?: boolean;
}

export const teamApiKeysSettingSchema = z.object({ membersAllowed: z.boolean() });
export type TeamApiKeysSetting = z.input<typeof teamApiKeysSettingSchema>;
