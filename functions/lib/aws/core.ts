/**
 * The signed-HTTP core of the AWS layer (docs/decisions.md, "Lambda bundles"): SigV4 by
 * aws4fetch over Node's fetch, credentials from the environment, the SDK's standard retry
 * policy (3 attempts, exponential backoff with full jitter) and a per-attempt timeout.
 * Service modules beside this one build the requests and read the answers.
 */
import { AwsV4Signer } from 'aws4fetch';

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/**
 * An AWS error answer (or a failure to get one). `name` is the service's error code, as the SDK
 * names its exceptions (ConditionalCheckFailedException, NoSuchKey, NotFound for a HEAD 404,
 * UsernameExistsException...); `$metadata.httpStatusCode` is the HTTP status (undefined when no
 * answer arrived). Service-specific members (DynamoDB's CancellationReasons) are copied on.
 */
export class AwsError extends Error {
  readonly $metadata: { httpStatusCode?: number; requestId?: string; attempts?: number };
  readonly $fault: 'client' | 'server';
  constructor(name: string, message: string, httpStatusCode: number | undefined, extra?: Record<string, unknown>, requestId?: string) {
    super(message || name);
    this.name = name;
    this.$metadata = { ...(httpStatusCode !== undefined ? { httpStatusCode } : {}), ...(requestId ? { requestId } : {}) };
    this.$fault = httpStatusCode !== undefined && httpStatusCode < 500 ? 'client' : 'server';
    if (extra) Object.assign(this, extra);
  }
}

/** Lambda hands every function its role's credentials in these variables; locally the stack sets them. */
export function envCredentials(env: NodeJS.ProcessEnv = process.env): AwsCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new AwsError('CredentialsProviderError', 'AWS credentials are not in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)', undefined);
  }
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
}

