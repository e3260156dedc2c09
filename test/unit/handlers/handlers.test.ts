/**
 * Every function group of the route table (functions/routes.ts FUNCTION_GROUPS), run as its
 * Lambda runs it (the group's dispatcher over API Gateway HTTP API v2 events) with the table's
 * client mocked: one representative route's happy path, and an AWS failure that must come out
 * as a clean answer with a stable `code`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  apiEvent,
  conditionFailed,
  ddbMock,
  groupHandler,
  jsonOf,
  serviceError,
  throttled,
  transactionCancelled,
  useUnitEnv,
} from '../../helpers/aws-mock';
import { keys, reviewKeys } from '../../../functions/data/keys';
import { hashToken } from '../../../functions/lib/secrets';
import { normalizeSumoCode } from '../../../functions/services/billing';
import { eventIdAt } from '../../../functions/data/notifications';
import { FUNCTION_GROUPS } from '../../../functions/routes';
import { mockClient } from 'aws-sdk-client-mock';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CognitoIdentityProviderClient,
  DescribeUserPoolCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';

useUnitEnv();

const s3Mock = mockClient(S3Client);
const cognitoMock = mockClient(CognitoIdentityProviderClient);
const sesMock = mockClient(SESv2Client);

beforeEach(() => {
  ddbMock.reset();
  s3Mock.reset();
  cognitoMock.reset();
  sesMock.reset();
  // An empty table unless a test says otherwise: reads find nothing.
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(QueryCommand).resolves({ Items: [], Count: 0 });
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
const profile = (over: Record<string, unknown> = {}) => ({
  ...keys.userProfile('u1'),
  entity: 'User',
  userId: 'u1',
  email: 'u1@example.com',
  role: 'free',
  ...over,
});
const whenProfile = (over: Record<string, unknown> = {}) =>
  ddbMock.on(GetCommand, { Key: keys.userProfile('u1') }).resolves({ Item: profile(over) });

/** AWS throttling that outlived the SDK's retries: 503 service_busy with Retry-After, naming nothing of AWS. */
function expectBusy(res: { statusCode?: number; body?: string; headers?: Record<string, string | number | boolean> }) {
  expect(res.statusCode).toBe(503);
  expect(res.headers?.['retry-after']).toBe('2');
  const body = jsonOf(res);
  expect(body.error?.code).toBe('service_busy');
  expect(body.error?.message).not.toMatch(/throughput|dynamodb|transaction|cognito/i);
}

const tested = new Set<string>();
const group = (name: keyof typeof FUNCTION_GROUPS) => {
  tested.add(name);
  return groupHandler(name);
};

describe('system', () => {
  const handler = group('system');

  it("GET /me/claims answers the authorizer's claims", async () => {
    const res = await handler(apiEvent('GET /api/me/claims', { sub: 'u1' }));
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(jsonOf(res))).toContain('u1');
  });

  it('GET /health is 200 ok when the table, buckets, user pool and SES all answer; 503 degraded, naming nothing, when the table is throttled', async () => {
    ddbMock.on(PutCommand).resolves({});
    ddbMock
      .on(GetCommand)
      .callsFake((input: { Key: { pk: string } }) =>
        input.Key.pk.startsWith('HEALTH')
          ? { Item: { probeId: ddbMock.commandCalls(PutCommand).at(-1)!.args[0].input.Item!.probeId } }
          : {},
      );
    ddbMock.on(DeleteCommand).resolves({});
    s3Mock.on(HeadBucketCommand).resolves({});
    cognitoMock.on(DescribeUserPoolCommand).resolves({ UserPool: { Id: 'us-east-1_unit', Name: 'unit' } });
    sesMock.on(GetAccountCommand).resolves({ SendingEnabled: true });
    const ok = await handler(apiEvent('GET /api/health'));
    expect(ok.statusCode).toBe(200);
    expect(jsonOf(ok)).toEqual({ status: 'ok' });
    expect(s3Mock.commandCalls(HeadBucketCommand)).toHaveLength(4);

    ddbMock.on(PutCommand).rejects(throttled());
    const degraded = await handler(apiEvent('GET /api/health'));
    expect(degraded.statusCode).toBe(503);
    expect(jsonOf(degraded)).toEqual({ status: 'degraded' });
  });

  it('GET /branding: a host without a verified domain is a 404 branding_not_found; a throttled table a 503 service_busy', async () => {
    ddbMock.on(GetCommand).resolvesOnce({}).rejectsOnce(throttled());
    const res = await handler(apiEvent('GET /api/branding', { query: 'host=files.example.com' }));
    expect(res.statusCode).toBe(404);
    expect(jsonOf(res).error?.code).toBe('branding_not_found');
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input.Key).toEqual(keys.customDomain('files.example.com'));
    expectBusy(await handler(apiEvent('GET /api/branding', { query: 'host=files.example.com' })));
  });
});

