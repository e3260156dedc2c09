import { describe, expect, it } from 'vitest';
import {
  API_KEY_ALPHABET,
  API_KEY_SCAN_PATTERN,
  API_SCOPES,
  createApiKeySchema,
  formatApiKey,
  keyFromAuthorization,
  keyHint,
  parseApiKey,
  scopeAllows,
} from '../../../functions/domain/api-keys';
import { randomString } from '../../../functions/domain/slug';
import { hashToken, safeEqual } from '../../../functions/lib/secrets';

const newKey = (env: 'live' | 'local' = 'live') =>
  formatApiKey(env, randomString(16, API_KEY_ALPHABET), randomString(40, API_KEY_ALPHABET));

describe('API key format', () => {
  it('is sbk_<env>_<id>_<secret>, parses back into its parts, and a scanner finds it in text', () => {
    const key = newKey('local');
    expect(key).toMatch(/^sbk_local_[0-9A-Za-z]{16}_[0-9A-Za-z]{40}$/u);
    const parsed = parseApiKey(key)!;
    expect(parsed.env).toBe('local');
    expect(key).toBe(`sbk_local_${parsed.id}_${parsed.secret}`);
    expect(`export SENDBRIDGE_KEY=${key} # do not commit`.match(API_KEY_SCAN_PATTERN)).toEqual([key]);
  });

  it('refuses what is not a key: other prefixes, envs, lengths and characters', () => {
    const key = newKey();
    for (const bad of [
      '',
      key.replace('sbk_', 'sk_'),
      key.replace('_live_', '_test_'),
      key.slice(0, -1),
      `${key}x`,
      key.replace(/.$/u, '-'),
      key.toUpperCase(),
      ` ${key}`,
    ]) {
      expect(parseApiKey(bad), bad).toBeUndefined();
    }
    expect(() => formatApiKey('live', 'short', 'x'.repeat(40))).toThrow(RangeError);
  });

  it('has ~238 bits of secret: keys do not repeat', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => parseApiKey(newKey())!.secret));
    expect(keys.size).toBe(2000);
  });

  it('is stored as a SHA-256 that matches only the same key (constant-time comparison)', () => {
    const key = newKey();
    const stored = hashToken(key);
    expect(stored).not.toContain(parseApiKey(key)!.secret);
    expect(safeEqual(hashToken(key), stored)).toBe(true);
    const other = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    expect(safeEqual(hashToken(other), stored)).toBe(false);
  });

  it('is read from a Bearer Authorization header only', () => {
    const key = newKey();
    expect(keyFromAuthorization(`Bearer ${key}`)).toBe(key);
    expect(keyFromAuthorization(`bearer   ${key}`)).toBe(key);
    expect(keyFromAuthorization(key)).toBeUndefined();
    expect(keyFromAuthorization(`Basic ${key}`)).toBeUndefined();
    expect(keyFromAuthorization(undefined)).toBeUndefined();
  });

  it('lists hint the id, never the secret', () => {
    const parsed = parseApiKey(newKey())!;
    const hint = keyHint('live', parsed.id);
    expect(hint.startsWith('sbk_live_')).toBe(true);
    expect(hint).not.toContain(parsed.secret.slice(0, 8));
  });
});

describe('scope rules', () => {
  it('a key opens exactly the scopes it was given', () => {
    expect(scopeAllows(['send'], 'send')).toBe(true);
    expect(scopeAllows(['send'], 'transfers:read')).toBe(false);
    expect(scopeAllows(['transfers:read', 'requests'], 'requests')).toBe(true);
    expect(scopeAllows([], 'webhooks')).toBe(false);
    for (const s of API_SCOPES) expect(scopeAllows(API_SCOPES, s)).toBe(true);
  });

  it('a new key needs a name and at least one known scope', () => {
    expect(createApiKeySchema.safeParse({ name: ' CI ', scopes: ['send'] }).data).toEqual({
      name: 'CI',
      scopes: ['send'],
    });
    expect(createApiKeySchema.safeParse({ name: '', scopes: ['send'] }).success).toBe(false);
    expect(createApiKeySchema.safeParse({ name: 'x', scopes: [] }).success).toBe(false);
    expect(createApiKeySchema.safeParse({ name: 'x', scopes: ['billing'] }).success).toBe(false);
    expect(createApiKeySchema.safeParse({ name: 'x'.repeat(61), scopes: ['send'] }).success).toBe(false);
  });
});
