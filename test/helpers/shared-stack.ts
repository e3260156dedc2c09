/**
 * The integration and e2e projects start the slow emulators once per project (DynamoDB Local,
 * s3rver, cognito-local: test/helpers/global-setup.ts) and give each test file a namespace of its
 * own on them: its own table, buckets and user pool, plus its own mail inbox and DNS server in
 * the file's process. Files running side by side never see each other's users, transfers,
 * mails, DNS records or per-client limits (docs/decisions/, "Shared emulators").
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as sesModule from 'aws-ses-v2-local';
import { clearStore } from 'aws-ses-v2-local/dist/store';
import { APP_ORIGINS_RULE_ID, corsRule } from '../../functions/domain/bucket-cors';
import { REGION_IDS } from '../../functions/domain/regions';
import { supervise, type Supervised } from '../../scripts/local/child';
import { startCognito, ensureUserPool } from '../../scripts/local/cognito';
import { ensureTable, startDynamoDb } from '../../scripts/local/dynamodb';
import { startDnsServer } from '../../scripts/local/dns-server';
import { HOST, freePorts } from '../../scripts/local/ports';
import { ensureSpeedTestObjects, localS3Client, startS3 } from '../../scripts/local/s3';
import { SES_ACCOUNT } from '../../scripts/local/ses';
import { LOCAL_AWS_REGION, stackEnv, type LocalStack, type Ports } from '../../scripts/local/stack';

/** What the project's global setup hands every test file (through vitest's provide/inject). */
export interface SharedEmulators {
  readonly ports: Pick<Ports, 'dynamodb' | 's3' | 'cognito'>;
  readonly urls: { readonly dynamodb: string; readonly s3: string; readonly cognito: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** the project's emulators (integration and e2e) */
    sharedEmulators: SharedEmulators;
    /** the production build of the app (e2e), built once per run or reused from the cache */
    webDist: string;
  }
}

/** The slow emulators, once, on free ports; supervised as `npm start`'s are. */
export async function startSharedEmulators(): Promise<{ emulators: SharedEmulators; stop(): Promise<void> }> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-shared-'));
  const [dynamodb, s3, cognito] = (await freePorts(3)) as [number, number, number];
  const log = (line: string) => console.error(line);
  const started = await Promise.allSettled([
    supervise(() => startDynamoDb({ port: dynamodb, workDir: root }), { log }),
    supervise(() => startS3({ port: s3, dataDir: path.join(root, 's3'), buckets: [], corsOrigins: [] }), { log }),
    supervise(() => startCognito({ port: cognito, dataDir: path.join(root, 'cognito') }), { log }),
  ]);
  const children = started.flatMap((s): Supervised[] => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const url = (port: number) => `http://${HOST}:${port}`;
  return {
    emulators: {
      ports: { dynamodb, s3, cognito },
      urls: { dynamodb: url(dynamodb), s3: url(s3), cognito: url(cognito) },
    },
    stop,
  };
}

// CommonJS package: under ESM its default export may arrive wrapped once more.
const sesLocal = (sesModule.default as unknown as { default?: typeof sesModule.default }).default ?? sesModule.default;

/**
 * One test file's stack on the shared emulators: a table, the buckets of every region (with the
 * file's app origins in their CORS rule, as the emulator's start-up writes them), a user pool,
 * and, in this process, an SES inbox and a DNS server of its own. `stop` drops the table (DynamoDB
 * Local keeps it in memory) and closes the file's servers.
 */
export async function startFileStack(
  shared: SharedEmulators,
  opts: { readonly appOrigins: readonly string[]; readonly appOrigin: string },
): Promise<LocalStack> {
  const id = randomBytes(5).toString('hex');
  const root = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-file-'));
  const tableName = `sendbridge-test-${id}`;
  const regionBuckets = Object.fromEntries(
    REGION_IDS.map((r) => [
      r,
      { bucket: `sendbridge-t${id}-${r}`, anonBucket: `sendbridge-t${id}-${r}-anon`, awsRegion: LOCAL_AWS_REGION },
    ]),
  );
  const transferBuckets = Object.values(regionBuckets).map((b) => b.bucket);
  const allBuckets = Object.values(regionBuckets).flatMap((b) => [b.bucket, b.anonBucket]);

  // The inbox store is the module's own: a process that ran another file before starts empty.
  clearStore();
  process.env.AWS_SES_ACCOUNT ??= SES_ACCOUNT;
  const ses: Server = await sesLocal({ host: HOST, port: 0 });
  const sesPort = (ses.address() as AddressInfo).port;
  const dns = await startDnsServer({ port: 0, recordsFile: path.join(root, 'dns', 'records.json') });
  const s3 = localS3Client(shared.urls.s3);
  const cognitoDir = path.join(root, 'cognito');
  mkdirSync(cognitoDir, { recursive: true });
  const stopServers = async () => {
    await Promise.allSettled([new Promise<void>((resolve) => ses.close(() => resolve())), dns.close()]);
    s3.destroy();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const rules = [corsRule(APP_ORIGINS_RULE_ID, opts.appOrigins)];
    const [, pool] = await Promise.all([
      ensureTable(shared.urls.dynamodb, tableName),
      ensureUserPool(shared.urls.cognito, cognitoDir),
      Promise.all(
        allBuckets.map(async (Bucket) => {
          await s3.send(new CreateBucketCommand({ Bucket }));
          await s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: { CORSRules: rules } }));
        }),
      ),
    ]);
    await ensureSpeedTestObjects(shared.urls.s3, transferBuckets);
    const urls = { ...shared.urls, sesInbox: `http://${HOST}:${sesPort}` };
    const env = stackEnv({
      tableName,
      regionBuckets,
      pool,
      appOrigin: opts.appOrigin,
      urls,
      dnsResolver: dns.address,
      receiptKeysFile: path.join(root, 'receipts', 'keys.json'),
    });
    const own = (what: string) => () => {
      throw new Error(
        `${what}: this file shares its project's emulators; start a stack of its own (startTestApp with ownStack)`,
      );
    };
    return {
      ports: { ...shared.ports, ses: sesPort },
      env,
      urls,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      dns,
      stopService: own('stopService'),
      child: own('child'),
      holdRestarts: () => undefined,
      async stop() {
        const ddb = new DynamoDBClient({
          endpoint: shared.urls.dynamodb,
          region: LOCAL_AWS_REGION,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        });
        await ddb.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
        ddb.destroy();
        await stopServers();
      },
    };
  } catch (err) {
    await stopServers();
    throw err;
  }
}