describe('auth', () => {
  const handler = group('auth');
  const token = 'a'.repeat(43);

  it('POST /passTokenCheck: a live reset link is 202', async () => {
    ddbMock
      .on(GetCommand)
      .resolves({ Item: { email: 'u1@example.com', expiresAt: Date.now() + 60_000, ttl: nowSeconds() + 60 } });
    const res = await handler(apiEvent('POST /api/passTokenCheck', { body: { token } }));
    expect(res.statusCode).toBe(202);
    expect(ddbMock.commandCalls(GetCommand)[0]!.args[0].input.Key).toEqual(keys.proofToken('reset', hashToken(token)));
  });

  it('POST /passTokenCheck: a link past its ttl (not yet deleted) is 410 reset_expired; throttling a 503 service_busy', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { email: 'u1@example.com', expiresAt: Date.now() + 60_000, ttl: nowSeconds() - 1 } })
      .rejectsOnce(throttled());
    const res = await handler(apiEvent('POST /api/passTokenCheck', { body: { token } }));
    expect(res.statusCode).toBe(410);
    expect(jsonOf(res).error?.code).toBe('reset_expired');
    expectBusy(await handler(apiEvent('POST /api/passTokenCheck', { body: { token } })));
  });

  const jwt = (payload: object) => `h.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.s`;
  const login = () =>
    handler(
      apiEvent('POST /api/combinedAuth', { body: { email: 'u1@example.com', password: 'correct horse battery' } }),
    );

  it('POST /combinedAuth signs in through Cognito: the access token in the body, the refresh token only as an httpOnly cookie', async () => {
    ddbMock.on(UpdateCommand).resolves({ Attributes: { loginCount: 2, hits: 1 } });
    whenProfile();
    cognitoMock.on(InitiateAuthCommand).resolves({
      AuthenticationResult: {
        AccessToken: jwt({ sub: 'u1', exp: nowSeconds() + 900, iat: nowSeconds(), jti: 'jti-1' }),
        RefreshToken: 'refresh-1',
      },
    });
    const res = await login();
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res)).toMatchObject({ accessToken: expect.any(String), user: expect.anything() });
    expect(res.body).not.toContain('refresh-1');
    expect(res.cookies?.join(';')).toMatch(/^sb_refresh=s1\.[\w-]{43}\.[\w-]{43}\.[\w-]{43};.*HttpOnly/iu);
    expect(res.cookies?.join(';')).not.toContain('refresh-1');
    // the session family: the Cognito token only sealed with the cookie's key
    const family = ddbMock
      .commandCalls(PutCommand)
      .map((c) => c.args[0].input.Item!)
      .find((i) => i.entity === 'Session')!;
    expect(family).toMatchObject({ userId: 'u1', generation: 0, tokens: [{ jti: 'jti-1', exp: expect.any(Number) }] });
    expect(JSON.stringify(family)).not.toContain('refresh-1');
  });

  it("POST /combinedAuth: Cognito's NotAuthorizedException is 401 auth_failed and counts a failure; its throttling a 503 service_busy", async () => {
    ddbMock.on(UpdateCommand).resolves({ Attributes: { failures: 1, hits: 1 } });
    cognitoMock
      .on(InitiateAuthCommand)
      .rejectsOnce(serviceError('NotAuthorizedException', 'Incorrect username or password.'))
      .rejectsOnce(serviceError('TooManyRequestsException', 'Too many requests'));
    const res = await login();
    expect(res.statusCode).toBe(401);
    expect(jsonOf(res).error?.code).toBe('auth_failed');
    expect(jsonOf(res).error?.message).not.toContain('Incorrect username');
    expect(
      ddbMock.commandCalls(UpdateCommand).some((c) => c.args[0].input.UpdateExpression?.includes('failures')),
    ).toBe(true);
    expectBusy(await login());
  });

  it('bad input is a 400 with a code before any AWS call', async () => {
    const res = await handler(apiEvent('POST /api/passTokenCheck', { body: { token: 'short' } }));
    expect(res.statusCode).toBe(400);
    expect(jsonOf(res).error?.code).toBe('invalid_request');
    expect(ddbMock.calls()).toHaveLength(0);
  });
});

