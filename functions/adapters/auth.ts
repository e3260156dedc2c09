import { config } from '../lib/env';

/** Cognito's client on first use: most routes of a group never call Cognito (tokens are checked by aws-jwt-verify). */
const cognito = () => import('../lib/clients/cognito');

export async function describeUserPool(): Promise<{ id: string; name: string | undefined }> {
  const { cognitoIdp, DescribeUserPoolCommand } = await cognito();
  const out = await cognitoIdp().send(new DescribeUserPoolCommand({ UserPoolId: config().userPoolId }));
  if (!out.UserPool?.Id) throw new Error('user pool not found');
  return { id: out.UserPool.Id, name: out.UserPool.Name };
}

export class AuthFailedError extends Error {
  constructor() {
    super('Auth Failed');
    this.name = 'AuthFailedError';
  }
}

export interface CognitoTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** epoch ms, from the token's own exp (cognito-local sends no ExpiresIn) */
  readonly expiresAt: number;
  readonly sub: string;
  /** the access token's id (Cognito sets one on every token): what a revocation marker names */
  readonly jti: string;
  /** epoch s the access token was issued */
  readonly iat: number;
}

function claimsOf(accessToken: string): { sub: string; exp: number; jti: string; iat: number } {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    sub?: string;
    exp?: number;
    jti?: string;
    iat?: number;
  };
  if (!payload.sub || !payload.exp || !payload.jti || !payload.iat)
    throw new Error('access token without sub, exp, jti or iat');
  return { sub: payload.sub, exp: payload.exp, jti: payload.jti, iat: payload.iat };
}

function tokens(result: { AccessToken?: string; RefreshToken?: string } | undefined): CognitoTokens {
  if (!result?.AccessToken) throw new AuthFailedError();
  const { sub, exp, jti, iat } = claimsOf(result.AccessToken);
  return {
    accessToken: result.AccessToken,
    ...(result.RefreshToken ? { refreshToken: result.RefreshToken } : {}),
    expiresAt: exp * 1000,
    sub,
    jti,
    iat,
  };
}

/** Both local (InvalidPasswordException) and AWS (NotAuthorizedException) wrong-password errors are 'Auth Failed'. */
const AUTH_FAILURES = new Set([
  'NotAuthorizedException',
  'InvalidPasswordException',
  'UserNotFoundException',
  'UserNotConfirmedException',
  'PasswordResetRequiredException',
]);

export async function passwordAuth(email: string, password: string): Promise<CognitoTokens> {
  const { cognitoIdp, InitiateAuthCommand } = await cognito();
  try {
    const out = await cognitoIdp().send(
      new InitiateAuthCommand({
        ClientId: config().userPoolClientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
    return tokens(out.AuthenticationResult);
  } catch (err) {
    if (AUTH_FAILURES.has((err as { name?: string }).name ?? '')) throw new AuthFailedError();
    throw err;
  }
}

export async function refreshAuth(refreshToken: string): Promise<CognitoTokens> {
  const { cognitoIdp, InitiateAuthCommand } = await cognito();
  try {
    const out = await cognitoIdp().send(
      new InitiateAuthCommand({
        ClientId: config().userPoolClientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: refreshToken },
      }),
    );
    return tokens(out.AuthenticationResult);
  } catch (err) {
    if (AUTH_FAILURES.has((err as { name?: string }).name ?? '')) throw new AuthFailedError();
    throw err;
  }
}

/**
 * Ends a Cognito refresh token and, for Cognito's own APIs, the access tokens it issued (the
 * API's JWT authorizer checks signatures only: services/accounts-sessions.ts keeps its own list).
 */
export async function revokeRefreshToken(refreshToken: string): Promise<void> {
  const { cognitoIdp, RevokeTokenCommand } = await cognito();
  await cognitoIdp().send(new RevokeTokenCommand({ ClientId: config().userPoolClientId, Token: refreshToken }));
}

/** A user whose email is already proven (our code), with no Cognito mail (architecture §6). Returns the sub. */
export async function adminCreateUser(email: string): Promise<string | 'exists'> {
  const { cognitoIdp, AdminCreateUserCommand } = await cognito();
  try {
    const out = await cognitoIdp().send(
      new AdminCreateUserCommand({
        UserPoolId: config().userPoolId,
        Username: email,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    const sub = out.User?.Attributes?.find((a) => a.Name === 'sub')?.Value ?? out.User?.Username;
    if (!sub) throw new Error('AdminCreateUser returned no sub');
    return sub;
  } catch (err) {
    if ((err as { name?: string }).name === 'UsernameExistsException') return 'exists';
    throw err;
  }
}

export async function adminSetPassword(email: string, password: string): Promise<void> {
  const { cognitoIdp, AdminSetUserPasswordCommand } = await cognito();
  await cognitoIdp().send(
    new AdminSetUserPasswordCommand({
      UserPoolId: config().userPoolId,
      Username: email,
      Password: password,
      Permanent: true,
    }),
  );
}

export async function adminDeleteUser(email: string): Promise<void> {
  const { cognitoIdp, AdminDeleteUserCommand } = await cognito();
  await cognitoIdp().send(new AdminDeleteUserCommand({ UserPoolId: config().userPoolId, Username: email }));
}
