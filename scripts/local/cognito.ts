import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { startChild, type Child } from './child';

const require = createRequire(import.meta.url);

export const USER_POOL_NAME = 'sendbridge-users';
export const USER_POOL_CLIENT_NAME = 'sendbridge-web';

export async function startCognito(opts: { port: number; dataDir: string }): Promise<Child> {
  mkdirSync(opts.dataDir, { recursive: true });
  const entry = path.join(path.dirname(require.resolve('cognito-local/package.json')), 'lib', 'bin', 'start.js');
  return startChild('cognito-local', process.execPath, [entry], {
    cwd: opts.dataDir,
    env: { ...process.env, PORT: String(opts.port), HOST: '127.0.0.1', DEBUG: '' },
    ready: /Cognito Local running on/,
    port: opts.port,
  });
}

export interface PoolIds {
  userPoolId: string;
  userPoolClientId: string;
}

/**
 * Reuses the pool and client recorded in `<dataDir>/pool.json` when they still exist,
 * otherwise creates them with the same settings as the CDK CoreStack (email as username).
 */
export async function ensureUserPool(endpoint: string, dataDir: string): Promise<PoolIds & { created: boolean }> {
  const client = new CognitoIdentityProviderClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const idsFile = path.join(dataDir, 'pool.json');
    try {
      if (existsSync(idsFile)) {
        const ids = JSON.parse(readFileSync(idsFile, 'utf8')) as PoolIds;
        await client.send(new DescribeUserPoolCommand({ UserPoolId: ids.userPoolId }));
        await client.send(
          new DescribeUserPoolClientCommand({ UserPoolId: ids.userPoolId, ClientId: ids.userPoolClientId }),
        );
        return { ...ids, created: false };
      }
    } catch {
      // recorded ids are stale (data wiped by hand): create a new pool below
    }
    const pool = await client.send(
      new CreateUserPoolCommand({
        PoolName: USER_POOL_NAME,
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        Policies: {
          PasswordPolicy: {
            MinimumLength: 6,
            RequireLowercase: false,
            RequireUppercase: false,
            RequireNumbers: false,
            RequireSymbols: false,
          },
        },
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      }),
    );
    const userPoolId = pool.UserPool?.Id;
    if (!userPoolId) throw new Error('cognito-local returned no user pool id');
    const app = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: USER_POOL_CLIENT_NAME,
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        EnableTokenRevocation: true,
        // As the CDK app client: 15-minute access tokens (the API also caps their age itself).
        AccessTokenValidity: 15,
        IdTokenValidity: 15,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes' },
      }),
    );
    const userPoolClientId = app.UserPoolClient?.ClientId;
    if (!userPoolClientId) throw new Error('cognito-local returned no client id');
    writeFileSync(idsFile, JSON.stringify({ userPoolId, userPoolClientId }, null, 2));
    return { userPoolId, userPoolClientId, created: true };
  } finally {
    client.destroy();
  }
}
