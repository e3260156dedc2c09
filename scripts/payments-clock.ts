/**
 * `npm run payments:clock -- advance 8d | show | events | redeliver <evt_id>`: the local payments
 * simulator's clock (like a Stripe test clock) against the running `npm start` stack: its table
 * (DynamoDB Local) and its webhook (the local gateway's /api/stripe/webhook), so the trial ends,
 * renewals, payment failures and cancellations due in the skipped time happen now, in order,
 * and the app reacts to their events as it would to Stripe's.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ENV } from '../functions/lib/env-names';
import { SIMULATOR_DEFAULT_WEBHOOK_SECRET } from '../functions/lib/env';
import { API_PREFIX } from '../functions/routes';
import { simulator } from '../functions/adapters/payments/simulated';
import { REPO_ROOT } from './local/app';
import { HOST, isListening, portFromEnv } from './local/ports';
import { portsFromEnv, runningTableEnv } from './local/stack';
import { runClockCommand, USAGE } from './local/payments-clock';

process.env.LOG_LEVEL ??= 'warn';
const envFile = path.join(REPO_ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

async function main() {
  const args = process.argv.slice(2);
  if (args.length === 0 || args[0] === 'help' || args[0] === '--help') {
    console.log(USAGE);
    return;
  }
  const ports = portsFromEnv();
  const apiPort = portFromEnv('API_PORT', 3001);
  if (!(await isListening(ports.dynamodb)) || !(await isListening(apiPort))) {
    throw new Error(
      `no running local stack (DynamoDB on ${ports.dynamodb}, API on ${apiPort}): start it with npm start, then run this again`,
    );
  }
  const webOrigin = process.env[ENV.appOrigin] || `http://${HOST}:${process.env.WEB_PORT || 5173}`;
  Object.assign(
    process.env,
    runningTableEnv(ports.dynamodb, {
      [ENV.mailFrom]: 'payments-clock@sendbridge.local',
      [ENV.appOrigin]: webOrigin,
      [ENV.payments]: 'simulated',
      [ENV.paymentsWebhookUrl]:
        process.env[ENV.paymentsWebhookUrl] || `http://${HOST}:${apiPort}${API_PREFIX}/stripe/webhook`,
      [ENV.paymentsWebhookSecret]: process.env[ENV.paymentsWebhookSecret] || SIMULATOR_DEFAULT_WEBHOOK_SECRET,
    }),
  );
  for (const line of await runClockCommand(args, simulator())) console.log(line);
}

main().catch((err) => {
  console.error(`npm run payments:clock: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