/** `https://{prefix}.{region}.amazonaws.com` (`.com.cn` in the China partition), unless configured otherwise. */
export function serviceEndpoint(prefix: string, region: string, override: string | undefined): string {
  if (override) return override.replace(/\/+$/u, '');
  return `https://${prefix}.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
}

// ---- retry policy (the SDK's "standard" mode) ------------------------------------------------

export const MAX_ATTEMPTS = 3;
export const BASE_DELAY_MS = 100;
export const MAX_DELAY_MS = 20_000;

/** Error codes the SDK retries whatever their status (throttling and transient codes). */
const RETRYABLE_CODES = new Set([
  // throttling
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
  // transient
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalError',
]);

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * Whether a failed attempt may be tried again: a network failure or timeout (no answer), a
 * 429 or 5xx, or a throttling/transient code. Never another 4xx, never the caller's abort.
 */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof AwsError)) return false;
  if (RETRYABLE_CODES.has(err.name)) return true;
  const status = err.$metadata.httpStatusCode;
  // No answer at all: the connection failed (networkError) or the attempt timed out.
  if (status === undefined) return err.name !== 'CredentialsProviderError';
  return RETRYABLE_STATUS.has(status);
}

/**
 * fetch rejects with a TypeError ("fetch failed", or "terminated" when a body breaks) whose
 * cause is the socket's error: named by its code (ECONNREFUSED, ECONNRESET...), without status.
 */
export function networkError(err: unknown, service: string): unknown {
  if (!(err instanceof TypeError) || !(err.cause || err.message === 'fetch failed' || err.message === 'terminated')) return err;
  const cause = err.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : 'NetworkError';
  const detail = typeof cause?.message === 'string' && cause.message ? cause.message : err.message;
  return new AwsError(code, `${service}: ${detail}`, undefined, { cause: err });
}

/** Full jitter: a random delay up to min(20 s, 100 ms × 2^(attempt-1)). */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1)));
}

// ---- requests --------------------------------------------------------------------------------

/** Default time for one attempt: connect, send, and (unless streamed) read the answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface AwsRequest {
  /** SigV4 signing name: dynamodb, s3, ses, cognito-idp, lambda */
  readonly service: string;
  readonly region: string;
  readonly method: string;
  /** absolute, path and query already encoded */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** only replayable bodies: every attempt sends it again */
  readonly body?: string | Uint8Array;
  /** the caller's abort: stops the attempt and any retry */
  readonly signal?: AbortSignal;
  /** per attempt; default DEFAULT_TIMEOUT_MS */
  readonly timeoutMs?: number;
  /** Cognito's public operations (InitiateAuth, RevokeToken) are sent unsigned, as the SDK does */
  readonly unsigned?: boolean;
  /** default: the environment's (envCredentials), read at each attempt */
  readonly credentials?: AwsCredentials;
}

/** Turns a non-2xx answer into an AwsError (the body is read by the parser). */
export type ErrorParser = (res: Response) => Promise<AwsError>;

export interface SendOptions<T> {
  readonly parseError: ErrorParser;
  /** reads a 2xx answer while the attempt's timeout still runs; may throw an AwsError (S3's 200 with an error body) */
  readonly read: (res: Response) => Promise<T>;
  /** test seam: the delay between attempts */
  readonly sleep?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function signRequest(req: AwsRequest, credentials: AwsCredentials = envCredentials()): Promise<{ url: string; headers: Headers }> {
  const signer = new AwsV4Signer({
    method: req.method,
    url: req.url,
    headers: req.headers ?? {},
    ...(req.body !== undefined ? { body: req.body as BodyInit } : {}),
    service: req.service,
    region: req.region,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
  });
  const signed = await signer.sign();
  return { url: req.url, headers: signed.headers };
}

/**
 * Sends a signed request with retries: every attempt is signed afresh (new date), has its own
 * timeout, and ends when `read` resolves. A non-2xx answer becomes the parser's AwsError.
 */
export async function send<T>(req: AwsRequest, opts: SendOptions<T>): Promise<T> {
  const wait = opts.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptOnce(req, opts);
    } catch (err) {
      if (req.signal?.aborted || attempt >= MAX_ATTEMPTS || !isRetryable(err)) {
        if (err instanceof AwsError) (err.$metadata as { attempts?: number }).attempts = attempt;
        throw err;
      }
      await wait(retryDelayMs(attempt));
    }
  }
}

async function attemptOnce<T>(req: AwsRequest, opts: SendOptions<T>): Promise<T> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new AwsError('TimeoutError', `no answer from ${req.service} within ${timeoutMs} ms`, undefined)), timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timer.signal]) : timer.signal;
  try {
    const headers = req.unsigned ? new Headers(req.headers ?? {}) : (await signRequest(req, req.credentials ?? envCredentials())).headers;
    let res: Response;
    try {
      res = await fetch(req.url, { method: req.method, headers, signal, redirect: 'manual', ...(req.body !== undefined ? { body: req.body as BodyInit } : {}) });
    } catch (err) {
      // Our timeout aborts with its AwsError as the reason; fetch rethrows that reason.
      if (timer.signal.aborted && !req.signal?.aborted) throw timer.signal.reason as AwsError;
      throw err;
    }
    if (res.status < 200 || res.status >= 300) throw await opts.parseError(res);
    return await opts.read(res);
  } catch (err) {
    if (timer.signal.aborted && !req.signal?.aborted && !(err instanceof AwsError)) throw timer.signal.reason as AwsError;
    throw networkError(err, req.service);
  } finally {
    clearTimeout(timeout);
  }
}

/** The code in an AWS JSON error (`__type` or `code`, namespace and URL parts dropped) or x-amzn-ErrorType. */
export function jsonErrorCode(headerType: string | null, body: Record<string, unknown> | undefined): string | undefined {
  const raw = headerType || (typeof body?.__type === 'string' ? body.__type : undefined) || (typeof body?.code === 'string' ? body.code : undefined);
  if (!raw) return undefined;
  return raw.split(':')[0]!.split('#').pop()!;
}

/** Parser for the JSON protocols (DynamoDB, Cognito, SES v2, Lambda). */
export const parseJsonError: ErrorParser = async (res) => {
  const text = await res.text().catch(() => '');
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // not JSON (a proxy's page): the status decides
  }
  const code = jsonErrorCode(res.headers.get('x-amzn-errortype'), body) ?? `Http${res.status}Error`;
  const message = typeof body?.message === 'string' ? body.message : typeof body?.Message === 'string' ? body.Message : text.slice(0, 200);
  const { __type: _t, message: _m, Message: _M, code: _c, ...extra } = body ?? {};
  return new AwsError(code, message, res.status, extra, res.headers.get('x-amzn-requestid') ?? undefined);
};

/** POST of an AWS JSON 1.0/1.1 operation (X-Amz-Target), answering the parsed JSON. */
export function jsonRpc<T>(
  target: { service: string; region: string; endpoint: string; targetPrefix: string; jsonVersion: '1.0' | '1.1'; unsigned?: boolean },
  operation: string,
  input: unknown,
  reviver?: (key: string, value: unknown) => unknown,
): Promise<T> {
  return send(
    {
      service: target.service,
      region: target.region,
      method: 'POST',
      url: `${target.endpoint}/`,
      headers: { 'content-type': `application/x-amz-json-${target.jsonVersion}`, 'x-amz-target': `${target.targetPrefix}.${operation}` },
      body: JSON.stringify(input, jsonReplacer),
      ...(target.unsigned ? { unsigned: true } : {}),
    },
    { parseError: parseJsonError, read: async (res) => parseJson<T>(await res.text(), reviver) },
  );
}

/** Bytes travel as base64 in the JSON protocols. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
}

export function parseJson<T>(text: string, reviver?: (key: string, value: unknown) => unknown): T {
  return (text ? JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown) : {}) as T;
}
