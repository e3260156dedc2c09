/**
 * The app's one way to call its API (same origin: CloudFront /api/* in AWS, the Vite proxy
 * locally). Errors arrive as `ApiError` with the server's stable code and message.
 *
 * Retries (spec §7; the rules are functions/domain/retry-policy.ts): idempotent calls
 * (GET, PUT, DELETE, the POSTs the server treats as idempotent) are sent again up to 4 times
 * after a network error or a 5xx, with exponential backoff and jitter, honouring Retry-After;
 * the creates of `KEYED_ROUTES` are retried too, with the same `Idempotency-Key` on every
 * attempt, so they never happen twice; every other POST / PATCH is sent once. 4xx answers are
 * final. Every POST and PATCH carries a key (the keyed routes honour it, the others ignore it),
 * so the first attempt needs no rules: they load after a failure (or at idle time, see
 * lib/import-with-retry.ts `preloadRecovery`), outside every first load. If they cannot load,
 * only GETs are retried.
 */
import { env } from '@/config/env';

/**
 * A fresh Idempotency-Key: 128 random bits, base64url (22 characters, within
 * IDEMPOTENCY_KEY_PATTERN). Not crypto.randomUUID(): that exists in secure contexts only, and
 * the app also runs on plain-http hosts (a custom domain locally), where getRandomValues works.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/gu, '-')
    .replace(/\//gu, '_')
    .replace(/=+$/u, '');
}

/** The request header of functions/domain/retry-policy.ts IDEMPOTENCY_KEY_HEADER (a unit test keeps them equal). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Spec §7: retried up to 4 times (functions/domain/retry-policy.ts API_RETRIES). */
const API_RETRIES = 4;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** 0: the request never got an answer (offline, DNS, aborted by timeout). */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

export interface ApiInit {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly signal?: AbortSignal;
  /**
   * at most this many retries after the first attempt (default 4, 0 to send once); calls the
   * retry policy says never to repeat are sent once whatever this says
   */
  readonly retries?: number;
  /** the Idempotency-Key of a POST / PATCH (default: a fresh one for this call, kept across its attempts) */
  readonly idempotencyKey?: string;
  /** per attempt, ms */
  readonly timeoutMs?: number;
  /** Bearer token for JWT routes */
  readonly accessToken?: string;
  /** 'text': the answer's body as a string (a CSV download), not parsed as JSON */
  readonly responseType?: 'json' | 'text';
  /** sees a successful answer's status and headers (a 202's Retry-After) */
  readonly onAnswer?: (status: number, headers: Headers) => void;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });

async function errorOf(res: Response): Promise<ApiError> {
  let code = `http_${res.status}`;
  let message = res.statusText || `Request failed (${res.status})`;
  let details: unknown;
  try {
    const body = (await res.json()) as {
      error?: { code?: string; message?: string; details?: unknown };
      message?: string;
    };
    if (body.error) {
      code = body.error.code ?? code;
      message = body.error.message ?? message;
      details = body.error.details;
    } else if (typeof body.message === 'string') {
      message = body.message;
    }
  } catch {
    // not JSON: keep the status text
  }
  return new ApiError(res.status, code, message, details);
}

/** The wait before retry `attempt`, or undefined when the call must not be repeated. */
async function retryDelayAfter(
  method: string,
  path: string,
  error: ApiError,
  attempt: number,
  retryAfter: string | null,
): Promise<number | undefined> {
  const policy = await import('@domain/retry-policy').catch(() => undefined);
  // (here the error is a network error, a 5xx or a 409)
  if (!policy) return method === 'GET' && error.status !== 409 ? 1_000 * attempt : undefined;
  const rule = policy.retryRuleOf(method as Parameters<typeof policy.retryRuleOf>[0], path.split('?')[0] ?? path);
  if (!policy.isRetryableStatus(rule, error.status, error.code)) return undefined;
  return policy.retryDelayMs(attempt, Math.random, policy.retryAfterSecondsOf(retryAfter));
}

export async function apiFetch<T>(path: string, init: ApiInit = {}): Promise<T> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const retries = init.retries ?? API_RETRIES;
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.accessToken) headers.authorization = `Bearer ${init.accessToken}`;
  if (method === 'POST' || method === 'PATCH')
    headers[IDEMPOTENCY_KEY_HEADER] = init.idempotencyKey ?? newIdempotencyKey();
  // One serialisation for every attempt: the server compares a keyed repeat's bytes.
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);

  for (let attempt = 0; ; attempt += 1) {
    const signals = [init.signal, init.timeoutMs ? AbortSignal.timeout(init.timeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    let error: ApiError;
    let retryAfter: string | null = null;
    try {
      const res = await fetch(`${env.apiBase}${path}`, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: signals.length ? AbortSignal.any(signals) : undefined,
      });
      if (res.ok) {
        init.onAnswer?.(res.status, res.headers);
        const text = await res.text();
        if (init.responseType === 'text') return text as T;
        return (text ? JSON.parse(text) : undefined) as T;
      }
      error = await errorOf(res);
      retryAfter = res.headers.get('retry-after');
    } catch (err) {
      if (init.signal?.aborted) throw err;
      error = new ApiError(0, 'network_error', err instanceof Error ? err.message : String(err));
    }
    if (attempt >= retries || (!error.isNetwork && error.status < 500 && error.status !== 409)) throw error;
    const wait = await retryDelayAfter(method, path, error, attempt + 1, retryAfter);
    if (wait === undefined) throw error;
    await sleep(wait, init.signal);
  }
}
