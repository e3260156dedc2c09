import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient, GetCommand, PutCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { S3Client, HeadBucketCommand } from '@aws-sdk/client-s3';
import { SESv2Client, GetAccountCommand } from '@aws-sdk/client-sesv2';
import { CognitoIdentityProviderClient, DescribeUserPoolCommand } from '@aws-sdk/client-cognito-identity-provider';
import { httpEvent, lambdaContext, UNIT_ENV } from '../../helpers/events';

const ddb = mockClient(DynamoDBDocumentClient);
const s3 = mockClient(S3Client);
const ses = mockClient(SESv2Client);
const idp = mockClient(CognitoIdentityProviderClient);

let handler: typeof import('../../../functions/http/system/health').handler;
let checkHealth: typeof import('../../../functions/services/health').checkHealth;

beforeAll(async () => {
  Object.assign(process.env, UNIT_ENV);
  ({ handler } = await import('../../../functions/http/system/health'));
  ({ checkHealth } = await import('../../../functions/services/health'));
});

beforeEach(() => {
  for (const m of [ddb, s3, ses, idp]) m.reset();
  ddb.on(PutCommand).resolves({});
  ddb.on(GetCommand).callsFake((input: { Key: { pk: string } }) =>
    input.Key.pk === 'JOB#heartbeat'
      ? { Item: { lastRunAt: Date.UTC(2026, 10, 21, 6, 0), runs: 7 } }
      : { Item: { probeId: input.Key.pk.replace('HEALTH#', '') } },
  );
  ddb.on(DeleteCommand).resolves({});
  s3.on(HeadBucketCommand).resolves({});
  ses.on(GetAccountCommand).resolves({ SendingEnabled: true });
  idp.on(DescribeUserPoolCommand).resolves({ UserPool: { Id: 'us-east-1_unit', Name: 'pool' } });
});

async function publicHealth() {
  const res = await handler(httpEvent(), lambdaContext());
  const r = res as { statusCode: number; body: string };
  return { status: r.statusCode, body: JSON.parse(r.body) as unknown };
}

/** The operator's report, with the status the public route answers for it. */
async function health() {
  const body = await checkHealth();
  return { status: body.ok ? 200 : 503, body };
}

describe('GET /health, the public answer', () => {
  it('says only ok with 200 when every service responds', async () => {
    expect(await publicHealth()).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('says only degraded with 503 when one fails, naming no service, pool, region or error', async () => {
    ddb.on(PutCommand).rejects(new Error('connect ECONNREFUSED 10.0.0.7:8000'));
    s3.on(HeadBucketCommand, { Bucket: 'fra-anon' }).rejects(Object.assign(new Error('nf'), { name: 'NotFound' }));
    const { status, body } = await publicHealth();
    expect(status).toBe(503);
    expect(body).toEqual({ status: 'degraded' });
  });
});

describe('the health report for operators', () => {
  it('answers 200 with every service ok when all respond', async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    for (const s of ['table', 'buckets', 'userPool', 'mail'] as const) expect(body.services[s].ok).toBe(true);
    // both buckets of both configured regions are headed
    expect(s3.commandCalls(HeadBucketCommand).map((c) => c.args[0].input.Bucket).sort()).toEqual(['fra-anon', 'fra-transfers', 'hk-anon', 'hk-transfers']);
  });

  it('answers 503 naming the failing service and keeps the others ok', async () => {
    ddb.on(PutCommand).rejects(new Error('connect ECONNREFUSED'));
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.services.table).toMatchObject({ ok: false });
    expect(body.services.table.error).toContain('ECONNREFUSED');
    expect(body.services.mail.ok).toBe(true);
  });

  it('reports the region whose bucket is missing', async () => {
    s3.on(HeadBucketCommand, { Bucket: 'fra-anon' }).rejects(Object.assign(new Error('nf'), { name: 'NotFound' }));
    const { body } = await health();
    expect(body.services.buckets.ok).toBe(false);
    expect(body.services.buckets.error).toContain('frankfurt (NotFound)');
  });

  it('reports mail as failing when SES sending is disabled', async () => {
    ses.on(GetAccountCommand).resolves({ SendingEnabled: false });
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.services.mail.ok).toBe(false);
  });

  it('shows when the scheduled heartbeat last ran, and null before its first run', async () => {
    expect((await health()).body.scheduler).toEqual({ heartbeat: { lastRunAt: '2026-11-21T06:00:00.000Z', runs: 7 } });
    ddb.on(GetCommand, { Key: { pk: 'JOB#heartbeat', sk: 'LAST_RUN' } }).resolves({});
    const { status, body } = await health();
    expect(body.scheduler).toEqual({ heartbeat: null });
    expect(status).toBe(200);
  });

  it('never sends mail', async () => {
    await publicHealth();
    expect(ses.calls().every((c) => c.args[0] instanceof GetAccountCommand)).toBe(true);
  });
});
