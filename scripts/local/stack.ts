import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENV } from '../../functions/lib/env-names';
import { SIMULATOR_DEFAULT_WEBHOOK_SECRET } from '../../functions/lib/env';
import { DEFAULT_REGION, REGION_IDS, type RegionId } from '../../functions/domain/regions';
import { supervise, type Child, type Supervised } from './child';
import { ensureTable, startDynamoDb } from './dynamodb';
import { ensureSpeedTestObjects, startS3 } from './s3';
import { ensureUserPool, startCognito } from './cognito';
import { startSes } from './ses';
import { HOST, assertPortFree, freePorts, portFromEnv } from './ports';
import { startDnsServer, type LocalDnsServer } from './dns-server';
import { newOriginSecret } from './edge';

export interface Ports {
  dynamodb: number;
  s3: number;
  cognito: number;
  ses: number;
}

/** Default ports of `npm start`, each overridable by its env var. */
/**
 * The environment of a script that writes to the running local stack's table (`npm start`):
 * seed, sumo:codes, payments:clock. The data layer reads the whole configuration, so what a
 * script does not use is named 'unused'; `extra` sets what it does use (user pool, sender, app origin...).
 */
export function runningTableEnv(dynamodbPort: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    AWS_REGION: LOCAL_AWS_REGION,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    [ENV.tableName]: LOCAL_TABLE_NAME,
    [ENV.dynamodbEndpoint]: `http://${HOST}:${dynamodbPort}`,
    [ENV.regionBuckets]: JSON.stringify({
      hongkong: { bucket: 'unused', anonBucket: 'unused', awsRegion: LOCAL_AWS_REGION },
    }),
    [ENV.userPoolId]: 'unused',
    [ENV.userPoolClientId]: 'unused',
    ...extra,
  };
}

export const PORT_ENV = { dynamodb: 'DYNAMODB_PORT', s3: 'S3_PORT', cognito: 'COGNITO_PORT', ses: 'SES_PORT' } as const;
/**
 * A stand-in for the session token of a Lambda function's role credentials: ~1.2 KB of base64
 * (real ones run 1,000-1,300 characters), so a presigned URL signed with it is ~1.7 KB as in AWS.
 */
export const LAMBDA_SIZED_SESSION_TOKEN = `IQoJb3JpZ2luX2VjE${'Lm9jYWwvc2Vzc2lvbi90b2tlbi8rK2ZvcitzaXplLz09'.repeat(27)}+local/session==`;

export const DEFAULT_PORTS: Ports = { dynamodb: 8000, s3: 4569, cognito: 9229, ses: 8005 };

export const LOCAL_TABLE_NAME = 'sendbridge-local';
export const LOCAL_AWS_REGION = 'us-east-1';

export function localBucketNames(region: RegionId) {
  return { bucket: `sendbridge-local-${region}`, anonBucket: `sendbridge-local-${region}-anon` };
}

export interface StackOptions {
  /** persistent data root (`.data/`); omitted: a temp dir removed on stop and DynamoDB in memory */
  readonly dataDir?: string;
  /** fixed ports (dev) or 'free' (tests pick free ports) */
  readonly ports: Ports | 'free';
  /** origins the buckets accept cross-origin PUT/GET from (the app's origin) */
  readonly appOrigins: readonly string[];
  /** public origin of the app, used in mailed links */
  readonly appOrigin: string;
  /** port of the local DNS server (DNS_PORT); default a free port */
  readonly dnsPort?: number;
  /** where the supervisor says an emulator died and was restarted (default: stderr) */
  readonly log?: (line: string) => void;
}

/** the local DNS server's default port for `npm start` (DNS_PORT overrides it). */
export const DEFAULT_DNS_PORT = 5300;
export const DNS_PORT_ENV = 'DNS_PORT';

