import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import {
  API_CORS,
  API_PREFIX,
  DEFAULT_ROUTE_TIMEOUT_SECONDS,
  ORIGIN_VERIFY_HEADER,
  functionGroupOf,
  routeKeyOf,
  type JobDef,
  type RouteDef,
} from '../../../functions/routes';
import { createDispatcher } from '../../../functions/lib/dispatch';
import { safeEqual } from '../../../functions/lib/secrets';
import { isLoopbackHost, refuseHost } from '../../../frontend/custom-hosts';
import { createRouter } from './router';
import { buildEvent } from './event';

/**
 * The HTTP API's and Lambda's limits, held locally so a local run or a test fails where AWS would:
 * - a request body over 10 MB: 413 before any function runs;
 * - the request line and header values over 10,240 bytes together: refused before any route;
 * - a function's synchronous response over 6 MB (Lambda's invoke payload limit, measured on the
 *   serialised result as Lambda does): the invoke fails, so the HTTP API answers 500;
 * - no answer from the integration within 30 s (the HTTP API's maximum; route timeouts stay at
 *   29 s or less): 503, as the HTTP API answers a timed-out integration.
 */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_REQUEST_HEADER_BYTES = 10_240;
export const MAX_LAMBDA_RESPONSE_BYTES = 6 * 1024 * 1024;
export const INTEGRATION_TIMEOUT_MS = 30_000;

type Handler = (event: unknown, context: Context) => Promise<unknown>;

export interface GatewayOptions {
  readonly routes: readonly RouteDef[];
  readonly jobs?: readonly JobDef[];
  /** absolute path of `functions/` */
  readonly functionsDir: string;
  /** returns claims for a valid access token, undefined otherwise */
  readonly checkJwt: (authorization: string | undefined) => Promise<Record<string, string> | undefined>;
  /** origins CORS answers for (the CDK HTTP API's corsPreflight.allowOrigins) */
  readonly corsOrigins: readonly string[];
  readonly log?: (line: string) => void;
  /** the Lambda function serving a route (default: its group in functions/routes.ts FUNCTION_GROUPS) */
  readonly functionOf?: (route: RouteDef) => string;
  /**
   * The secret the app origin adds as CloudFront does (scripts/local/edge.ts): a request with it
   * came through the app origin, whose own gate already judged its Host (a verified custom domain).
   */
  readonly originSecret?: string;
  /** CloudFront's response headers policy (frontend/csp.ts securityHeaders), on every answer */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  /**
   * tests only: another integration timeout than the HTTP API's 30 s: shorter to see the 503, or
   * longer on a loaded test machine, where a handler runs many times slower than in Lambda
   */
  readonly integrationTimeoutMs?: number;
}

interface LocalFunction {
  readonly name: string;
  readonly dispatch: ReturnType<typeof createDispatcher>;
  readonly timeoutS: number;
  readonly memoryMb: number | undefined;
}

