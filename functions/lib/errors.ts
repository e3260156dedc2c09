/**
 * Typed HTTP errors with stable codes (conventions §3). Handlers throw these; the error
 * middleware in `http.ts` turns them into `{ error: { code, message } }`. Only 4xx messages
 * reach the client; anything else is logged and answered as a generic 500.
 */
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

export const badRequest = (code: string, message: string, details?: unknown) =>
  new HttpError(400, code, message, details);
export const unauthorized = (code = 'unauthorized', message = 'Unauthorized') =>
  new HttpError(401, code, message);
export const forbidden = (code = 'forbidden', message = 'Forbidden') => new HttpError(403, code, message);
export const notFound = (code = 'not_found', message = 'Not found') => new HttpError(404, code, message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);
export const gone = (code: string, message: string, details?: unknown) => new HttpError(410, code, message, details);
export const payloadTooLarge = (code: string, message: string) => new HttpError(413, code, message);
export const unsupportedMediaType = (message = 'Content-Type must be application/json') =>
  new HttpError(415, 'unsupported_media_type', message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests, try again later.') =>
  new HttpError(429, 'rate_limited', message, undefined, { 'retry-after': String(retryAfterSeconds) });

export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}
