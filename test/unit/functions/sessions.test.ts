/**
 * The auth adapter's Cognito calls and the session service's rules, with the SDK clients mocked
 * (aws-sdk-client-mock): what is sent to Cognito and DynamoDB, and what each answer becomes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { BatchWriteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { conditionFailed, ddbMock, serviceError, useUnitEnv } from '../../helpers/aws-mock';

useUnitEnv();

const { AuthFailedError, passwordAuth, refreshAuth, revokeRefreshToken } = await import(
  '../../../functions/adapters/auth'
);
const sessions = await import('../../../functions/services/accounts-sessions');
const { keys } = await import('../../../functions/data/keys');
const { hashToken } = await import('../../../functions/lib/secrets');

const cognitoMock = mockClient(CognitoIdentityProviderClient);
const NOW = Date.UTC(2026, 10, 28, 4);
const nowS = Math.floor(NOW / 1000);
const jwt = (payload: object) => `h.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.s`;
const COGNITO_REFRESH = 'cognito-refresh-token-value';

beforeEach(() => {
  ddbMock.reset();
  cognitoMock.reset();
});

describe('auth adapter', () => {
  it('password sign-in sends USER_PASSWORD_AUTH and reads sub, exp, jti and iat from the access token', async () => {
    cognitoMock.on(InitiateAuthCommand).resolves({
      AuthenticationResult: {
        AccessToken: jwt({ sub: 'u1', exp: nowS + 900, iat: nowS, jti: 'j1' }),
        RefreshToken: 'r1',
      },
    });
    const t = await passwordAuth('a@example.com', 'pw');
    expect(t).toEqual({
      accessToken: expect.any(String),
      refreshToken: 'r1',
      expiresAt: (nowS + 900) * 1000,
      sub: 'u1',
      jti: 'j1',
      iat: nowS,
    });
    expect(cognitoMock.commandCalls(InitiateAuthCommand)[0]!.args[0].input).toEqual({
      ClientId: 'unitclient',
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: 'a@example.com', PASSWORD: 'pw' },
    });
  });

  it('a refused refresh token is AuthFailedError; anything else passes through', async () => {
    cognitoMock
      .on(InitiateAuthCommand)
      .rejectsOnce(serviceError('NotAuthorizedException', 'Refresh Token has been revoked'))
      .rejectsOnce(serviceError('InternalErrorException', 'boom', 500));
    await expect(refreshAuth('r1')).rejects.toBeInstanceOf(AuthFailedError);
    await expect(refreshAuth('r1')).rejects.toMatchObject({ name: 'InternalErrorException' });
    expect(cognitoMock.commandCalls(InitiateAuthCommand)[0]!.args[0].input).toMatchObject({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: 'r1' },
    });
  });

  it('RevokeToken names the app client and the refresh token', async () => {
    cognitoMock.on(RevokeTokenCommand).resolves({});
    await revokeRefreshToken('r1');
    expect(cognitoMock.commandCalls(RevokeTokenCommand)[0]!.args[0].input).toEqual({
      ClientId: 'unitclient',
      Token: 'r1',
    });
  });
});

describe('the access check on JWT routes', () => {
  const claims = (jti: string, iat = nowS) => ({ sub: 'u1', jti, iat: String(iat) });

  it('reads the revocation marker once, then answers from its short cache', async () => {
    ddbMock.on(GetCommand).resolves({});
    await sessions.assertAccessTokenLive(claims('cache-1'), NOW);
    await sessions.assertAccessTokenLive(claims('cache-1'), NOW + 1_000);
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(1);
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.revokedAccessToken('cache-1'),
    });
    await sessions.assertAccessTokenLive(claims('cache-1'), NOW + sessions.REVOCATION_CACHE_MS + 1);
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(2);
  });

  it('a marker is 401 token_revoked', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { pk: 'REVOKED#gone', ttl: nowS + 600 } });
    await expect(sessions.assertAccessTokenLive(claims('gone'), NOW)).rejects.toMatchObject({
      statusCode: 401,
      code: 'token_revoked',
    });
  });

  it('a token past the maximum age is 401 token_expired without a read, whatever its exp says', async () => {
    const old = nowS - sessions.ACCESS_TOKEN_MAX_AGE_SECONDS - 60;
    await expect(sessions.assertAccessTokenLive(claims('old', old), NOW)).rejects.toMatchObject({
      statusCode: 401,
      code: 'token_expired',
    });
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(0);
  });
});

describe('rotation', () => {
  const sid = 'S'.repeat(43);
  const secret = 'A'.repeat(43);
  const key = 'K'.repeat(43);
  const cookie = `s1.${sid}.${secret}.${key}`;
  const family = (over: Record<string, unknown> = {}) => ({
    Item: {
      ...keys.session(sid),
      userId: 'u1',
      generation: 3,
      secretHash: hashToken(secret),
      cognitoSealed: sessions.sealCognitoToken(COGNITO_REFRESH, { sessionId: sid, key }),
      createdAt: NOW - 60_000,
      rotatedAt: NOW - 60_000,
      expiresAt: NOW + 86_400_000,
      tokens: [{ jti: 'old-1', exp: nowS + 300 }],
      ttl: nowS + 86_400,
      ...over,
    },
  });
  const renewedTokens = {
    AuthenticationResult: { AccessToken: jwt({ sub: 'u1', exp: nowS + 900, iat: nowS, jti: 'new-1' }) },
  };

  it('the right secret: Cognito gets the unsealed token, a new secret is written over the generation read, the cookie keeps id and key', async () => {
    ddbMock.on(GetCommand).resolves(family());
    ddbMock.on(UpdateCommand).resolves({});
    cognitoMock.on(InitiateAuthCommand).resolves(renewedTokens);
    const out = await sessions.rotateSession(cookie, NOW);
    const next = sessions.parseSessionCookie(out.cookie)!;
    expect(next.sessionId).toBe(sid);
    expect(next.key).toBe(key);
    expect(cognitoMock.commandCalls(InitiateAuthCommand)[0]!.args[0].input.AuthParameters).toEqual({
      REFRESH_TOKEN: COGNITO_REFRESH,
    });
    expect(next.secret).not.toBe(secret);
    const update = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update.ConditionExpression).toContain('generation = :gen');
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':gen': 3,
      ':next': 4,
      ':old': hashToken(secret),
      ':new': hashToken(next.secret),
    });
    expect(update.ExpressionAttributeValues?.[':tokens']).toEqual([
      { jti: 'old-1', exp: nowS + 300 },
      { jti: 'new-1', exp: nowS + 900 },
    ]);
  });

  it('an old secret ends the family: revoked once, markers for its live tokens, RevokeToken to Cognito, 401 session_revoked', async () => {
    ddbMock.on(GetCommand).resolves(family({ secretHash: hashToken('B'.repeat(43)) }));
    ddbMock.on(UpdateCommand).resolves({
      Attributes: {
        tokens: [
          { jti: 'old-1', exp: nowS + 300 },
          { jti: 'dead', exp: nowS - 5 },
        ],
      },
    });
    ddbMock.on(BatchWriteCommand).resolves({});
    cognitoMock.on(RevokeTokenCommand).resolves({});
    await expect(sessions.rotateSession(cookie, NOW)).rejects.toMatchObject({
      statusCode: 401,
      code: 'session_revoked',
    });
    expect(cognitoMock.commandCalls(InitiateAuthCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      ConditionExpression: expect.stringContaining('attribute_not_exists(revokedAt)'),
      ExpressionAttributeValues: expect.objectContaining({ ':reason': 'reuse' }),
    });
    const written = Object.values(ddbMock.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems!)[0]!.map(
      (r) => r.PutRequest!.Item,
    );
    expect(written).toEqual([expect.objectContaining({ ...keys.revokedAccessToken('old-1'), ttl: nowS + 300 })]);
    expect(cognitoMock.commandCalls(RevokeTokenCommand)[0]!.args[0].input).toEqual({
      ClientId: 'unitclient',
      Token: COGNITO_REFRESH,
    });
  });

  it('losing the race for the same generation is reuse too, and the token just issued is revoked with the rest', async () => {
    ddbMock.on(GetCommand).resolves(family());
    ddbMock
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed())
      .resolves({
        Attributes: {
          tokens: [
            { jti: 'old-1', exp: nowS + 300 },
            { jti: 'new-1', exp: nowS + 900 },
          ],
        },
      });
    ddbMock.on(BatchWriteCommand).resolves({});
    cognitoMock.on(InitiateAuthCommand).resolves(renewedTokens);
    cognitoMock.on(RevokeTokenCommand).resolves({});
    await expect(sessions.rotateSession(cookie, NOW)).rejects.toMatchObject({ code: 'session_revoked' });
    expect(ddbMock.commandCalls(UpdateCommand)[1]!.args[0].input.ExpressionAttributeValues?.[':extra']).toEqual([
      { jti: 'new-1', exp: nowS + 900 },
    ]);
    const written = Object.values(ddbMock.commandCalls(BatchWriteCommand)[0]!.args[0].input.RequestItems!)[0]!.map(
      (r) => r.PutRequest!.Item!.pk,
    );
    expect(written).toEqual(['REVOKED#old-1', 'REVOKED#new-1']);
  });

  it("a cookie whose key does not open the family's sealed token is no session and changes nothing", async () => {
    ddbMock
      .on(GetCommand)
      .resolves(
        family({ cognitoSealed: sessions.sealCognitoToken(COGNITO_REFRESH, { sessionId: sid, key: 'X'.repeat(43) }) }),
      );
    await expect(sessions.rotateSession(cookie, NOW)).rejects.toMatchObject({ code: 'session_expired' });
    await sessions.endSession(cookie, NOW);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
  });
});

describe('the route table', () => {
  it('every JWT route may read the table (its session check reads the revocation marker)', async () => {
    const { routes } = await import('../../../functions/routes');
    const jwtRoutes = routes.filter((r) => r.auth === 'jwt');
    expect(jwtRoutes.length).toBeGreaterThan(0);
    expect(jwtRoutes.filter((r) => !r.access.includes('table:read')).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});

describe('the sealed Cognito token', () => {
  const sessionId = 'S'.repeat(43);
  const key = 'K'.repeat(43);

  it("opens with the family's key and id only", () => {
    const sealed = sessions.sealCognitoToken(COGNITO_REFRESH, { sessionId, key });
    expect(sealed).not.toContain(COGNITO_REFRESH);
    expect(sessions.openCognitoToken(sealed, { sessionId, key })).toBe(COGNITO_REFRESH);
    expect(sessions.openCognitoToken(sealed, { sessionId, key: 'L'.repeat(43) })).toBeUndefined();
    expect(sessions.openCognitoToken(sealed, { sessionId: 'T'.repeat(43), key })).toBeUndefined();
    expect(sessions.openCognitoToken('garbage', { sessionId, key })).toBeUndefined();
  });

  it('a logout with a cookie from before session families revokes that Cognito token', async () => {
    cognitoMock.on(RevokeTokenCommand).resolves({});
    const legacy = `eyJ${'x'.repeat(200)}.y.z`;
    await sessions.endSession(legacy, NOW);
    expect(cognitoMock.commandCalls(RevokeTokenCommand)[0]!.args[0].input).toEqual({
      ClientId: 'unitclient',
      Token: legacy,
    });
    expect(ddbMock.calls()).toHaveLength(0);
  });
});