function lambdaContext(name: string, timeoutS: number, memoryMb = 1024): Context {
  const deadline = Date.now() + timeoutS * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: `local-${name.replace(/\W+/g, '-')}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:local-${name.replace(/\W+/g, '-')}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/local-${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const moduleUrl = (functionsDir: string, modulePath: string) =>
  pathToFileURL(path.join(functionsDir, `${modulePath}.ts`)).href;

/**
 * The HTTP API's functions as CDK deploys them: one per group of routes, each with the same
 * dispatcher as the Lambda entry, the group's longest timeout and largest memory.
 */
export function createLocalFunctions(
  routes: readonly RouteDef[],
  functionsDir: string,
  functionOf: (route: RouteDef) => string = functionGroupOf,
) {
  const groups = new Map<string, RouteDef[]>();
  for (const route of routes) groups.set(functionOf(route), [...(groups.get(functionOf(route)) ?? []), route]);
  const byRouteKey = new Map<string, LocalFunction>();
  for (const [name, defs] of groups) {
    const memory = defs.map((d) => d.memoryMb).filter((m): m is number => m !== undefined);
    const fn: LocalFunction = {
      name,
      dispatch: createDispatcher(
        Object.fromEntries(
          defs.map((d) => [
            routeKeyOf(d),
            () => import(moduleUrl(functionsDir, d.handler)) as Promise<{ handler?: unknown }>,
          ]),
        ),
      ),
      timeoutS: Math.max(...defs.map((d) => d.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_SECONDS)),
      memoryMb: memory.length ? Math.max(...memory) : undefined,
    };
    for (const d of defs) byRouteKey.set(routeKeyOf(d), fn);
  }
  return (route: RouteDef): LocalFunction => byRouteKey.get(routeKeyOf(route))!;
}

/** Imports one module (a job's) once; benches use it to call a route's handler directly. */
export function createHandlerLoader(functionsDir: string) {
  const cache = new Map<string, Promise<Handler>>();
  /** Imports only the module a route or job names, once. */
  return function load(modulePath: string): Promise<Handler> {
    let p = cache.get(modulePath);
    if (!p) {
      p = import(moduleUrl(functionsDir, modulePath)).then((mod: { handler?: unknown }) => {
        if (typeof mod.handler !== 'function') throw new Error(`${modulePath} does not export handler`);
        return mod.handler as Handler;
      });
      p.catch(() => cache.delete(modulePath));
      cache.set(modulePath, p);
    }
    return p;
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`${label} timed out after ${ms} ms`), { timeout: true })),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The API Gateway v2 rules for turning a Lambda result into an HTTP response. */
export function normaliseResult(
  result: unknown,
): Required<Pick<APIGatewayProxyStructuredResultV2, 'statusCode'>> & APIGatewayProxyStructuredResultV2 {
  if (result && typeof result === 'object' && 'statusCode' in result) {
    return result as APIGatewayProxyStructuredResultV2 & { statusCode: number };
  }
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: typeof result === 'string' ? result : JSON.stringify(result ?? null),
  };
}

function corsHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> {
  if (!origin || !allowed.includes(origin)) return {};
  const h: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'origin' };
  if (API_CORS.allowCredentials) h['access-control-allow-credentials'] = 'true';
  if (API_CORS.exposeHeaders.length) h['access-control-expose-headers'] = API_CORS.exposeHeaders.join(',');
  return h;
}

/** The HTTP API's measure of a request's head: the request line and every header value. */
export function requestHeadBytes(req: http.IncomingMessage): number {
  let bytes = Buffer.byteLength(`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}`);
  for (let i = 1; i < req.rawHeaders.length; i += 2) bytes += Buffer.byteLength(req.rawHeaders[i]!);
  return bytes;
}

/** The size of a function's synchronous result as Lambda counts it: its JSON serialisation. */
export function lambdaResponseBytes(raw: unknown): number {
  return typeof raw === 'string'
    ? Buffer.byteLength(JSON.stringify(raw))
    : Buffer.byteLength(JSON.stringify(raw ?? null) ?? '');
}

class IntegrationTimeout extends Error {}

function readBody(req: http.IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_PAYLOAD_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function createGateway(opts: GatewayOptions) {
  const router = createRouter(opts.routes);
  const functionFor = createLocalFunctions(opts.routes, opts.functionsDir, opts.functionOf);
  const load = createHandlerLoader(opts.functionsDir);
  const log = opts.log ?? (() => undefined);
  // An answer AWS would fail (too large, too late) is reported even when no log is wired (tests).
  const loud = opts.log ?? ((line: string) => console.error(line));

  const responseHeaders = opts.responseHeaders ?? {};
  // As CloudFront's policy (override: true), these win over what a handler set.
  function send(
    res: http.ServerResponse,
    status: number,
    headers: Record<string, string | string[]>,
    body: Buffer | string,
  ) {
    res.writeHead(status, { ...headers, ...responseHeaders });
    res.end(body);
  }
  /**
   * Only loopback names reach the gateway's own port, so a DNS-rebinding page (a foreign name
   * resolving to 127.0.0.1) cannot call the API; the app origin forwards a custom domain's Host
   * with the secret, after its own gate.
   */
  function hostAllowed(req: http.IncomingMessage): boolean {
    if (isLoopbackHost(req.headers.host)) return true;
    const sent = req.headers[ORIGIN_VERIFY_HEADER];
    return opts.originSecret !== undefined && typeof sent === 'string' && safeEqual(sent, opts.originSecret);
  }
  const message = (res: http.ServerResponse, status: number, text: string, extra: Record<string, string> = {}) =>
    send(res, status, { 'content-type': 'application/json', ...extra }, JSON.stringify({ message: text }));

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const started = Date.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const pathOnly = url.split('?')[0] ?? '/';
    const origin = req.headers.origin;
    const cors = corsHeaders(origin, opts.corsOrigins);
    if (!hostAllowed(req)) {
      for (const [name, value] of Object.entries(responseHeaders)) res.setHeader(name, value);
      return refuseHost(res);
    }

    // CORS preflight is answered by API Gateway itself, before any route or authorizer.
    if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
      const h: Record<string, string> = { ...cors };
      if (cors['access-control-allow-origin']) {
        h['access-control-allow-methods'] = API_CORS.allowMethods.join(',');
        h['access-control-allow-headers'] = API_CORS.allowHeaders.join(',');
        h['access-control-max-age'] = String(API_CORS.maxAgeSeconds);
      }
      return send(res, 204, h, '');
    }

    // Lambda Invoke API (async only), so functions start jobs with the same SDK call as in AWS.
    const invoke = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(pathOnly);
    if (invoke && method === 'POST') return handleInvoke(req, res, decodeURIComponent(invoke[1]!));

    if (requestHeadBytes(req) > MAX_REQUEST_HEADER_BYTES) {
      log(
        `[gateway] ${method} ${pathOnly} refused: request line and headers over ${MAX_REQUEST_HEADER_BYTES} bytes (the HTTP API's limit)`,
      );
      return message(res, 431, 'Request Header Fields Too Large', cors);
    }
    if (!pathOnly.startsWith(`${API_PREFIX}/`)) return message(res, 404, 'Not Found', cors);
    const match = router.match(method, pathOnly.slice(API_PREFIX.length));
    if (!match) return message(res, 404, 'Not Found', cors);

    const body = await readBody(req);
    if (body === 'too-large') {
      log(`[gateway] ${method} ${pathOnly} refused: body over ${MAX_PAYLOAD_BYTES} bytes (the HTTP API's 10 MB)`);
      return message(res, 413, 'Request Entity Too Large', cors);
    }

    let claims: Record<string, string> | undefined;
    // Only 'jwt' routes have the HTTP API's authorizer; 'none' and 'key' routes reach
    // their handler as in AWS, and a 'key' handler verifies the API key itself (keyRoute).
    if (match.route.auth === 'jwt') {
      claims = await opts.checkJwt(req.headers.authorization);
      if (!claims) return message(res, 401, 'Unauthorized', { ...cors, 'www-authenticate': 'Bearer' });
    }

    const event = buildEvent(
      {
        method,
        url,
        rawHeaders: req.rawHeaders,
        body,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        host: req.headers.host ?? '127.0.0.1',
      },
      match.route,
      match.pathParameters,
      claims,
    );
    const fn = functionFor(match.route);
    let result: ReturnType<typeof normaliseResult>;
    const integrationMs = opts.integrationTimeoutMs ?? INTEGRATION_TIMEOUT_MS;
    let integrationTimer: NodeJS.Timeout | undefined;
    try {
      const raw = await Promise.race([
        withTimeout(fn.dispatch(event, lambdaContext(fn.name, fn.timeoutS, fn.memoryMb)), fn.timeoutS * 1000, 'Task'),
        new Promise<never>((_, reject) => {
          integrationTimer = setTimeout(
            () => reject(new IntegrationTimeout(`no answer from the integration within ${integrationMs} ms`)),
            integrationMs,
          );
        }),
      ]).finally(() => clearTimeout(integrationTimer));
      const bytes = lambdaResponseBytes(raw);
      if (bytes > MAX_LAMBDA_RESPONSE_BYTES) {
        // Loud on purpose: in AWS this answer never reaches the client, and only the logs say why.
        loud(
          `[gateway] ${method} ${pathOnly} LAMBDA RESPONSE TOO LARGE: ${bytes} bytes over Lambda's ${MAX_LAMBDA_RESPONSE_BYTES}-byte limit; ` +
            'AWS fails the invoke and the HTTP API answers 500. Page this answer.',
        );
        return message(res, 500, 'Internal Server Error', cors);
      }
      result = normaliseResult(raw);
    } catch (err) {
      if (err instanceof IntegrationTimeout) {
        loud(`[gateway] ${method} ${pathOnly} INTEGRATION TIMEOUT: ${err.message}; the HTTP API answers 503`);
        return message(res, 503, 'Service Unavailable', cors);
      }
      log(
        `[gateway] ${method} ${pathOnly} handler error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      return message(res, 500, 'Internal Server Error', cors);
    }

    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
    Object.assign(headers, cors);
    if (result.cookies?.length) headers['set-cookie'] = result.cookies;
    const payload =
      result.body === undefined
        ? Buffer.alloc(0)
        : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
    send(res, result.statusCode, headers, payload);
    log(`[gateway] ${method} ${pathOnly} -> ${result.statusCode} (${Date.now() - started} ms)`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`[gateway] unexpected: ${err instanceof Error ? err.stack : String(err)}`);
      if (!res.headersSent) message(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });

  /** Jobs started by async invoke still running; tests and shutdown can wait for them. */
  const running = new Set<Promise<unknown>>();

  async function handleInvoke(req: http.IncomingMessage, res: http.ServerResponse, functionName: string) {
    const job = opts.jobs?.find((j) => j.name === functionName);
    if (!job)
      return message(res, 404, `Function not found: ${functionName}`, {
        'x-amzn-errortype': 'ResourceNotFoundException',
      });
    if (req.headers['x-amz-invocation-type'] !== 'Event') {
      return message(res, 400, 'The local gateway runs jobs asynchronously only (InvocationType Event)');
    }
    const body = await readBody(req);
    if (body === 'too-large') return message(res, 413, 'Request Entity Too Large');
    let payload: unknown;
    try {
      payload = body.length ? JSON.parse(body.toString('utf8')) : {};
    } catch {
      return message(res, 400, 'Could not parse request body into json', {
        'x-amzn-errortype': 'InvalidRequestContentException',
      });
    }
    const run = runJob(job.name, payload)
      .catch((err: unknown) =>
        log(`[jobs] ${job.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
      )
      .finally(() => running.delete(run));
    running.add(run);
    send(res, 202, { 'x-amzn-requestid': randomUUID() }, '');
  }

  async function runJob(name: string, payload?: unknown): Promise<unknown> {
    const job = opts.jobs?.find((j) => j.name === name);
    if (!job) throw new Error(`no job named ${name}`);
    const handler = await load(job.handler);
    const timeoutS = job.timeoutSeconds ?? 60;
    if (payload !== undefined) {
      return withTimeout(
        handler(payload, lambdaContext(job.handler, timeoutS, job.memoryMb)),
        timeoutS * 1000,
        `job ${name}`,
      );
    }
    const now = new Date();
    const event = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time: now.toISOString(),
      region: 'local',
      resources: [`arn:aws:events:local:000000000000:rule/${job.name}`],
      detail: {},
    };
    return withTimeout(
      handler(event, lambdaContext(job.handler, timeoutS, job.memoryMb)),
      timeoutS * 1000,
      `job ${name}`,
    );
  }

  return {
    server,
    runJob,
    /** Resolves when every job started by async invoke has finished. */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    listen(port: number, host = '127.0.0.1'): Promise<number> {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const a = server.address();
          resolve(a && typeof a === 'object' ? a.port : port);
        });
      });
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;

/** `rate(5 minutes)` -> ms. */
export function rateToMs(schedule: string): number {
  const m = /^rate\((\d+) (minute|minutes|hour|hours)\)$/.exec(schedule);
  if (!m) throw new Error(`unsupported schedule ${schedule}`);
  return Number(m[1]) * (m[2]!.startsWith('hour') ? 3_600_000 : 60_000);
}

/** Runs every job on its period, as EventBridge would; one run at a time per job. */
export function startJobTimer(
  gateway: Gateway,
  jobs: readonly JobDef[],
  opts: { intervalOverrideMs?: number; log?: (l: string) => void } = {},
) {
  const timers: NodeJS.Timeout[] = [];
  for (const job of jobs) {
    const schedule = job.schedule;
    if (!schedule) continue;
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        await gateway.runJob(job.name);
      } catch (err) {
        opts.log?.(`[jobs] ${job.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        running = false;
      }
    };
    timers.push(setInterval(tick, opts.intervalOverrideMs ?? rateToMs(schedule)));
    void tick();
  }
  return { stop: () => timers.forEach(clearInterval) };
}
