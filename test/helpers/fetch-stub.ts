import { vi } from 'vitest';

/**
 * Replaces the global fetch for unit tests of code that talks to AWS through functions/lib/aws:
 * the test answers at the HTTP boundary (status, headers, body as AWS would send them) and
 * asserts the requests as they went on the wire, signed. Nothing of the layer itself is mocked.
 */
export interface SentRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  /** the body bytes, as sent */
  readonly body: Buffer;
  readonly signal: AbortSignal | undefined;
  /** `x-amz-target` operation (JSON protocols), e.g. GetItem */
  readonly target: string | undefined;
  json<T = Record<string, unknown>>(): T;
}

export type FetchHandler = (req: SentRequest) => Response | Promise<Response>;

export function stubFetch(handler: FetchHandler): { readonly calls: SentRequest[]; restore(): void } {
  const calls: SentRequest[] = [];
  const fake = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers = new Headers(init.headers);
    const raw = init.body;
    const body = raw === undefined || raw === null ? Buffer.alloc(0) : typeof raw === 'string' ? Buffer.from(raw) : Buffer.from(raw as Uint8Array);
    const target = headers.get('x-amz-target')?.split('.').pop();
    const req: SentRequest = {
      method: init.method ?? 'GET',
      url,
      headers,
      body,
      signal: init.signal ?? undefined,
      target,
      json: <T>() => JSON.parse(body.toString('utf8')) as T,
    };
    calls.push(req);
    init.signal?.throwIfAborted();
    const res = await handler(req);
    init.signal?.throwIfAborted();
    return res;
  };
  vi.stubGlobal('fetch', fake);
  return { calls, restore: () => vi.unstubAllGlobals() };
}

/** An AWS JSON answer (DynamoDB, Cognito, SES, Lambda). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/x-amz-json-1.0', ...headers } });
}

/** An AWS JSON error: `__type` as DynamoDB and Cognito send it. */
export function jsonError(status: number, type: string, message: string, extra: Record<string, unknown> = {}): Response {
  return jsonResponse({ __type: type, message, ...extra }, status);
}

/** An S3 XML error document. */
export function s3Error(status: number, code: string, message = code): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>r</RequestId></Error>`, {
    status,
    headers: { 'content-type': 'application/xml' },
  });
}

export function xmlResponse(xml: string, status = 200): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`, { status, headers: { 'content-type': 'application/xml' } });
}

/** Bucket and key of an S3 request, virtual-hosted (`{bucket}.s3.{region}.amazonaws.com`) or path style. */
export function s3Target(url: URL): { bucket: string; key: string } {
  const host = /^([^.]+)\.s3\.[^.]+\.amazonaws\.com$/u.exec(url.hostname);
  const segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
  if (host) return { bucket: host[1]!, key: segments.join('/') };
  return { bucket: segments[0]!, key: segments.slice(1).join('/') };
}
