/**
 * `npm run sumo:codes -- 100 [batch-name]`: issues lifetime codes (spec §3 isSumo, /appsumoforever).
 * Each code is stored only as its hash (docs/data-model.md B5) and printed once, one per line on
 * stdout, to hand to the partner; nothing can print it again. Writes to the running `npm start`
 * stack's table, or, with `TABLE_NAME` (and AWS credentials) set, to that table in AWS;
 * otherwise it starts the local emulators on .data/ for the writing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ENV } from '../functions/lib/env-names';
import { REPO_ROOT } from './local/app';
import { ensureTable } from './local/dynamodb';
import { HOST, isListening } from './local/ports';
import {
  LOCAL_AWS_REGION,
  LOCAL_TABLE_NAME,
  portsFromEnv,
  runningTableEnv,
  startLocalStack,
  type LocalStack,
} from './local/stack';

process.env.LOG_LEVEL ??= 'warn';
const envFile = path.join(REPO_ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

/** The data layer reads the whole configuration; only the table (and its endpoint) is used here. */
function placeholders(): Record<string, string> {
  const region = process.env.AWS_REGION || LOCAL_AWS_REGION;
  return {
    [ENV.regionBuckets]:
      process.env[ENV.regionBuckets] ||
      JSON.stringify({ hongkong: { bucket: 'unused', anonBucket: 'unused', awsRegion: region } }),
    [ENV.userPoolId]: process.env[ENV.userPoolId] || 'unused',
    [ENV.userPoolClientId]: process.env[ENV.userPoolClientId] || 'unused',
    [ENV.mailFrom]: process.env[ENV.mailFrom] || 'codes@sendbridge.local',
    [ENV.appOrigin]: process.env[ENV.appOrigin] || 'http://127.0.0.1',
  };
}

async function main() {
  const [countArg, batchArg] = process.argv.slice(2);
  const count = Number(countArg);
  if (!Number.isInteger(count) || count < 1 || count > 10_000)
    throw new Error('say how many codes, 1 to 10000: npm run sumo:codes -- 100 [batch-name]');
  const batch = batchArg || `batch-${new Date().toISOString().slice(0, 10)}`;
  const ports = portsFromEnv();
  let stack: LocalStack | undefined;
  if (await isListening(ports.dynamodb)) {
    const endpoint = `http://${HOST}:${ports.dynamodb}`;
    await ensureTable(endpoint, LOCAL_TABLE_NAME);
    Object.assign(process.env, runningTableEnv(ports.dynamodb, { [ENV.mailFrom]: 'codes@sendbridge.local' }));
    console.error(`Writing to the running local stack's table ${LOCAL_TABLE_NAME}.`);
  } else if (process.env[ENV.tableName]) {
    console.error(
      `Writing to the table ${process.env[ENV.tableName]} (AWS, region ${process.env.AWS_REGION ?? 'from the environment'}).`,
    );
  } else {
    console.error('Starting the local emulators on .data/ for the writing...');
    const appOrigin = process.env.APP_ORIGIN || `http://${HOST}:${process.env.WEB_PORT || 5173}`;
    stack = await startLocalStack({
      dataDir: path.join(REPO_ROOT, '.data'),
      ports,
      appOrigins: [appOrigin],
      appOrigin,
    });
    Object.assign(process.env, stack.env);
  }
  Object.assign(process.env, placeholders(), { [ENV.tableName]: process.env[ENV.tableName] });
  try {
    // Imported after the environment is set: the data layer reads it on first use.
    const { issueSumoCodes } = await import('../functions/services/billing');
    const codes = await issueSumoCodes(count, batch, Date.now());
    process.stdout.write(`${codes.join('\n')}\n`);
    console.error(`${codes.length} lifetime codes issued in batch ${batch}. They are shown only now: keep them.`);
  } finally {
    await stack?.stop();
  }
}

main().catch((err) => {
  console.error(`npm run sumo:codes: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
