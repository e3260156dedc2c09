/**
 * One presigned PUT straight to the bucket. In the browser this uses XMLHttpRequest, the only
 * API with upload progress events (fetch has none); under Node (tests, benchmarks) it uses
 * fetch. Either way the caller gets the status, the ETag and S3's request id, or a
 * TransportError when no answer arrived at all.
 */

/** The transport failed before any HTTP answer: offline, connection reset, CORS, unreadable body. */
export class TransportError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransportError';
  }
}

export interface PutResult {
  readonly status: number;
  readonly etag: string | null;
  readonly requestId: string | null;
  /** the response body when the answer is not 2xx (S3's XML error), else '' */
  readonly errorBody: string;
}

/** A file slice (streamed from disk), or bytes already read: sent as they are, never copied into a Blob. */
export type PutBody = Blob | Uint8Array<ArrayBuffer>;

export type PutFn = (
  url: string,
  body: PutBody,
  signal: AbortSignal,
  onProgress?: (loaded: number) => void,
) => Promise<PutResult>;

/** XHR gives no reason for a network failure; this is the spec's upload error text. */
export const COULD_NOT_SEND_DATA = 'Could not send Data';

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('Aborted', 'AbortError');
}

export function fetchPut(fetchImpl: typeof fetch): PutFn {
  return async (url, body, signal) => {
    let res: Response;
    try {
      res = await fetchImpl(url, { method: 'PUT', body, signal });
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      throw new TransportError(err instanceof Error ? err.message : String(err), { cause: err });
    }
    let errorBody = '';
    try {
      // Read the body to the end either way so the connection goes back to the pool.
      const text = await res.text();
      if (!res.ok) errorBody = text;
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      if (res.ok) throw new TransportError(err instanceof Error ? err.message : String(err), { cause: err });
    }
    return {
      status: res.status,
      etag: res.headers.get('etag'),
      requestId: res.headers.get('x-amz-request-id'),
      errorBody,
    };
  };
}

export const xhrPut: PutFn = (url, body, signal, onProgress) =>
  new Promise<PutResult>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    xhr.open('PUT', url);
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      done();
      resolve({
        status: xhr.status,
        etag: xhr.getResponseHeader('etag'),
        requestId: xhr.getResponseHeader('x-amz-request-id'),
        errorBody: xhr.status >= 200 && xhr.status < 300 ? '' : xhr.responseText,
      });
    };
    xhr.onerror = () => {
      done();
      reject(new TransportError(COULD_NOT_SEND_DATA));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(signal.aborted ? abortError(signal) : new TransportError(COULD_NOT_SEND_DATA));
    };
    xhr.send(body);
  });

/** XHR in a browser (progress events), fetch otherwise or when one is passed in. */
export function defaultPut(fetchImpl?: typeof fetch): PutFn {
  if (!fetchImpl && typeof XMLHttpRequest !== 'undefined') return xhrPut;
  return fetchPut(fetchImpl ?? globalThis.fetch.bind(globalThis));
}

/** S3's XML error: `<Code>` and `<Message>`, if present. */
export function parseS3Error(body: string): { code?: string; message?: string } {
  const code = /<Code>([^<]*)<\/Code>/u.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/u.exec(body)?.[1];
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}

const AUTH_CODES = new Set([
  'AccessDenied',
  'ExpiredToken',
  'InvalidAccessKeyId',
  'InvalidToken',
  'SignatureDoesNotMatch',
  'TokenRefreshRequired',
  'AuthorizationQueryParametersError',
  'RequestTimeTooSkewed',
]);

/**
 * Spec §8: an expired token or invalid key means the URL is spent and a freshly signed one
 * is needed. S3 answers those with 403, a few with 400 and an auth error code.
 */
export function isAuthFailure(status: number, errorBody: string): boolean {
  if (status === 403) return true;
  if (status !== 400) return false;
  const { code } = parseS3Error(errorBody);
  return code !== undefined && AUTH_CODES.has(code);
}
