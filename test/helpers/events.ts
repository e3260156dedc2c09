import type { Context } from 'aws-lambda';
import type { HttpEvent } from '../../functions/lib/http';

/** Shared API Gateway v2 event factory for unit tests (conventions §10). */
export function httpEvent(overrides: Partial<HttpEvent> & { method?: string; path?: string } = {}): HttpEvent {
  const { method = 'GET', path = '/api/health', ...rest } = overrides;
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: new Date(0).toISOString(),
      timeEpoch: 0,
      authorizer: { jwt: { claims: {}, scopes: [] }, principalId: '', integrationLatency: 0 },
    },
    ...rest,
  } as HttpEvent;
}

export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test',
    memoryLimitInMB: '1024',
    awsRequestId: 'aws-req-1',
    logGroupName: 'test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Environment a handler needs, pointing nowhere real (unit tests mock the clients). */
export const UNIT_ENV: Record<string, string> = {
  TABLE_NAME: 'unit-table',
  REGION_BUCKETS: JSON.stringify({
    hongkong: { bucket: 'hk-transfers', anonBucket: 'hk-anon', awsRegion: 'ap-east-1' },
    frankfurt: { bucket: 'fra-transfers', anonBucket: 'fra-anon', awsRegion: 'eu-central-1' },
  }),
  DEFAULT_STORAGE_REGION: 'hongkong',
  USER_POOL_ID: 'us-east-1_unit',
  USER_POOL_CLIENT_ID: 'unitclient',
  MAIL_FROM: 'SendBridge <no-reply@example.com>',
  APP_ORIGIN: 'https://app.example.com',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'unit',
  AWS_SECRET_ACCESS_KEY: 'unit',
};