export interface LocalStack {
  readonly ports: Ports;
  /** environment the functions need, pointing at these emulators */
  readonly env: Record<string, string>;
  readonly urls: { dynamodb: string; s3: string; cognito: string; sesInbox: string };
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  /** the local DNS server the domain checks query (DNS_RESOLVER) */
  readonly dns: LocalDnsServer;
  /** stops one emulator for good, no restart (tests use it to see /health report the failure) */
  stopService(name: keyof Ports): Promise<void>;
  /** the running child of one emulator (replaced when the supervisor restarts it) */
  child(name: keyof Ports): Child;
  /** no more restarts: the stack is shutting down (its children may be dying already) */
  holdRestarts(): void;
  stop(): Promise<void>;
}

export function portsFromEnv(source: NodeJS.ProcessEnv = process.env): Ports {
  const pick = (k: keyof Ports) => portFromEnv(PORT_ENV[k], DEFAULT_PORTS[k], source);
  return { dynamodb: pick('dynamodb'), s3: pick('s3'), cognito: pick('cognito'), ses: pick('ses') };
}

/** What a stack's environment is made of (a test file's own namespace on shared emulators differs in these only). */
export interface StackEnvParts {
  readonly tableName: string;
  readonly regionBuckets: Record<string, { bucket: string; anonBucket: string; awsRegion: string }>;
  readonly pool: { readonly userPoolId: string; readonly userPoolClientId: string };
  readonly appOrigin: string;
  readonly urls: LocalStack['urls'];
  readonly dnsResolver: string;
  /** the receipt signing keys' file (the stack's data dir: ephemeral stacks get their own) */
  readonly receiptKeysFile: string;
}

/** The environment the functions need, pointing at the emulators, table, buckets and pool given. */
export function stackEnv(parts: StackEnvParts): Record<string, string> {
  const app = new URL(parts.appOrigin);
  return {
    AWS_REGION: LOCAL_AWS_REGION,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // s3rver accepts only its own key pair; the other emulators accept any.
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    // A role's session token as Lambda hands it, which every presigned URL carries: local URLs
    // (and the answers made of them) have AWS's size. The emulators ignore it.
    AWS_SESSION_TOKEN: LAMBDA_SIZED_SESSION_TOKEN,
    [ENV.tableName]: parts.tableName,
    [ENV.regionBuckets]: JSON.stringify(parts.regionBuckets),
    [ENV.defaultRegion]: DEFAULT_REGION,
    [ENV.userPoolId]: parts.pool.userPoolId,
    [ENV.userPoolClientId]: parts.pool.userPoolClientId,
    [ENV.mailFrom]: process.env[ENV.mailFrom] || 'SendBridge <no-reply@sendbridge.local>',
    [ENV.appOrigin]: parts.appOrigin,
    [ENV.dynamodbEndpoint]: parts.urls.dynamodb,
    [ENV.s3Endpoint]: parts.urls.s3,
    [ENV.cognitoEndpoint]: parts.urls.cognito,
    [ENV.sesEndpoint]: parts.urls.sesInbox,
    // the payments simulator (the only provider locally) and its webhook signing secret
    [ENV.payments]: 'simulated',
    [ENV.paymentsWebhookSecret]: process.env[ENV.paymentsWebhookSecret] || SIMULATOR_DEFAULT_WEBHOOK_SECRET,
    // domain checks ask the local DNS server; a verified custom host is served by the
    // local web server on its own port (the browser reaches it through a hosts/resolver rule).
    [ENV.dnsResolver]: parts.dnsResolver,
    // The app origin plays CloudFront in front of /api with this secret (scripts/local/edge.ts):
    // the functions trust its viewer address, and only beside it.
    [ENV.originVerify]: newOriginSecret(),
    [ENV.customDomainOrigin]: `${app.protocol}//{host}${app.port ? `:${app.port}` : ''}`,
    [ENV.receiptKeysFile]: parts.receiptKeysFile,
  };
}

