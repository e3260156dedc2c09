import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { vi } from 'vitest';

/**
 * Answers the AWS SDK's HTTP requests in unit tests: every SDK client in Node sends through
 * @smithy/node-http-handler's NodeHttpHandler, whose `handle` is replaced here. The test answers
 * at the HTTP boundary (status, headers, body as AWS would send them) and asserts the requests as
 * they went on the wire, serialised and signed by the SDK. Nothing of the SDK (serialisation,
 * signing, retries, error parsing) is mocked.
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

/** An answer whose body is a Node stream as is (a body that breaks mid-way, a slow one). */
export interface StreamAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly stream: Readable;
}

export type HttpHandler = (req: SentRequest) => Response | StreamAnswer | Promise<Response | StreamAnswer>;

interface SmithyRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

function urlOf(r: SmithyRequest): URL {
  const query = Object.entries(r.query ?? {})
    .flatMap(([k, v]) =>
      v === null ? [k] : (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`),
    )
    .join('&');
  return new URL(`${r.protocol}//${r.hostname}${r.port ? `:${r.port}` : ''}${r.path}${query ? `?${query}` : ''}`);
}

async function bodyOf(body: unknown): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  // A copy: the sender may reuse its buffer once the request is answered (the ZIP job's part
  // buffers). Through a plain view: the SDK's JSON bodies are a Uint8Array subclass whose
  // valueOf (which Buffer.from calls) is its text.
  if (body instanceof Uint8Array) return Buffer.from(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  if (body instanceof Readable) {
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(Buffer.from(c as Uint8Array));
    return Buffer.concat(chunks);
  }
  throw new Error(`http-stub: unsupported request body ${typeof body}`);
}

export function stubHttp(handler: HttpHandler): { readonly calls: SentRequest[]; restore(): void } {
  const calls: SentRequest[] = [];
  const spy = vi.spyOn(NodeHttpHandler.prototype, 'handle').mockImplementation(async (request, options = {}) => {
    const r = request as unknown as SmithyRequest;
    const headers = new Headers(r.headers);
    const body = await bodyOf(r.body);
    const signal = options.abortSignal as AbortSignal | undefined;
    const req: SentRequest = {
      method: r.method,
      url: urlOf(r),
      headers,
      body,
      signal,
      target: headers.get('x-amz-target')?.split('.').pop(),
      json: <T>() => JSON.parse(body.toString('utf8')) as T,
    };
    calls.push(req);
    signal?.throwIfAborted();
    const res = await handler(req);
    signal?.throwIfAborted();
    if (!(res instanceof Response))
      return { response: { statusCode: res.status, headers: res.headers, body: res.stream } } as never;
    const out: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      out[k] = v;
    });
    const stream = res.body ? Readable.fromWeb(res.body as NodeWebReadableStream<Uint8Array>) : Readable.from([]);
    return { response: { statusCode: res.status, reason: res.statusText, headers: out, body: stream } } as never;
  });
  return { calls, restore: () => spy.mockRestore() };
}

/** An AWS JSON answer (DynamoDB, Cognito, SES, Lambda). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/x-amz-json-1.0', ...headers },
  });
}

/** An AWS JSON error: `__type` as DynamoDB and Cognito send it. */
export function jsonError(
  status: number,
  type: string,
  message: string,
  extra: Record<string, unknown> = {},
): Response {
  return jsonResponse({ __type: type, message, ...extra }, status);
}

/** An S3 XML error document. */
export function s3Error(status: number, code: string, message = code): Response {
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>r</RequestId></Error>`,
    {
      status,
      headers: { 'content-type': 'application/xml' },
    },
  );
}

export function xmlResponse(xml: string, status = 200): Response {
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`, {
    status,
    headers: { 'content-type': 'application/xml' },
  });
}

/** Bucket and key of an S3 request, virtual-hosted (`{bucket}.s3.{region}.amazonaws.com`) or path style. */
export function s3Target(url: URL): { bucket: string; key: string } {
  const host = /^([^.]+)\.s3\.[^.]+\.amazonaws\.com$/u.exec(url.hostname);
  const segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
  if (host) return { bucket: host[1]!, key: segments.join('/') };
  return { bucket: segments[0]!, key: segments.slice(1).join('/') };
}
