import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { problemsOf, type Problem } from '../domain/validation';
import {
  HttpError,
  ValidationError,
  badRequest,
  isHttpError,
  isServiceUnavailable,
  isThrottling,
  payloadTooLarge,
  serviceBusy,
  serviceUnavailable,
  unsupportedMediaType,
} from './errors';
import { errorFields, log } from './log';
import { originVerifySecret } from './env';
import { safeEqual } from './secrets';
import type { JwtClaims } from './jwt-claims';
import { ORIGIN_VERIFY_HEADER } from '../routes';
import { assertAccessTokenLive } from '../services/accounts-sessions';

/**
 * The one middy stack every HTTP handler uses (conventions §2): log context, body/query/path
 * parsing with the route's zod schemas, and the error handler, so a handler file holds only
 * its logic. The event shape is API Gateway HTTP API payload v2.0 (also built by the local gateway).
 */
export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export interface Schemas {
  readonly body?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly params?: z.ZodMiniType;
}

type Parsed<T> = T extends z.ZodMiniType ? z.output<T> : undefined;

export type { JwtClaims } from './jwt-claims';

export interface HttpRequest<S extends Schemas> {
  readonly body: Parsed<S['body']>;
  readonly query: Parsed<S['query']>;
  readonly params: Parsed<S['params']>;
  readonly event: HttpEvent;
  readonly context: Context;
  /** JWT claims placed by the authorizer on `auth: 'jwt'` routes */
  readonly claims: JwtClaims | undefined;
  readonly sourceIp: string;
  header(name: string): string | undefined;
}

export interface Reply {
  readonly status?: number;
  readonly body?: unknown;
  /** a body sent as is instead of JSON (e.g. a CSV download); say its type in `headers` */
  readonly text?: string;
  readonly headers?: Record<string, string>;
  readonly cookies?: string[];
}

/** JSON bodies above this are refused before parsing (API Gateway itself caps at 10 MB). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Every answer: JSON, never cached (tokens and private data), never sniffed into another type. */
const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

function errorResponse(err: HttpError): HttpResult {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err instanceof ValidationError && err.field !== undefined) error.field = err.field;
  if (err.details !== undefined) error.details = err.details;
  return { statusCode: err.statusCode, headers: { ...BASE_HEADERS, ...err.headers }, body: JSON.stringify({ error }) };
}

/**
 * How a route answers input its schema refused, from the problems found; undefined leaves the
 * answer to the default (400 invalid_request).
 */
export type InvalidInput = (problems: readonly Problem[], where: string) => HttpError | undefined;

/**
 * 400 invalid_request: every zod issue as `{ code, field, message }` (domain/validation.ts
 * problemOf: stable codes, English messages), the first one's field at the top.
 */
function parsePart(schema: z.ZodMiniType | undefined, value: unknown, where: string, invalid?: InvalidInput): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = problemsOf(result.error);
    const own = invalid?.(problems, where);
    if (own) throw own;
    const first = problems[0];
    const message = first ? `${where}: ${first.field || where} ${first.message}`.trim() : `Invalid ${where}`;
    throw new ValidationError('invalid_request', message, problems, { where });
  }
  return result.data;
}

function readJsonBody(event: HttpEvent): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(raw) > MAX_JSON_BODY_BYTES)
    throw payloadTooLarge('body_too_large', 'Request body is too large');
  const type = (event.headers?.['content-type'] ?? '').toLowerCase();
  // text/plain too: navigator.sendBeacon and CORS-simple requests cannot send application/json.
  if (type && !type.startsWith('application/json') && !type.startsWith('text/plain')) throw unsupportedMediaType();
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('invalid_json', 'Request body is not valid JSON');
  }
}

interface Internal extends Record<string, unknown> {
  startedAt?: number;
}

/** What `parseWith` produced for an event; middy hands the handler only (event, context). */
const parsedByEvent = new WeakMap<HttpEvent, { body: unknown; query: unknown; params: unknown }>();

type Mw = MiddlewareObj<HttpEvent, HttpResult, Error, Context, Internal>;

const logContext = (): Mw => ({
  before: (request) => {
    request.internal.startedAt = Date.now();
  },
  after: (request) => {
    log.info('request', {
      route: request.event.routeKey,
      status: request.response?.statusCode,
      ms: Date.now() - (request.internal.startedAt ?? Date.now()),
      requestId: request.context.awsRequestId,
    });
  },
});

const parseWith = (schemas: Schemas, invalid?: InvalidInput): Mw => ({
  before: (request) => {
    const { event } = request;
    const query = Object.fromEntries(new URLSearchParams(event.rawQueryString ?? ''));
    parsedByEvent.set(event, {
      body: schemas.body ? parsePart(schemas.body, readJsonBody(event), 'body', invalid) : undefined,
      query: parsePart(schemas.query, query, 'query', invalid),
      params: parsePart(schemas.params, event.pathParameters ?? {}, 'path', invalid),
    });
  },
});

/** Claims an `authorize` step found for an event (the API key's user). */
const authorizedByEvent = new WeakMap<HttpEvent, JwtClaims>();

