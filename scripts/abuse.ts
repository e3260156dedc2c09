/**
 * `npm run abuse -- list | show <slug> | disable <slug> | enable <slug>`: the operator's
 * abuse queue. Against the running `npm start` stack by default; with TABLE_NAME (and AWS
 * credentials, AWS_REGION the home region) set in the environment, against that deployment's table.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ENV } from '../functions/lib/env-names';
import { REPO_ROOT } from './local/app';
import { isListening } from './local/ports';
import { portsFromEnv, runningTableEnv } from './local/stack';
import { runAbuseCommand, USAGE } from './local/abuse';

process.env.LOG_LEVEL ??= 'warn';

async function main() {
  const args = process.argv.slice(2);
  if (args.length === 0 || args[0] === 'help' || args[0] === '--help') {
    console.log(USAGE);
    return;
  }
  if (!process.env[ENV.tableName]) {
    const envFile = path.join(REPO_ROOT, '.env');
    if (existsSync(envFile)) process.loadEnvFile(envFile);
    const ports = portsFromEnv();
    if (!(await isListening(ports.dynamodb)))
      throw new Error(
        `no running local stack (DynamoDB on ${ports.dynamodb}): start it with npm start, or set TABLE_NAME for a deployment`,
      );
    Object.assign(
      process.env,
      runningTableEnv(ports.dynamodb, {
        [ENV.mailFrom]: 'abuse@sendbridge.local',
        [ENV.appOrigin]: 'http://127.0.0.1',
      }),
    );
  } else {
    // A deployment's table: only the table is read and written; the rest of the config is unused.
    const unused = {
      [ENV.regionBuckets]: '{}',
      [ENV.userPoolId]: 'unused',
      [ENV.userPoolClientId]: 'unused',
      [ENV.mailFrom]: 'abuse@unused',
      [ENV.appOrigin]: 'https://unused',
    };
    for (const [k, v] of Object.entries(unused)) process.env[k] ??= v;
  }
  for (const line of await runAbuseCommand(args)) console.log(line);
}

main().catch((err) => {
  console.error(`npm run abuse: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
