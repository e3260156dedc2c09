import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { TABLE_GSIS, TABLE_KEYS, TTL_ATTRIBUTE } from '../../functions/data/table-schema';
import { startChild, type Child } from './child';
import { waitForPort } from './ports';
import { startTimeoutMs } from './start-timeout';

const require = createRequire(import.meta.url);

export class JavaMissingError extends Error {
  constructor() {
    super(
      'Java 17 is needed for DynamoDB Local and was not found: apt-get install -y openjdk-17-jre-headless (or put java on PATH).',
    );
    this.name = 'JavaMissingError';
  }
}

export function emulatorDir(): string {
  return path.join(path.dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

export function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new JavaMissingError();
}

/** DynamoDB Local has no bind option: it listens on all interfaces (README says so). */
/** `workDir`: where it may write its metadata file (it writes into its working directory). */
export async function startDynamoDb(opts: { port: number; dataDir?: string; workDir: string }): Promise<Child> {
  assertJava();
  const dir = emulatorDir();
  const timeout = startTimeoutMs();
  const storage = opts.dataDir ? ['-dbPath', opts.dataDir] : ['-inMemory'];
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  return startChild(
    'DynamoDB Local',
    'java',
    [
      `-Djava.library.path=${path.join(dir, 'DynamoDBLocal_lib')}`,
      '-Xmx512m',
      '-jar',
      path.join(dir, 'DynamoDBLocal.jar'),
      '-port',
      String(opts.port),
      '-sharedDb',
      ...storage,
      '-disableTelemetry',
    ],
    // The child's own timer (with its one-line hint) ends the wait; the port probe outlasts it.
    {
      cwd: opts.dataDir ?? opts.workDir,
      waitFor: () => waitForPort(opts.port, timeout + 5_000),
      timeoutMs: timeout,
      port: opts.port,
    },
  );
}

/** Creates the single table with its GSIs and TTL if it does not exist yet. */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'exists'> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    try {
      const existing = await client.send(new DescribeTableCommand({ TableName: tableName }));
      await addMissingIndexes(
        client,
        tableName,
        new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName ?? '')),
      );
      return 'exists';
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
    }
    const keyAttrs = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
    for (const g of TABLE_GSIS) {
      keyAttrs.add(g.partitionKey);
      keyAttrs.add(g.sortKey);
    }
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...keyAttrs].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_GSIS.map((g) => ({
          IndexName: g.indexName,
          KeySchema: [
            { AttributeName: g.partitionKey, KeyType: 'HASH' },
            { AttributeName: g.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
    return 'created';
  } finally {
    client.destroy();
  }
}

/**
 * A table made by an older checkout lacks the indexes added since (gsi3, gsi4): they
 * are added one at a time, as DynamoDB allows, and waited for. Items written before carry no
 * keys for them, so they appear in the new indexes only once rewritten (or after `npm run reset`).
 */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, have: ReadonlySet<string>): Promise<void> {
  for (const g of TABLE_GSIS) {
    if (have.has(g.indexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: g.partitionKey, AttributeType: 'S' },
          { AttributeName: g.sortKey, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: g.indexName,
              KeySchema: [
                { AttributeName: g.partitionKey, KeyType: 'HASH' },
                { AttributeName: g.sortKey, KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            },
          },
        ],
      }),
    );
    for (let i = 0; i < 120; i += 1) {
      const d = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (d.Table?.GlobalSecondaryIndexes?.find((x) => x.IndexName === g.indexName)?.IndexStatus === 'ACTIVE') break;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
