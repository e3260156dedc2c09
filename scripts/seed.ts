/**
 * `npm run seed`: one demo account per plan in the local stack, printed with its password, so
 * each plan's limits can be tried before billing exists. Uses the running `npm start` stack
 * when there is one (same .data/), otherwise starts the emulators on .data/ for the seeding.
 * Safe to run again: existing demo accounts get their password and plan reset.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { ROLES, PLANS } from '../functions/domain/plans';
import { formatBytes } from '../functions/domain/format';
import { putSenderProfile } from '../functions/data/users';
import { ENV } from '../functions/lib/env-names';
import { REPO_ROOT } from './local/app';
import { ensureTable } from './local/dynamodb';
import { ensureUserPool } from './local/cognito';
import { HOST, isListening } from './local/ports';
import {
  LOCAL_AWS_REGION,
  LOCAL_TABLE_NAME,
  portsFromEnv,
  runningTableEnv,
  startLocalStack,
  type LocalStack,
} from './local/stack';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';
const envFile = path.join(REPO_ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

const DATA_DIR = path.join(REPO_ROOT, '.data');
/** Plans a person can hold (anon is the guest role, not an account). */
const SEEDED = ROLES.filter((r) => r !== 'anon');

async function main() {
  const ports = portsFromEnv();
  let stack: LocalStack | undefined;
  let cognitoUrl = `http://${HOST}:${ports.cognito}`;
  let poolId: string;
  if ((await isListening(ports.dynamodb)) && (await isListening(ports.cognito))) {
    console.log('Using the running local stack (npm start).');
    await ensureTable(`http://${HOST}:${ports.dynamodb}`, LOCAL_TABLE_NAME);
    poolId = (await ensureUserPool(cognitoUrl, path.join(DATA_DIR, 'cognito'))).userPoolId;
    Object.assign(
      process.env,
      runningTableEnv(ports.dynamodb, {
        [ENV.userPoolId]: poolId,
        [ENV.mailFrom]: 'seed@sendbridge.local',
        [ENV.appOrigin]: 'http://127.0.0.1',
      }),
    );
  } else {
    console.log('Starting the local emulators on .data/ for seeding...');
    const appOrigin = process.env.APP_ORIGIN || `http://${HOST}:${process.env.WEB_PORT || 5173}`;
    stack = await startLocalStack({ dataDir: DATA_DIR, ports, appOrigins: [appOrigin], appOrigin });
    Object.assign(process.env, stack.env);
    cognitoUrl = stack.urls.cognito;
    poolId = stack.userPoolId;
  }

  const idp = new CognitoIdentityProviderClient({
    endpoint: cognitoUrl,
    region: LOCAL_AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const rows: string[][] = [];
  try {
    for (const role of SEEDED) {
      const email = `demo-${role}@sendbridge.local`;
      const password = `Demo-${role}-2026`;
      let sub: string | undefined;
      try {
        const out = await idp.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: email }));
        sub = out.UserAttributes?.find((a) => a.Name === 'sub')?.Value;
      } catch {
        const out = await idp.send(
          new AdminCreateUserCommand({
            UserPoolId: poolId,
            Username: email,
            MessageAction: 'SUPPRESS',
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'email_verified', Value: 'true' },
            ],
          }),
        );
        sub = out.User?.Attributes?.find((a) => a.Name === 'sub')?.Value;
      }
      if (!sub) throw new Error(`no sub for ${email}`);
      await idp.send(
        new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: email, Password: password, Permanent: true }),
      );
      const plan = PLANS[role];
      // created now, as sign-up records it: what's new counts only what came out since
      await putSenderProfile({
        userId: sub,
        email,
        fullName: `Demo ${plan.displayName}`,
        role,
        status: role === 'free' ? 'unpaid' : 'active',
        storageUsed: 0,
        loginCount: 0,
        createdAt: Date.now(),
      });
      rows.push([
        plan.displayName,
        email,
        password,
        formatBytes(plan.uploadLimit),
        formatBytes(plan.storage),
        String(plan.emailTo),
      ]);
    }
  } finally {
    idp.destroy();
    await stack?.stop();
  }
  const header = ['Plan', 'Email', 'Password', 'Per transfer', 'Storage', 'Recipients'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(
    `\nDemo accounts (log in at /login):\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}`,
  );
}

main().catch((err) => {
  console.error(`npm run seed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
