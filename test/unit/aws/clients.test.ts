/**
 * The client modules of functions/lib/clients: one client per process, created on first use,
 * sending to the configured endpoint (the emulators) or, unset, to AWS's regional endpoint,
 * signed with the environment's credentials, with a request timeout that throws. Requests are
 * answered at the SDK's HTTP handler (test/helpers/http-stub.ts).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNIT_ENV } from '../../helpers/events';
import { jsonResponse, stubHttp, type SentRequest } from '../../helpers/http-stub';

const saved = { ...process.env };
let calls: SentRequest[];
let restore: () => void;

type Clients = {
  sesv2: typeof import('../../../functions/lib/clients/sesv2');
  cognito: typeof import('../../../functions/lib/clients/cognito');
  lambda: typeof import('../../../functions/lib/clients/lambda');
  dynamodb: typeof import('../../../functions/lib/clients/dynamodb');
};

/** Fresh modules (and so fresh clients and configuration) under the given environment. */
async function load(env: Record<string, string>): Promise<Clients> {
  vi.resetModules();
  process.env = { ...saved, ...UNIT_ENV, ...env };
  return {
    sesv2: await import('../../../functions/lib/clients/sesv2'),
    cognito: await import('../../../functions/lib/clients/cognito'),
    lambda: await import('../../../functions/lib/clients/lambda'),
    dynamodb: await import('../../../functions/lib/clients/dynamodb'),
  };
}

async function sendEach(c: Clients): Promise<void> {
  await c.sesv2.sesv2().send(new c.sesv2.GetAccountCommand({}));
  await c.cognito.cognitoIdp().send(new c.cognito.DescribeUserPoolCommand({ UserPoolId: 'us-east-1_unit' }));
  await c.lambda
    .lambda()
    .send(new c.lambda.InvokeCommand({ FunctionName: 'zip-build', InvocationType: 'Event', Payload: '{}' }));
  await c.dynamodb.ddb().get({ TableName: 'unit-table', Key: { pk: 'a', sk: 'b' } });
}

// The first import of four SDK clients takes seconds under vitest's transform: once, here.
beforeAll(async () => {
  await load({});
}, 60_000);

beforeEach(() => {
  ({ calls, restore } = stubHttp((req) =>
    req.url.pathname.includes('/invocations') ? new Response(null, { status: 202 }) : jsonResponse({}),
  ));
});

afterEach(() => {
  restore();
  process.env = saved;
});

describe('client modules', () => {
  it('send to the configured endpoints (the emulators)', async () => {
    const c = await load({
      SES_ENDPOINT: 'http://127.0.0.1:8005',
      COGNITO_ENDPOINT: 'http://127.0.0.1:9229',
      LAMBDA_ENDPOINT: 'http://127.0.0.1:3001',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
    });
    await sendEach(c);
    expect(calls.map((r) => r.url.origin)).toEqual([
      'http://127.0.0.1:8005',
      'http://127.0.0.1:9229',
      'http://127.0.0.1:3001',
      'http://127.0.0.1:8000',
    ]);
    expect(calls[2]!.url.pathname).toBe('/2015-03-31/functions/zip-build/invocations');
    expect(calls[2]!.headers.get('x-amz-invocation-type')).toBe('Event');
  });

  it("send to AWS's regional endpoints when none is configured, signed with the environment's credentials", async () => {
    const c = await load({ AWS_REGION: 'eu-central-1' });
    await sendEach(c);
    expect(calls.map((r) => r.url.host)).toEqual([
      'email.eu-central-1.amazonaws.com',
      'cognito-idp.eu-central-1.amazonaws.com',
      'lambda.eu-central-1.amazonaws.com',
      'dynamodb.eu-central-1.amazonaws.com',
    ]);
    for (const r of calls)
      expect(r.headers.get('authorization')).toMatch(/^AWS4-HMAC-SHA256 Credential=unit\/\d{8}\/eu-central-1\//u);
  });

  it('create each client once, with a request timeout that throws', async () => {
    const c = await load({});
    expect(c.sesv2.sesv2()).toBe(c.sesv2.sesv2());
    expect(c.cognito.cognitoIdp()).toBe(c.cognito.cognitoIdp());
    expect(c.lambda.lambda()).toBe(c.lambda.lambda());
    expect(c.dynamodb.ddb()).toBe(c.dynamodb.ddb());
    for (const client of [c.sesv2.sesv2(), c.cognito.cognitoIdp(), c.lambda.lambda()]) {
      const handler = client.config.requestHandler as unknown as {
        configProvider: Promise<{ requestTimeout?: number; throwOnRequestTimeout?: boolean }>;
      };
      expect(await handler.configProvider).toMatchObject({ requestTimeout: 30_000, throwOnRequestTimeout: true });
    }
  });
});