describe('me', () => {
  const handler = group('me');

  it("PATCH /contacts: a contact's name is edited", async () => {
    ddbMock
      .on(UpdateCommand)
      .resolves({ Attributes: { email: 'c@example.com', name: 'Cee', source: 'manual', createdAt: 1 } });
    const res = await handler(
      apiEvent('PATCH /api/contacts', { sub: 'u1', body: { email: 'c@example.com', name: 'Cee' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res)).toMatchObject({ contact: { email: 'c@example.com', name: 'Cee' } });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.Key).toEqual(keys.contact('u1', 'c@example.com'));
  });

  it('PATCH /contacts: moving to an address that is a contact already (cancelled transaction) is 409 contact_exists', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { email: 'c@example.com', source: 'manual', createdAt: 1 } });
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ok', 'ConditionalCheckFailed']));
    const res = await handler(
      apiEvent('PATCH /api/contacts', { sub: 'u1', body: { email: 'c@example.com', newEmail: 'd@example.com' } }),
    );
    expect(res.statusCode).toBe(409);
    expect(jsonOf(res).error?.code).toBe('contact_exists');
  });

  it('PATCH /contacts: a gone contact is 404 contact_not_found; a throttled write a 503 service_busy', async () => {
    ddbMock.on(UpdateCommand).rejectsOnce(conditionFailed()).rejectsOnce(throttled());
    const call = () =>
      handler(apiEvent('PATCH /api/contacts', { sub: 'u1', body: { email: 'c@example.com', name: 'X' } }));
    const res = await call();
    expect(res.statusCode).toBe(404);
    expect(jsonOf(res).error?.code).toBe('contact_not_found');
    expectBusy(await call());
  });
});

describe('downloads', () => {
  const handler = group('downloads');
  const report = { id: 'Abc1234', reason: 'spam' };

  it('POST /getDownload/report: a report on a live transfer is recorded (202)', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { slug: 'Abc1234', status: 'ready' } });
    ddbMock.on(UpdateCommand).resolves({});
    ddbMock.on(PutCommand).resolves({});
    const res = await handler(apiEvent('POST /api/getDownload/report', { body: report }));
    expect(res.statusCode).toBe(202);
    expect(ddbMock.commandCalls(PutCommand)[0]!.args[0].input.Item).toMatchObject({
      pk: 'ABUSE',
      slug: 'Abc1234',
      reason: 'spam',
      sourceIp: '203.0.113.9',
    });
  });

  it('POST /getDownload/report: a full rate window (failed condition) is 429 with Retry-After', async () => {
    ddbMock.on(GetCommand).resolves({ Item: { slug: 'Abc1234', status: 'ready' } });
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    const res = await handler(apiEvent('POST /api/getDownload/report', { body: report }));
    expect(res.statusCode).toBe(429);
    expect(jsonOf(res).error?.code).toBeTruthy();
    expect(Number(res.headers?.['retry-after'])).toBeGreaterThan(0);
    expect(ddbMock.commandCalls(PutCommand)).toHaveLength(0);
  });

  it('POST /getDownload/report: a throttled table is a 503 service_busy', async () => {
    ddbMock.on(GetCommand).rejects(throttled());
    expectBusy(await handler(apiEvent('POST /api/getDownload/report', { body: report })));
  });
});

describe('insights', () => {
  const handler = group('insights');
  const notifyId = eventIdAt(Date.now() - 1000);

  it("POST /notifications/read marks the caller's notification read", async () => {
    ddbMock.on(UpdateCommand).resolves({});
    const res = await handler(apiEvent('POST /api/notifications/read', { sub: 'u1', body: { notifyId } }));
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res)).toEqual({ read: true });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input.Key).toMatchObject({ pk: 'USER#u1' });
  });

  it("POST /notifications/read: a failed condition (not the caller's, or expired) is 404 notification_not_found", async () => {
    ddbMock.on(UpdateCommand).rejectsOnce(conditionFailed()).rejectsOnce(throttled());
    const res = await handler(apiEvent('POST /api/notifications/read', { sub: 'u1', body: { notifyId } }));
    expect(res.statusCode).toBe(404);
    expect(jsonOf(res).error?.code).toBe('notification_not_found');
    expectBusy(await handler(apiEvent('POST /api/notifications/read', { sub: 'u1', body: { notifyId } })));
  });
});

