/**
 * The HTTP client of the public API (docs/api.md): JSON in and out, the key as a Bearer
 * header (never in a URL), errors as ApiError with the API's stable code, no answer as
 * NetworkError. Paths are relative to `<origin>/api`.
 */
import { ApiError, NetworkError } from './errors';

export interface ApiClientOptions {
  origin: string;
  key?: string;
  fetchImpl?: typeof fetch;
}

export interface CallInit {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** sees a successful answer's status and headers (a 202's Retry-After) */
  onAnswer?: (status: number, headers: Headers) => void;
}

export class ApiClient {
  readonly origin: string;
  private readonly key: string | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ApiClientOptions) {
    this.origin = opts.origin;
    this.key = opts.key;
    this.fetchImpl = opts.fetchImpl ?? globalThis.fetch.bind(globalThis);
  }

  get hasKey(): boolean {
    return Boolean(this.key);
  }

  async call<T>(path: string, init: CallInit = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.origin}/api${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        ...(init.signal ? { signal: init.signal } : {}),
        redirect: 'error',
      });
    } catch (err) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new NetworkError(`could not reach ${this.origin}: ${describeFetchError(err)}`, { cause: err });
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new NetworkError(`the answer from ${this.origin} broke off: ${describeFetchError(err)}`, { cause: err });
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const e = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
      const code = typeof e?.code === 'string' ? e.code : `http_${res.status}`;
      const message = typeof e?.message === 'string' ? e.message : `HTTP ${res.status}`;
      throw new ApiError(res.status, code, message, e?.details);
    }
    init.onAnswer?.(res.status, res.headers);
    return json as T;
  }
}

/** undici hides the reason in `cause` ("fetch failed" -> ECONNREFUSED ...). */
export function describeFetchError(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}