/**
 * a route's own authorizer, run before its input is parsed (so a caller without a
 * credential learns nothing about the schema): API keys on `auth: 'key'` routes
 * (services/api-keys.ts). What it returns is the request's `claims`.
 */
export type Authorize = (event: HttpEvent) => Promise<JwtClaims>;

const authorizeWith = (authorize: Authorize): Mw => ({
  before: async (request) => {
    authorizedByEvent.set(request.event, await authorize(request.event));
  },
});

/**
 * `auth: 'jwt'` routes: the authorizer checked the token's signature and expiry; this refuses
 * one of an ended session or past the maximum age (at most one GetItem, services/accounts-sessions.ts).
 */
const sessionCheck = (): Mw => ({
  before: async (request) => {
    const claims = request.event.requestContext?.authorizer?.jwt?.claims as JwtClaims | undefined;
    if (claims) await assertAccessTokenLive(claims);
  },
});

/**
 * Runs last on the way out: typed errors become their status, AWS throttling and an unreachable
 * backing service a 503 to retry (each with its code); anything else a logged 500.
 */
const errorHandler = (): Mw => ({
  onError: (request) => {
    const err = request.error;
    if (isHttpError(err) && err.expose) {
      request.response = errorResponse(err);
      return;
    }
    if (isThrottling(err)) {
      log.warn('throttled by AWS', {
        route: request.event.routeKey,
        requestId: request.context.awsRequestId,
        ...errorFields(err),
      });
      request.response = errorResponse(serviceBusy());
      return;
    }
    if (isServiceUnavailable(err)) {
      log.error('backing service unavailable', {
        route: request.event.routeKey,
        requestId: request.context.awsRequestId,
        ...errorFields(err),
      });
      request.response = errorResponse(serviceUnavailable());
      return;
    }
    log.error('unhandled error', {
      route: request.event.routeKey,
      requestId: request.context.awsRequestId,
      ...errorFields(err),
    });
    request.response = errorResponse(
      new HttpError(500, 'internal_error', 'Sorry, something went wrong. Please try again.'),
    );
  },
});

/**
 * The handler of one route. Its request `schemas` stay readable on it so tests can derive
 * requests from them (test/integration/fuzz.test.ts fuzzes every route of the table).
 */
export function httpRoute<S extends Schemas>(
  schemas: S,
  fn: (req: HttpRequest<S>) => Promise<Reply>,
  opts: { readonly authorize?: Authorize; readonly invalid?: InvalidInput } = {},
) {
  const handler = middy<HttpEvent, HttpResult, Error, Context, Internal>()
    .use([
      logContext(),
      errorHandler(),
      opts.authorize ? authorizeWith(opts.authorize) : sessionCheck(),
      parseWith(schemas, opts.invalid),
    ])
    .handler(async (event, context) => {
      const parsed = parsedByEvent.get(event);
      const headers = event.headers ?? {};
      const reply = await fn({
        body: parsed?.body as Parsed<S['body']>,
        query: parsed?.query as Parsed<S['query']>,
        params: parsed?.params as Parsed<S['params']>,
        event,
        context,
        claims: opts.authorize
          ? authorizedByEvent.get(event)
          : (event.requestContext?.authorizer?.jwt?.claims as JwtClaims | undefined),
        sourceIp: clientAddressOf(headers, event.requestContext?.http?.sourceIp),
        header: (name) => headers[name.toLowerCase()],
      });
      return toResult(reply);
    });
  return Object.assign(handler, { schemas: schemas as Schemas });
}

/**
 * The client's address. Behind CloudFront, API Gateway's `sourceIp` is an edge server's, so
 * limits per client use CloudFront's `CloudFront-Viewer-Address` (`ip:port`, forwarded by the
 * `/api/*` origin request policy) — but only when the request carries CloudFront's secret
 * origin header: a caller of the execute-api endpoint itself could set any viewer address, and
 * is then known by its own source IP. Without a configured secret nothing is trusted: locally
 * the app origin plays CloudFront with a secret of its own (scripts/local/edge.ts).
 */
export function clientAddressOf(
  headers: Record<string, string | undefined>,
  sourceIp: string | undefined,
  originSecret = originVerifySecret(),
): string {
  const viewer = headers['cloudfront-viewer-address']?.trim();
  const viaCloudFront = originSecret !== undefined && safeEqual(headers[ORIGIN_VERIFY_HEADER] ?? '', originSecret);
  if (viewer && viaCloudFront) {
    const cut = viewer.lastIndexOf(':');
    const ip = (cut > 0 ? viewer.slice(0, cut) : viewer).replace(/^\[|\]$/g, '');
    if (/^[0-9a-fA-F:.]{2,45}$/.test(ip)) return ip;
  }
  return sourceIp ?? '';
}

export function toResult(reply: Reply): HttpResult {
  const result: HttpResult = {
    statusCode: reply.status ?? 200,
    headers: { ...BASE_HEADERS, ...reply.headers },
    body: reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)),
  };
  if (reply.cookies?.length) result.cookies = reply.cookies;
  return result;
}