describe('billing', () => {
  const handler = group('billing');
  const code = 'SUMO-1234-5678';

  it('POST /appsumo/redeem redeems an unused code', async () => {
    whenProfile();
    ddbMock
      .on(GetCommand, { Key: keys.sumoCode(hashToken(normalizeSumoCode(code))) })
      .resolves({ Item: { batch: 'b1', createdAt: 1 } });
    ddbMock.on(TransactWriteCommand).resolves({});
    const res = await handler(apiEvent('POST /api/appsumo/redeem', { sub: 'u1', body: { code } }));
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res)).toMatchObject({ codesRedeemed: 1 });
  });

  it('POST /appsumo/redeem: a code redeemed by someone else meanwhile (cancelled transaction) is 409 code_already_used', async () => {
    whenProfile();
    ddbMock
      .on(GetCommand, { Key: keys.sumoCode(hashToken(normalizeSumoCode(code))) })
      .resolvesOnce({ Item: { batch: 'b1', createdAt: 1 } })
      .resolves({ Item: { batch: 'b1', createdAt: 1, redeemedBy: 'u2' } });
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    const res = await handler(apiEvent('POST /api/appsumo/redeem', { sub: 'u1', body: { code } }));
    expect(res.statusCode).toBe(409);
    expect(jsonOf(res).error?.code).toBe('code_already_used');
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});

describe('domains', () => {
  const handler = group('domains');

  it('PUT /domains/custom claims the host for a Pro account', async () => {
    whenProfile({ role: 'pro' });
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock
      .on(GetCommand, { Key: keys.userCustomDomain('u1') })
      .resolves({ Item: { host: 'files.othercorp.net', token: 't', status: 'pending', createdAt: 1 } });
    const res = await handler(
      apiEvent('PUT /api/domains/custom', { sub: 'u1', body: { domain: 'Files.Othercorp.net' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res)).toMatchObject({
      customDomain: { typedDomain: 'files.othercorp.net', domain_status: 'pending' },
    });
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Put!.Item).toMatchObject(
      keys.customDomain('files.othercorp.net'),
    );
  });

  it('PUT /domains/custom: a host another account holds (cancelled transaction) is 409 domain_taken; throttling a 503 service_busy', async () => {
    whenProfile({ role: 'pro' });
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok']))
      .rejectsOnce(throttled());
    const call = () =>
      handler(apiEvent('PUT /api/domains/custom', { sub: 'u1', body: { domain: 'files.othercorp.net' } }));
    const res = await call();
    expect(res.statusCode).toBe(409);
    expect(jsonOf(res).error?.code).toBe('domain_taken');
    expectBusy(await call());
  });
});

describe('transfers', () => {
  const handler = group('transfers');

  it('GET /transfers/{id}/upload-state of an unknown transfer is 404; a throttled read a 503 service_busy', async () => {
    ddbMock
      .on(GetCommand, { Key: keys.transfer('Abc1234') })
      .resolvesOnce({})
      .rejects(throttled());
    const call = () =>
      handler(
        apiEvent('GET /api/transfers/{id}/upload-state', {
          rawPath: '/api/transfers/Abc1234/upload-state',
          pathParameters: { id: 'Abc1234' },
        }),
      );
    const res = await call();
    expect(res.statusCode).toBe(404);
    expectBusy(await call());
  });
});

describe("dashboard: the TransferModal's actions", () => {
  const handler = group('dashboard');
  const sent = {
    ...keys.transfer('Abc1234'),
    slug: 'Abc1234',
    status: 'ready',
    senderId: 'u1',
    expiryDate: Date.now() + 86_400_000,
    passwordHash: 'x',
  };

  it("POST /transfers/password removes the download password of the owner's sent transfer", async () => {
    whenProfile();
    ddbMock.on(GetCommand, { Key: keys.transfer('Abc1234') }).resolves({ Item: sent });
    ddbMock.on(UpdateCommand).resolves({});
    const res = await handler(
      apiEvent('POST /api/transfers/password', { sub: 'u1', body: { slug: 'Abc1234', password: null } }),
    );
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res)).toEqual({ hasPassword: false });
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.transfer('Abc1234'),
      UpdateExpression: 'REMOVE passwordHash',
    });
  });

  it('POST /transfers/password: purged meanwhile (failed condition, read again) is 410 transfer_purged', async () => {
    whenProfile();
    ddbMock.on(GetCommand, { Key: keys.transfer('Abc1234') }).resolves({ Item: sent });
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    const res = await handler(
      apiEvent('POST /api/transfers/password', { sub: 'u1', body: { slug: 'Abc1234', password: null } }),
    );
    expect(res.statusCode).toBe(410);
    expect(jsonOf(res).error?.code).toBe('transfer_purged');
  });

  it("POST /transfers/password: another user's transfer is 403 not_owner; a throttled read a 503 service_busy", async () => {
    ddbMock
      .on(GetCommand, { Key: keys.userProfile('u2') })
      .resolves({ Item: { ...profile(), userId: 'u2', email: 'u2@example.com' } });
    ddbMock
      .on(GetCommand, { Key: keys.transfer('Abc1234') })
      .resolvesOnce({ Item: sent })
      .rejects(throttled());
    const call = () =>
      handler(apiEvent('POST /api/transfers/password', { sub: 'u2', body: { slug: 'Abc1234', password: null } }));
    const res = await call();
    expect(res.statusCode).toBe(403);
    expect(jsonOf(res).error?.code).toBe('not_owner');
    expectBusy(await call());
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});

