/**
 * `npm start`: the whole product on this machine. Emulators (DynamoDB Local, s3rver,
 * cognito-local, aws-ses-v2-local), the local gateway with the job timer, and the Vite dev
 * server proxying /api to the gateway. Data persists in .data/ (`npm run reset` wipes it).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { jobs } from '../functions/routes';
import { startLocalApp, REPO_ROOT, type LocalApp } from './local/app';
import { startJobTimer } from './local/gateway/server';
import { DEFAULT_DNS_PORT, DNS_PORT_ENV, portsFromEnv, type Ports } from './local/stack';
import { PortBusyError, assertPortFree, HOST, portFromEnv } from './local/ports';
import { JavaMissingError } from './local/dynamodb';
import { startTimeoutMs } from './local/start-timeout';
import { removeStackLock, writeStackLock } from './local/stack-lock';
import { checkHealth } from '../functions/services/health';
import { readPaymentsConfig } from '../functions/lib/env';
import { cnameTarget } from '../functions/services/domains';
import { servedCustomHost } from '../functions/data/custom-domains';
import { startWebDevServer, type WebDevServer } from '../frontend/dev-server';

// This machine runs Node 20 by necessity (Lambda runs nodejs22.x); the SDK's notice about it is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const envFile = path.join(REPO_ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

async function main() {
  const started = Date.now();
  let ports: Ports, apiPort: number, webPort: number, dnsPort: number;
  try {
    // The handlers' own payments configuration, loaded now: PAYMENTS=stripe without its secret
    // (or a bad STRIPE_PRICES) stops here with one line instead of at the first payment.
    readPaymentsConfig({ ...process.env, APP_ORIGIN: process.env.APP_ORIGIN || `http://${HOST}` });
    ports = portsFromEnv();
    dnsPort = portFromEnv(DNS_PORT_ENV, DEFAULT_DNS_PORT);
    apiPort = portFromEnv('API_PORT', 3001);
    webPort = portFromEnv('WEB_PORT', 5173);
    startTimeoutMs();
  } catch (err) {
    console.error(`npm start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const appOrigin = process.env.APP_ORIGIN || `http://${HOST}:${webPort}`;
  const appOrigins = [...new Set([appOrigin, `http://${HOST}:${webPort}`, `http://localhost:${webPort}`])];
  process.env.LOG_LEVEL ??= 'warn';

  const dataDir = path.join(REPO_ROOT, '.data');
  let app: LocalApp | undefined;
  let web: WebDevServer | undefined;
  let timer: { stop(): void } | undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (code === 0) console.log('\nStopping SendBridge local stack...');
    timer?.stop();
    await Promise.allSettled([web?.close(), app?.stop()]);
    removeStackLock(dataDir);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    await assertPortFree('the API gateway', apiPort, 'API_PORT');
    await assertPortFree('the web app', webPort, 'WEB_PORT');
    writeStackLock(dataDir);
    app = await startLocalApp({
      dataDir,
      ports,
      appOrigins,
      appOrigin,
      apiPort,
      dnsPort,
      log: (l) => console.log(l),
    });
    const intervalOverride = process.env.JOBS_INTERVAL_MS ? Number(process.env.JOBS_INTERVAL_MS) : undefined;
    timer = startJobTimer(app.gateway, jobs, {
      log: (l) => console.error(l),
      ...(intervalOverride ? { intervalOverrideMs: intervalOverride } : {}),
    });
    web = await startWebDevServer({
      port: webPort,
      apiOrigin: app.apiOrigin,
      storage: [app.stack.urls.s3],
      customHost: servedCustomHost,
      originSecret: app.originSecret,
    });
  } catch (err) {
    // One line that says what to do; the expected failures need no stack trace.
    const known = err instanceof PortBusyError || err instanceof JavaMissingError;
    console.error(
      `npm start: ${known || !(err instanceof Error) ? String(err instanceof Error ? err.message : err) : err.message.split('\n')[0]}`,
    );
    // DEBUG=1: the whole message (a child's last output lines) and the stack.
    if (!known && err instanceof Error && process.env.DEBUG) console.error(`${err.message}\n${err.stack ?? ''}`);
    await shutdown(1);
    return;
  }

  const u = app.stack.urls;
  console.log(
    [
      '',
      `SendBridge is running locally (started in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      `  App          ${web.url}/`,
      `  API          ${app.apiOrigin}/api   (health: ${web.url}/api/health)`,
      `  Mail inbox   ${u.sesInbox}/`,
      `  DynamoDB     ${u.dynamodb}   (DynamoDB Local listens on all interfaces: it has no bind option)`,
      `  S3 (s3rver)  ${u.s3}`,
      `  Cognito      ${u.cognito}   (pool ${app.stack.userPoolId})`,
      `  DNS          ${app.stack.dns.address} (UDP and TCP)   add a record: npm run dns -- add files.acme.test CNAME ${cnameTarget()}`,
      `  Data         .data/   (npm run reset wipes it)`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  // The public /health says only ok or degraded; the operator's report is printed here.
  const report = await checkHealth();
  const failing = Object.entries(report.services).filter(([, r]) => !r.ok);
  console.log(
    failing.length === 0
      ? 'Health: every service ok.'
      : `Health: failing ${failing.map(([name, r]) => `${name} (${r.error})`).join(', ')}`,
  );
}

void main();
