/**
 * Typed HTTP errors with stable codes (conventions §3). Handlers throw these; the error
 * middleware in `http.ts` turns them into `{ error: { code, message, field?, details? } }`.
 * Only 4xx messages reach the client; anything else is logged and answered as a generic 500.
 * The code is what clients act on (the app maps it to an i18n key); the English message is for
 * API users and logs. Every code is listed in docs/error-codes.md (a unit test keeps it whole).
 */
import type { Problem } from '../domain/validation';
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** Only client errors carry a message meant for the user. */
  get expose(): boolean {
    return this.statusCode < 500;
  }
}

/**
 * 400 for input its schema refused: the first problem's field (and, for `code` undefined, its
 * code) at the top, every problem in `details.issues` as `{ code, field, message }`.
 */
export class ValidationError extends HttpError {
  readonly field: string | undefined;
  constructor(
    code: string,
    message: string,
    readonly problems: readonly Problem[],
    extra: Record<string, unknown> = {},
  ) {
    super(400, code, message, { ...extra, issues: problems });
    this.name = 'ValidationError';
    this.field = problems[0]?.field || undefined;
  }
}

/** A refused send: the first problem speaks for the request (its code, field and message). */
export function problemsError(problems: readonly Problem[], fallback = 'Invalid request'): ValidationError {
  const first = problems[0];
  return new ValidationError(first?.code ?? 'invalid_request', first?.message ?? fallback, problems);
}

export const badRequest = (code: string, message: string, details?: unknown) =>
  new HttpError(400, code, message, details);
export const unauthorized = (code = 'unauthorized', message = 'Unauthorized') => new HttpError(401, code, message);
export const forbidden = (code = 'forbidden', message = 'Forbidden') => new HttpError(403, code, message);
export const notFound = (code = 'not_found', message = 'Not found') => new HttpError(404, code, message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);
export const gone = (code: string, message: string, details?: unknown) => new HttpError(410, code, message, details);
export const payloadTooLarge = (code: string, message: string) => new HttpError(413, code, message);
export const unsupportedMediaType = (message = 'Content-Type must be application/json') =>
  new HttpError(415, 'unsupported_media_type', message);
/** 429 with Retry-After, and the same wait in details so a client can say it in its own words. */
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests, try again later.') =>
  new HttpError(429, 'rate_limited', message, { retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });

/**
 * AWS's throttling answers that outlived the SDK's own retries: the request was fine, the service
 * is busy for a moment, so the client is told to come back (503 + Retry-After), not that it failed.
 */
const THROTTLING_NAMES = new Set([
  'ThrottlingException',
  'Throttling',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'SlowDown',
  'LimitExceededException',
]);

export function isThrottling(err: unknown): boolean {
  const e = err as { name?: unknown; $retryable?: { throttling?: boolean } } | null;
  return typeof e?.name === 'string' && (THROTTLING_NAMES.has(e.name) || e.$retryable?.throttling === true);
}

export const SERVICE_BUSY_RETRY_SECONDS = 2;
export const serviceBusy = () =>
  new HttpError(
    503,
    'service_busy',
    'We are busy right now. Please try again in a moment.',
    { retryAfterSeconds: SERVICE_BUSY_RETRY_SECONDS },
    { 'retry-after': String(SERVICE_BUSY_RETRY_SECONDS) },
  );

/**
 * A backing service (DynamoDB, S3, Cognito, SES, Lambda) that did not answer at all after the
 * SDK's retries: refused or dropped connections, timeouts, name lookups that failed, or the
 * service saying it is unavailable. Nothing was wrong with the request, so the client is told to
 * come back (503 + Retry-After) with a code of its own, not a generic 500.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
]);

export function isServiceUnavailable(err: unknown): boolean {
  // The SDK rethrows the socket's error, sometimes wrapped (cause) or grouped (AggregateError of
  // each address tried): look a few levels down.
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e) || depth > 4) return false;
    seen.add(e);
    const x = e as {
      name?: unknown;
      code?: unknown;
      cause?: unknown;
      errors?: unknown;
      $metadata?: { httpStatusCode?: unknown };
    };
    if (typeof x.code === 'string' && UNREACHABLE_CODES.has(x.code)) return true;
    if (typeof x.name === 'string' && UNAVAILABLE_NAMES.has(x.name)) return true;
    if (x.$metadata?.httpStatusCode === 503 && !isThrottling(e)) return true;
    if (Array.isArray(x.errors) && x.errors.some((inner) => visit(inner, depth + 1))) return true;
    return visit(x.cause, depth + 1);
  };
  return visit(err, 0);
}

export const SERVICE_UNAVAILABLE_RETRY_SECONDS = 5;
export const serviceUnavailable = () =>
  new HttpError(
    503,
    'service_unavailable',
    'The service is unavailable right now. Please try again shortly.',
    { retryAfterSeconds: SERVICE_UNAVAILABLE_RETRY_SECONDS },
    { 'retry-after': String(SERVICE_UNAVAILABLE_RETRY_SECONDS) },
  );

export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}
