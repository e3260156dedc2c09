import {
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { putSenderProfile } from '../../functions/data/users';
import type { LocalApp } from './app';

export interface SignedInUser {
  readonly email: string;
  readonly accessToken: string;
  readonly sub: string;
}

/**
 * A cognito-local user, verified and with a permanent password, signed in with the password
 * (the tokens Cognito gives): nothing of the product's own records.
 */
export async function signInNewPoolUser(
  app: LocalApp,
  email: string,
  password: string,
): Promise<{ accessToken: string; idToken: string }> {
  const idp = new CognitoIdentityProviderClient({
    endpoint: app.stack.urls.cognito,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  try {
    await idp.send(
      new AdminCreateUserCommand({
        UserPoolId: app.stack.userPoolId,
        Username: email,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    await idp.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: app.stack.userPoolId,
        Username: email,
        Password: password,
        Permanent: true,
      }),
    );
    const auth = await idp.send(
      new InitiateAuthCommand({
        ClientId: app.stack.userPoolClientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
    return { accessToken: auth.AuthenticationResult!.AccessToken!, idToken: auth.AuthenticationResult!.IdToken! };
  } finally {
    idp.destroy();
  }
}

/**
 * An account in the local stack without the mailed-code sign-up (tests, benchmarks): the
 * cognito-local user (verified, with a password), its profile with the given plan, and a
 * signed-in access token.
 */
export async function createSignedInUser(
  app: LocalApp,
  email: string,
  opts: { role: string; password?: string; lang?: string },
): Promise<SignedInUser> {
  const { accessToken } = await signInNewPoolUser(app, email, opts.password ?? 'secret123');
  const sub = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sub as string;
  await putSenderProfile({ userId: sub, email, role: opts.role, ...(opts.lang ? { lang: opts.lang } : {}) });
  return { email, accessToken, sub };
}
