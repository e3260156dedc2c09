/**
 * Which API calls the app may send again after a failure, and how long it waits (spec §7:
 * "failed requests retried up to 4 times with exponential backoff"; only idempotent
 * calls, never on 4xx). Shared by the app's API client (frontend/src/lib/api.ts) and the
 * server's Idempotency-Key handling (functions/services/idempotency.ts), so the list of routes
 * that take a key is one list.
 *
 * Rules, by method and path template (paths relative to /api, no query):
 * - GET, HEAD, PUT, DELETE: idempotent by HTTP's definition, retried.
 * - `KEYED_ROUTES`: creates the server makes idempotent with an `Idempotency-Key` header
 *   (a repeat with the same key gets the first answer back): retried, with one key for every
 *   attempt of the same call.
 * - `IDEMPOTENT_POSTS`: POSTs that only read, or set a value to what the body says, so a
 *   repeat changes nothing more (the upload engine's sign / record part / complete file,
 *   the download page's read): retried.
 * - every other POST and PATCH (logins, codes, mails, payments, counts): never retried.
 * Statuses: network errors (no answer) and 5xx are retried; 4xx never, except the 409
 * `idempotency_in_progress` of a keyed call (its first attempt is still running on the server:
 * asking again after `Retry-After` is how the caller gets that attempt's answer).
 */
import { MINUTE_MS } from './units';

/** Retries after the first attempt (spec §7: up to 4 times). */
export const API_RETRIES = 4;
/** The first retry waits about this long; each next one twice as long (then jitter). */
export const RETRY_BASE_MS = 500;
/** No single wait above this, whatever the attempt or a server's Retry-After. */
export const RETRY_CAP_MS = 30_000;

/** The request header carrying the caller's key (IETF draft "The Idempotency-Key HTTP Header Field"). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** 16 to 128 URL-safe characters: a UUID (36) fits; long enough that guessing one is hopeless. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/u;
/** How long a finished call's answer is kept for replay. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A claimed key whose call has not finished after this long (the Lambda died) may be claimed again. */
export const IDEMPOTENCY_STALE_MS = MINUTE_MS;
/** The 409 a duplicate gets while the first call with its key is still running. */
export const IDEMPOTENCY_IN_PROGRESS = 'idempotency_in_progress';

export type RetryMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Non-idempotent creates whose handler honours `Idempotency-Key` (method and path template). */
export const KEYED_ROUTES: readonly string[] = [
  'POST /transfers',
  'POST /me/transfers',
  'POST /transfers/{id}/complete',
  'POST /requests',
  'POST /r/{id}/uploads',
];

/** POSTs the server treats as idempotent: reads, or writes of a value the body names. */
export const IDEMPOTENT_POSTS: readonly string[] = [
  'POST /getDownload',
  'POST /folderSize',
  'POST /quicksend2',
  'POST /notifications',
  'POST /notifications/read',
  'POST /passTokenCheck',
  'POST /transfers/{id}/sign',
  'POST /transfers/{id}/parts',
  'POST /transfers/{id}/files/{fileId}/complete',
  'POST /v1/updateProfile',
];

export type RetryRule = 'retry' | 'retry-with-key' | 'never';

/** True when `path` (no query) matches `template`, `{name}` standing for one non-empty segment. */
export function pathMatches(template: string, path: string): boolean {
  const t = template.split('/');
  const p = path.split('/');
  return (
    t.length === p.length &&
    t.every((part, i) => (part.startsWith('{') && part.endsWith('}') ? (p[i] ?? '') !== '' : part === p[i]))
  );
}

function listed(list: readonly string[], method: RetryMethod, path: string): boolean {
  return list.some((entry) => {
    const cut = entry.indexOf(' ');
    return entry.slice(0, cut) === method && pathMatches(entry.slice(cut + 1), path);
  });
}

/** How a call to `path` (relative to /api, a query is ignored) may be retried. */
export function retryRuleOf(method: RetryMethod, pathWithQuery: string): RetryRule {
  const path = pathWithQuery.split('?')[0] ?? '';
  if (method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE') return 'retry';
  if (listed(KEYED_ROUTES, method, path)) return 'retry-with-key';
  if (method === 'POST' && listed(IDEMPOTENT_POSTS, method, path)) return 'retry';
  return 'never';
}

/** Whether an answer (`status` 0: no answer at all) may be retried under `rule`. */
export function isRetryableStatus(rule: RetryRule, status: number, code?: string): boolean {
  if (rule === 'never') return false;
  if (status === 0 || status >= 500) return true;
  return rule === 'retry-with-key' && status === 409 && code === IDEMPOTENCY_IN_PROGRESS;
}

/**
 * The wait before retry `attempt` (1-based): "equal jitter" (half fixed, half random) under an exponential ceiling
 * (base·2^(attempt-1), capped), so many clients failing together do not retry together. A
 * server's Retry-After (seconds) raises the wait to at least that, within the cap.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random, retryAfterSeconds?: number): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  const asked =
    retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0
      ? retryAfterSeconds * 1000
      : 0;
  return Math.min(RETRY_CAP_MS, Math.max(jittered, asked));
}

/**
 * A Retry-After header's seconds, undefined when absent or not delta-seconds (the API sends
 * seconds; an HTTP-date form is not used by it and is ignored: the backoff applies).
 */
export function retryAfterSecondsOf(header: string | null | undefined): number | undefined {
  return header && /^\s*\d+\s*$/u.test(header) ? Number(header) : undefined;
}
