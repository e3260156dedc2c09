/**
 * The app's one way to call its API (same origin: CloudFront /api/* in AWS, the Vite proxy
 * locally). Errors arrive as `ApiError` with the server's stable code and message. Network
 * failures and 5xx answers are retried up to 4 times with exponential backoff (spec §7);
 * 4xx answers are final.
 */
import { backoffMs, REQUEST_RETRIES } from '@domain/upload';
import { env } from '@/config/env';

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
  /** retries after the first attempt for network errors and 5xx (default 4) */
  readonly retries?: number;
  /** per attempt, ms */
  readonly timeoutMs?: number;
  /** Bearer token for JWT routes */
  readonly accessToken?: string;
  /** 'text': the answer's body as a string (a CSV download), not parsed as JSON */
  readonly responseType?: 'json' | 'text';
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
    const body = (await res.json()) as { error?: { code?: string; message?: string; details?: unknown }; message?: string };
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

export async function apiFetch<T>(path: string, init: ApiInit = {}): Promise<T> {
  const retries = init.retries ?? REQUEST_RETRIES;
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.accessToken) headers.authorization = `Bearer ${init.accessToken}`;

  for (let attempt = 0; ; attempt += 1) {
    const signals = [init.signal, init.timeoutMs ? AbortSignal.timeout(init.timeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    let error: ApiError;
    try {
      const res = await fetch(`${env.apiBase}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        credentials: 'same-origin',
        signal: signals.length ? AbortSignal.any(signals) : undefined,
      });
      if (res.ok) {
        const text = await res.text();
        if (init.responseType === 'text') return text as T;
        return (text ? JSON.parse(text) : undefined) as T;
      }
      error = await errorOf(res);
      if (res.status < 500) throw error;
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (init.signal?.aborted) throw err;
      error = new ApiError(0, 'network_error', err instanceof Error ? err.message : String(err));
    }
    if (attempt >= retries) throw error;
    await sleep(backoffMs(attempt + 1), init.signal);
  }
}