describe('dashboard', () => {
  const handler = group('dashboard');

  it("GET /getQs lists the caller's transfers with the counters", async () => {
    whenProfile();
    ddbMock.on(GetCommand, { Key: keys.transferStats('u1') }).resolves({ Item: { all: 3, expired: 1 } });
    ddbMock.on(QueryCommand, { IndexName: 'gsi1' }).resolves({
      Items: [
        {
          slug: 'Abc1234',
          status: 'ready',
          senderId: 'u1',
          createdAt: 1,
          expiryDate: Date.now() + 60_000,
          recipients: [],
          fileCount: 1,
          totalBytes: 5,
          totalDownloads: 0,
        },
      ],
    });
    const res = await handler(apiEvent('GET /api/getQs', { sub: 'u1', query: 'filter=all' }));
    expect(res.statusCode).toBe(200);
    const body = jsonOf(res);
    expect(body).toMatchObject({ allCount: 3, expiredCount: 1, activeCount: 2 });
    expect(body.allDocs).toHaveLength(1);
  });

  it('GET /getQs: a throttled table is a 503 service_busy, not a page of wrong counts', async () => {
    whenProfile();
    ddbMock.on(QueryCommand).rejects(throttled());
    expectBusy(await handler(apiEvent('GET /api/getQs', { sub: 'u1' })));
  });

  it('GET /getQs: an AWS failure that is not throttling is a logged 500 internal_error naming nothing of AWS', async () => {
    whenProfile();
    ddbMock.on(QueryCommand).rejects(serviceError('InternalServerError', 'Internal server error (DynamoDB)', 500));
    const res = await handler(apiEvent('GET /api/getQs', { sub: 'u1' }));
    expect(res.statusCode).toBe(500);
    expect(jsonOf(res).error).toEqual({
      code: 'internal_error',
      message: 'Sorry, something went wrong. Please try again.',
    });
  });

  it('a signed-in route without claims is 401', async () => {
    const res = await handler(apiEvent('GET /api/getQs'));
    expect(res.statusCode).toBe(401);
    expect(jsonOf(res).error?.code).toBe('unauthorized');
  });
});