export async function startLocalStack(opts: StackOptions): Promise<LocalStack> {
  const ephemeral = !opts.dataDir;
  const root = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'sendbridge-'));
  let ports: Ports;
  if (opts.ports === 'free') {
    const [dynamodb, s3, cognito, ses] = (await freePorts(4)) as [number, number, number, number];
    ports = { dynamodb, s3, cognito, ses };
  } else {
    ports = opts.ports;
    for (const k of Object.keys(ports) as (keyof Ports)[]) {
      // DynamoDB Local binds every interface, so check the wildcard address for it.
      await assertPortFree(k, ports[k], PORT_ENV[k], k === 'dynamodb' ? '0.0.0.0' : HOST);
    }
  }

  const regionBuckets = Object.fromEntries(
    REGION_IDS.map((r) => [r, { ...localBucketNames(r), awsRegion: LOCAL_AWS_REGION }]),
  );
  const allBuckets = REGION_IDS.flatMap((r) => Object.values(localBucketNames(r)));
  const transferBuckets = REGION_IDS.map((r) => localBucketNames(r).bucket);

  const children: Supervised[] = [];
  const log = opts.log ?? ((line: string) => console.error(line));
  const urls = {
    dynamodb: `http://${HOST}:${ports.dynamodb}`,
    s3: `http://${HOST}:${ports.s3}`,
    cognito: `http://${HOST}:${ports.cognito}`,
    sesInbox: `http://${HOST}:${ports.ses}`,
  };
  let dns: LocalDnsServer | undefined;
  const stopAll = async () => {
    await Promise.all([...children.map((c) => c.stop()), dns?.close()]);
    if (ephemeral) rmSync(root, { recursive: true, force: true });
  };
  try {
    // Start all four at once; wait for every start to settle so a failure stops the others too.
    // Each is supervised: a child that dies is started again (DynamoDB Local in memory comes back
    // empty, so its table is made again; the others keep their data in `root`).
    const started = await Promise.allSettled([
      supervise(
        () =>
          startDynamoDb({
            port: ports.dynamodb,
            workDir: root,
            ...(ephemeral ? {} : { dataDir: path.join(root, 'dynamodb') }),
          }),
        {
          log,
          afterRestart: () => ensureTable(urls.dynamodb, LOCAL_TABLE_NAME).then(() => undefined),
        },
      ),
      supervise(
        () =>
          startS3({
            port: ports.s3,
            dataDir: path.join(root, 's3'),
            buckets: allBuckets,
            corsOrigins: [...opts.appOrigins],
          }),
        {
          log,
          afterRestart: () => ensureSpeedTestObjects(urls.s3, transferBuckets),
        },
      ),
      supervise(() => startCognito({ port: ports.cognito, dataDir: path.join(root, 'cognito') }), { log }),
      supervise(() => startSes({ port: ports.ses }), { log }),
    ]);
    const byService = {} as Record<keyof Ports, Supervised>;
    (['dynamodb', 's3', 'cognito', 'ses'] as const).forEach((k, i) => {
      const s = started[i];
      if (s?.status === 'fulfilled') {
        children.push(s.value);
        byService[k] = s.value;
      }
    });
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    if (opts.dnsPort) await assertPortFree('dns', opts.dnsPort, DNS_PORT_ENV);
    dns = await startDnsServer({ port: opts.dnsPort ?? 0, recordsFile: path.join(root, 'dns', 'records.json') });
    const [, pool] = await Promise.all([
      ensureTable(urls.dynamodb, LOCAL_TABLE_NAME),
      ensureUserPool(urls.cognito, path.join(root, 'cognito')),
      ensureSpeedTestObjects(urls.s3, transferBuckets),
    ]);
    const env = stackEnv({
      tableName: LOCAL_TABLE_NAME,
      regionBuckets,
      pool,
      appOrigin: opts.appOrigin,
      urls,
      dnsResolver: dns.address,
      receiptKeysFile: path.join(root, 'receipts', 'keys.json'),
    });
    return {
      ports,
      env,
      urls,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      dns,
      stopService: (name) => byService[name].stop(),
      child: (name) => byService[name].current(),
      holdRestarts: () => {
        for (const c of children) c.hold();
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
