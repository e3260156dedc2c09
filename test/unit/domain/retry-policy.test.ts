import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  API_RETRIES,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENT_POSTS,
  KEYED_ROUTES,
  RETRY_BASE_MS,
  RETRY_CAP_MS,
  isRetryableStatus,
  pathMatches,
  retryAfterSecondsOf,
  retryDelayMs,
  retryRuleOf,
} from '../../../functions/domain/retry-policy';
import { routes } from '../../../functions/routes';

describe('retry policy: which calls may be sent again', () => {
  it('retries GET, HEAD, PUT and DELETE whatever the path', () => {
    expect(retryRuleOf('GET', '/getQs?filter=all')).toBe('retry');
    expect(retryRuleOf('HEAD', '/health')).toBe('retry');
    expect(retryRuleOf('PUT', '/domains/custom')).toBe('retry');
    expect(retryRuleOf('DELETE', '/transfers/abc1234')).toBe('retry');
  });

  it('retries the keyed creates with a key, path parameters matched by segment', () => {
    expect(retryRuleOf('POST', '/transfers')).toBe('retry-with-key');
    expect(retryRuleOf('POST', '/me/transfers')).toBe('retry-with-key');
    expect(retryRuleOf('POST', '/transfers/abc1234/complete')).toBe('retry-with-key');
    expect(retryRuleOf('POST', '/requests')).toBe('retry-with-key');
    expect(retryRuleOf('POST', '/r/Ab3dE/uploads')).toBe('retry-with-key');
  });

  it('retries the POSTs the server treats as idempotent (the upload engine’s calls, the download page read)', () => {
    expect(retryRuleOf('POST', '/transfers/abc1234/sign')).toBe('retry');
    expect(retryRuleOf('POST', '/transfers/abc1234/parts')).toBe('retry');
    expect(retryRuleOf('POST', '/transfers/abc1234/files/f1/complete')).toBe('retry');
    expect(retryRuleOf('POST', '/getDownload')).toBe('retry');
  });

  it('never repeats other POSTs and PATCHes: logins, codes, mails, counted downloads, payments', () => {
    for (const path of [
      '/combinedAuth',
      '/verifyEmail',
      '/checkVerifyEmail',
      '/getDownload/file',
      '/zip',
      '/transfers/forward',
      '/transfers/emailSend',
      '/transfers/remind',
      '/feedback',
      '/stripe/createSubscription',
      '/billing/refund',
      '/transfers/abc1234/cancel',
    ]) {
      expect(retryRuleOf('POST', path), path).toBe('never');
    }
    expect(retryRuleOf('PATCH', '/transfers/addFiles')).toBe('never');
    expect(retryRuleOf('PATCH', '/requests/abc')).toBe('never');
  });

  it('does not stretch a template over a different number of segments or an empty one', () => {
    expect(pathMatches('/transfers/{id}/complete', '/transfers/abc/complete')).toBe(true);
    expect(pathMatches('/transfers/{id}/complete', '/transfers//complete')).toBe(false);
    expect(pathMatches('/transfers/{id}/complete', '/transfers/a/b/complete')).toBe(false);
    expect(retryRuleOf('POST', '/transfers/abc/complete/extra')).toBe('never');
    expect(retryRuleOf('POST', '/me/transfers/x')).toBe('never');
  });

  it('names only routes that exist, with their method', () => {
    const table = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const entry of [...KEYED_ROUTES, ...IDEMPOTENT_POSTS]) expect(table.has(entry), entry).toBe(true);
  });

  it('every keyed route’s handler wraps its work in idempotent() (the server honours the key)', () => {
    for (const entry of KEYED_ROUTES) {
      const route = routes.find((r) => `${r.method} ${r.path}` === entry)!;
      const source = readFileSync(new URL(`../../../functions/${route.handler}.ts`, import.meta.url), 'utf8');
      expect(source, route.handler).toMatch(/\bidempotent\(req, `[a-z]+#\$\{/u);
    }
  });

  it('retries network errors and 5xx, never a 4xx except a keyed call still in progress', () => {
    for (const rule of ['retry', 'retry-with-key'] as const) {
      expect(isRetryableStatus(rule, 0)).toBe(true);
      expect(isRetryableStatus(rule, 500)).toBe(true);
      expect(isRetryableStatus(rule, 503)).toBe(true);
      for (const status of [400, 401, 403, 404, 409, 410, 422, 429])
        expect(isRetryableStatus(rule, status), `${rule} ${status}`).toBe(false);
    }
    expect(isRetryableStatus('retry-with-key', 409, 'idempotency_in_progress')).toBe(true);
    expect(isRetryableStatus('retry', 409, 'idempotency_in_progress')).toBe(false);
    expect(isRetryableStatus('never', 0)).toBe(false);
    expect(isRetryableStatus('never', 503)).toBe(false);
  });
});

describe('retry policy: backoff', () => {
  it('four retries (spec §7)', () => expect(API_RETRIES).toBe(4));

  it('doubles a ceiling from 500 ms and jitters in its upper half', () => {
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const ceiling = RETRY_BASE_MS * 2 ** (attempt - 1);
      expect(retryDelayMs(attempt, () => 0)).toBe(ceiling / 2);
      expect(retryDelayMs(attempt, () => 0.999999)).toBe(ceiling);
      for (let i = 0; i < 50; i += 1) {
        const d = retryDelayMs(attempt);
        expect(d).toBeGreaterThanOrEqual(ceiling / 2);
        expect(d).toBeLessThanOrEqual(ceiling);
      }
    }
    expect(retryDelayMs(1, () => 0.5)).toBe(375);
  });

  it('never waits past the cap, even when the server asks for longer', () => {
    expect(retryDelayMs(30, () => 1)).toBe(RETRY_CAP_MS);
    expect(retryDelayMs(1, () => 0, 3_600)).toBe(RETRY_CAP_MS);
  });

  it('waits at least what Retry-After asks', () => {
    expect(retryDelayMs(1, () => 0, 3)).toBe(3_000);
    expect(retryDelayMs(4, () => 1, 1)).toBe(4_000);
    expect(retryAfterSecondsOf('7')).toBe(7);
    expect(retryAfterSecondsOf(' 12 ')).toBe(12);
    expect(retryAfterSecondsOf('Wed, 21 Oct 2015 07:28:00 GMT')).toBeUndefined();
    expect(retryAfterSecondsOf('soon')).toBeUndefined();
    expect(retryAfterSecondsOf(null)).toBeUndefined();
  });

  it('accepts UUIDs and 22-character random keys, refuses short or odd ones', () => {
    expect(IDEMPOTENCY_KEY_PATTERN.test('3f1c2a9e-8b7d-4c6e-9f01-23456789abcd')).toBe(true);
    expect(IDEMPOTENCY_KEY_PATTERN.test('AbCdEfGhIjKlMnOpQrSt_-')).toBe(true);
    expect(IDEMPOTENCY_KEY_PATTERN.test('short')).toBe(false);
    expect(IDEMPOTENCY_KEY_PATTERN.test('has space inside it!!')).toBe(false);
    expect(IDEMPOTENCY_KEY_PATTERN.test('x'.repeat(129))).toBe(false);
  });
});