describe('requests', () => {
  const handler = group('requests');
  const stored = {
    ...keys.request('Req12345'),
    entity: 'Request',
    id: 'Req12345',
    ownerId: 'u1',
    title: 'Docs',
    message: '',
    rules: {},
    closed: false,
    createdAt: 1,
    updatedAt: 1,
    uploadCount: 0,
    totalBytes: 0,
  };
  const call = (sub = 'u1') =>
    handler(
      apiEvent('PATCH /api/requests/{id}', {
        sub,
        rawPath: '/api/requests/Req12345',
        pathParameters: { id: 'Req12345' },
        body: { state: 'closed' },
      }),
    );

  it("PATCH /requests/{id} closes the owner's request", async () => {
    whenProfile();
    ddbMock.on(GetCommand, { Key: keys.request('Req12345') }).resolves({ Item: stored });
    ddbMock.on(UpdateCommand).resolves({ Attributes: { ...stored, closed: true } });
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(jsonOf(res))).toContain('closed');
    expect(ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.request('Req12345'),
      ConditionExpression: 'attribute_exists(pk) AND ownerId = :owner',
      ExpressionAttributeValues: { ':closed': true, ':owner': 'u1' },
    });
  });

  it("PATCH /requests/{id}: deleted meanwhile (failed condition) is 404 request_not_found; another user's too", async () => {
    whenProfile();
    ddbMock.on(GetCommand, { Key: keys.request('Req12345') }).resolves({ Item: stored });
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    const res = await call();
    expect(res.statusCode).toBe(404);
    expect(jsonOf(res).error?.code).toBe('request_not_found');
    ddbMock.on(GetCommand, { Key: keys.userProfile('u2') }).resolves({ Item: { ...profile(), userId: 'u2' } });
    const other = await call('u2');
    expect(other.statusCode).toBe(404);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('PATCH /requests/{id}: a malformed id is a 400 before any AWS call', async () => {
    const res = await handler(
      apiEvent('PATCH /api/requests/{id}', {
        sub: 'u1',
        rawPath: '/api/requests/x',
        pathParameters: { id: 'x' },
        body: { state: 'closed' },
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(ddbMock.calls()).toHaveLength(0);
  });
});

describe('teams', () => {
  const handler = group('teams');
  const inviteId = 'Inv0123456789abc';
  const invite = {
    adminId: 'u1',
    inviteId,
    email: 'm@example.com',
    tokenHash: 'th',
    sentAt: 1,
    expiresAt: Date.now() + 60_000,
  };
  const call = () =>
    handler(
      apiEvent('DELETE /api/teams/invites/{id}', {
        sub: 'u1',
        rawPath: `/api/teams/invites/${inviteId}`,
        pathParameters: { id: inviteId },
      }),
    );

  it("DELETE /teams/invites/{id} revokes the admin's invite and frees its seat", async () => {
    whenProfile({ role: 'team' });
    ddbMock.on(GetCommand, { Key: keys.teamInvite('u1', inviteId) }).resolves({ Item: invite });
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(DeleteCommand).resolves({});
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(jsonOf(res)).toEqual({ revoked: true });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Delete!.Key).toEqual(keys.teamInvite('u1', inviteId));
    expect(items[2]!.Update).toMatchObject({ Key: keys.teamSeats('u1'), ExpressionAttributeValues: { ':d': -1 } });
  });

  it('DELETE /teams/invites/{id}: revoked meanwhile (cancelled transaction) is 404 invite_not_found; throttling a 503 service_busy', async () => {
    whenProfile({ role: 'team' });
    ddbMock.on(GetCommand, { Key: keys.teamInvite('u1', inviteId) }).resolves({ Item: invite });
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ok']))
      .rejectsOnce(throttled());
    const res = await call();
    expect(res.statusCode).toBe(404);
    expect(jsonOf(res).error?.code).toBe('invite_not_found');
    expectBusy(await call());
    expect(ddbMock.commandCalls(DeleteCommand)).toHaveLength(0);
  });
});

describe('reviews', () => {
  const handler = group('reviews');
  const live = {
    ...keys.transfer('Abc1234'),
    slug: 'Abc1234',
    status: 'ready',
    senderId: 'u1',
    expiryDate: Date.now() + 3_600_000,
    review: { enabled: true },
  };
  const file = {
    ...keys.transferFile('Abc1234', 'F1le000001'),
    slug: 'Abc1234',
    fileId: 'F1le000001',
    fileName: 'cut.mp4',
    size: 10,
    status: 'uploaded',
    createdAt: 1,
  };
  const visitor = { visitorId: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'Ada' };

  it("POST /getDownload/review/comment: a visitor's thread at a time code is written with the counters (201)", async () => {
    ddbMock.on(GetCommand, { Key: keys.transfer('Abc1234') }).resolves({ Item: live });
    ddbMock.on(QueryCommand).resolves({ Items: [file] });
    ddbMock.on(UpdateCommand).resolves({ Attributes: {} });
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(PutCommand).resolves({});
    const body = {
      id: 'Abc1234',
      visitor,
      fileId: 'F1le000001',
      anchor: { kind: 'time', seconds: 5.12345 },
      body: ' Too dark ',
    };
    const res = await handler(apiEvent('POST /api/getDownload/review/comment', { body }));
    expect(res.statusCode).toBe(201);
    const comment = jsonOf(res).comment as { commentId: string };
    expect(comment).toMatchObject({
      fileId: 'F1le000001',
      author: { kind: 'visitor', name: 'Ada' },
      body: 'Too dark',
      anchor: { kind: 'time', seconds: 5.123 },
    });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Put?.Item).toMatchObject({
      ...reviewKeys.comment('Abc1234', comment.commentId),
      body: 'Too dark',
    });
    expect(items[1]!.Update?.UpdateExpression).toBe('ADD reviewComments :one, reviewUnread :one');
  });

  it('POST /getDownload/review/comment: a point on a video is 400 invalid_anchor, nothing written', async () => {
    ddbMock.on(GetCommand, { Key: keys.transfer('Abc1234') }).resolves({ Item: live });
    ddbMock.on(QueryCommand).resolves({ Items: [file] });
    ddbMock.on(UpdateCommand).resolves({ Attributes: {} });
    const body = {
      id: 'Abc1234',
      visitor,
      fileId: 'F1le000001',
      anchor: { kind: 'point', x: 0.5, y: 0.5 },
      body: 'here',
    };
    const res = await handler(apiEvent('POST /api/getDownload/review/comment', { body }));
    expect(res.statusCode).toBe(400);
    expect(jsonOf(res).error?.code).toBe('invalid_anchor');
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it("POST /getDownload/review/comment: a full review (the counter's condition) is 409 review_full", async () => {
    ddbMock.on(GetCommand, { Key: keys.transfer('Abc1234') }).resolves({ Item: live });
    ddbMock.on(QueryCommand).resolves({ Items: [file] });
    ddbMock.on(UpdateCommand).resolves({ Attributes: {} });
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['None', 'ConditionalCheckFailed']));
    const body = { id: 'Abc1234', visitor, fileId: 'F1le000001', body: 'one more' };
    const res = await handler(apiEvent('POST /api/getDownload/review/comment', { body }));
    expect(res.statusCode).toBe(409);
    expect(jsonOf(res).error?.code).toBe('review_full');
  });

  it('POST /getDownload/review/comment: neither a session nor a visitor is 401 reviewer_required', async () => {
    ddbMock.on(GetCommand, { Key: keys.transfer('Abc1234') }).resolves({ Item: live });
    const res = await handler(
      apiEvent('POST /api/getDownload/review/comment', { body: { id: 'Abc1234', fileId: 'F1le000001', body: 'hi' } }),
    );
    expect(res.statusCode).toBe(401);
    expect(jsonOf(res).error?.code).toBe('reviewer_required');
  });

  it('GET /transfers/{id}/review: a transfer without review is 409 review_off', async () => {
    whenProfile();
    ddbMock.on(GetCommand, { Key: keys.transfer('Abc1234') }).resolves({
      Item: { ...live, review: undefined, storageOwner: 'u1' },
    });
    const res = await handler(
      apiEvent('GET /api/transfers/{id}/review', {
        sub: 'u1',
        rawPath: '/api/transfers/Abc1234/review',
        pathParameters: { id: 'Abc1234' },
      }),
    );
    expect(res.statusCode).toBe(409);
    expect(jsonOf(res).error?.code).toBe('review_off');
  });

  it('POST /getDownload/review: a throttled table is a 503 service_busy', async () => {
    ddbMock.on(GetCommand).rejects(throttled());
    expectBusy(await handler(apiEvent('POST /api/getDownload/review', { body: { id: 'Abc1234' } })));
  });
});

describe('the groups', () => {
  it('every function group of the route table is exercised here', () => {
    expect([...tested].sort()).toEqual(Object.keys(FUNCTION_GROUPS).sort());
  });
});
