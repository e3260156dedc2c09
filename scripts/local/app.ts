import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PREFIX, jobs, routes } from '../../functions/routes';
import { createJwtCheck } from './gateway/jwt';
import { createGateway, type Gateway } from './gateway/server';
import { startLocalStack, type LocalStack, type StackOptions } from './stack';
import { HOST } from './ports';
import { routeCloudTrailEvents } from './s3';
import { ENV } from '../../functions/lib/env-names';
import { securityHeaders } from '../../frontend/csp';

export const FUNCTIONS_DIR = fileURLToPath(new URL('../../functions', import.meta.url));
export const REPO_ROOT = path.dirname(FUNCTIONS_DIR);

export interface LocalApp {
  readonly stack: LocalStack;
  readonly gateway: Gateway;
  /** e.g. http://127.0.0.1:3001 (routes live under /api) */
  readonly apiOrigin: string;
  /** the secret the app origin adds in front of /api as CloudFront does (scripts/local/edge.ts) */
  readonly originSecret: string;
  stop(): Promise<void>;
}

/**
 * The emulators plus the local gateway in this process. The handlers run in-process, so
 * the stack's environment is copied into `process.env` before the first request.
 */
export async function startLocalApp(
  opts: StackOptions & { apiPort: number; log?: (l: string) => void; integrationTimeoutMs?: number },
): Promise<LocalApp> {
  return serveLocalApp(await startLocalStack(opts), opts);
}

/**
 * The local gateway in this process in front of a stack already running (its `stop` stops the
 * stack too). The tests' shared emulators come in here with each file's own table, pool and buckets.
 */
export async function serveLocalApp(
  stack: LocalStack,
  opts: {
    readonly appOrigins: readonly string[];
    readonly apiPort: number;
    readonly log?: (l: string) => void;
    readonly integrationTimeoutMs?: number;
  },
): Promise<LocalApp> {
  Object.assign(process.env, stack.env);
  const originSecret = stack.env[ENV.originVerify]!;
  const gateway = createGateway({
    routes,
    jobs,
    functionsDir: FUNCTIONS_DIR,
    checkJwt: createJwtCheck({ issuer: `${stack.urls.cognito}/${stack.userPoolId}`, clientId: stack.userPoolClientId }),
    corsOrigins: opts.appOrigins,
    originSecret,
    responseHeaders: securityHeaders({ storage: [stack.urls.s3] }),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.integrationTimeoutMs ? { integrationTimeoutMs: opts.integrationTimeoutMs } : {}),
  });
  let port: number;
  try {
    port = await gateway.listen(opts.apiPort, HOST);
  } catch (err) {
    await stack.stop();
    throw err;
  }
  const apiOrigin = `http://${HOST}:${port}`;
  // Handlers start on-demand jobs through the Lambda Invoke API, which the gateway emulates;
  // locally a job's function name is its job name (a scheduled job that starts itself again too).
  process.env[ENV.lambdaEndpoint] = apiOrigin;
  // The payments simulator delivers its events to the gateway's webhook route (unless .env points elsewhere).
  process.env[ENV.paymentsWebhookUrl] ||= `${apiOrigin}${API_PREFIX}/stripe/webhook`;
  // abuse reports are mailed to the operator address (the local inbox unless .env names one).
  process.env[ENV.abuseReportTo] ||= 'abuse@sendbridge.local';
  // the buckets' GetObject calls reach the deliveries job as CloudTrail's events do in AWS
  const regionBuckets = JSON.parse(stack.env[ENV.regionBuckets] ?? '{}') as Record<
    string,
    { bucket: string; anonBucket: string }
  >;
  const buckets = Object.values(regionBuckets).flatMap((b) => [b.bucket, b.anonBucket]);
  await routeCloudTrailEvents(stack.urls.s3, buckets, `${apiOrigin}/2015-03-31/functions/deliveries/invocations`);
  process.env[ENV.jobFunctions] = JSON.stringify(
    Object.fromEntries(jobs.filter((j) => !j.schedule || j.continues).map((j) => [j.name, j.name])),
  );
  return {
    stack,
    gateway,
    apiOrigin,
    originSecret,
    async stop() {
      // first, so an emulator that Ctrl-C already reached is not started again meanwhile
      stack.holdRestarts();
      await routeCloudTrailEvents(stack.urls.s3, buckets, null).catch(() => undefined);
      await gateway.idle();
      await gateway.close();
      await stack.stop();
    },
  };
}
