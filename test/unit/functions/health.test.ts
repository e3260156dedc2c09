import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpEvent, lambdaContext, UNIT_ENV } from '../../helpers/events';
import { jsonResponse, s3Target, stubHttp, type SentRequest } from '../../helpers/http-stub';

/**
 * GET /health and the operators' report, with AWS answered at the fetch boundary: DynamoDB
 * (JSON 1.0), S3 HEAD bucket, Cognito DescribeUserPool, SES GetAccount, as each service answers.
 */
let handler: typeof import('../../../functions/http/system/health').handler;
let checkHealth: typeof import('../../../functions/services/health').checkHealth;

beforeAll(async () => {
  Object.assign(process.env, UNIT_ENV);
  ({ handler } = await import('../../../functions/http/system/health'));
  ({ checkHealth } = await import('../../../functions/services/health'));
});

/** What each service answers; tests override one. */
interface Answers {
  putItem: (req: SentRequest) => Response;
  getItem: (req: SentRequest) => Response;
  headBucket: (bucket: string) => Response;
  account: () => Response;
}

let answers: Answers;
let calls: SentRequest[];
let restore: () => void;

const refused = () => {
  // what Node's http client rejects with when nothing listens
  throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:8000'), {
    code: 'ECONNREFUSED',
    errno: -111,
    syscall: 'connect',
  });
};

beforeEach(() => {
  answers = {
    putItem: () => jsonResponse({}),
    getItem: (req) => {
      const pk = req.json<{ Key: { pk: { S: string } } }>().Key.pk.S;
      return jsonResponse(
        pk === 'JOB#heartbeat'
          ? { Item: { lastRunAt: { N: String(Date.UTC(2026, 10, 21, 6, 0)) }, runs: { N: '7' } } }
          : { Item: { probeId: { S: pk.replace('HEALTH#', '') } } },
      );
    },
    headBucket: () => new Response(null, { status: 200 }),
    account: () => jsonResponse({ SendingEnabled: true }),
  };
  ({ calls, restore } = stubHttp((req) => {
    const host = req.url.hostname;
    if (host === 'dynamodb.us-east-1.amazonaws.com') {
      if (req.target === 'PutItem') return answers.putItem(req);
      if (req.target === 'GetItem') return answers.getItem(req);
      if (req.target === 'DeleteItem') return jsonResponse({});
    }
    if (host.includes('.s3.') && req.method === 'HEAD' && req.url.pathname === '/')
      return answers.headBucket(s3Target(req.url).bucket);
    if (host === 'cognito-idp.us-east-1.amazonaws.com' && req.target === 'DescribeUserPool') {
      return jsonResponse({ UserPool: { Id: 'us-east-1_unit', Name: 'pool' } }, 200, {
        'content-type': 'application/x-amz-json-1.1',
      });
    }
    if (host === 'email.us-east-1.amazonaws.com' && req.method === 'GET' && req.url.pathname === '/v2/email/account')
      return answers.account();
    return jsonResponse(
      { __type: 'UnexpectedRequest', message: `${req.method} ${req.url.href} ${req.target ?? ''}` },
      400,
    );
  }));
});

afterEach(() => restore());

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
    answers.putItem = refused;
    answers.headBucket = (bucket) => new Response(null, { status: bucket === 'fra-anon' ? 404 : 200 });
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
    const heads = calls.filter((c) => c.method === 'HEAD').map((c) => c.url.href);
    expect(heads.sort()).toEqual([
      'https://fra-anon.s3.eu-central-1.amazonaws.com/',
      'https://fra-transfers.s3.eu-central-1.amazonaws.com/',
      'https://hk-anon.s3.ap-east-1.amazonaws.com/',
      'https://hk-transfers.s3.ap-east-1.amazonaws.com/',
    ]);
    // signed with the environment's credentials for each bucket's region
    for (const c of calls.filter((x) => x.method === 'HEAD')) {
      expect(c.headers.get('authorization')).toMatch(
        new RegExp(`^AWS4-HMAC-SHA256 Credential=unit/\\d{8}/${c.url.hostname.split('.')[2]}/s3/aws4_request, `, 'u'),
      );
    }
  });

  it('answers 503 naming the failing service and keeps the others ok', async () => {
    answers.putItem = refused;
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.services.table).toMatchObject({ ok: false });
    expect(body.services.table.error).toContain('ECONNREFUSED');
    // a refused connection is retried by the SDK's standard policy before the check fails
    expect(calls.filter((c) => c.target === 'PutItem').length).toBeGreaterThan(1);
    expect(body.services.mail.ok).toBe(true);
  });

  it('reports the region whose bucket is missing', async () => {
    answers.headBucket = (bucket) => new Response(null, { status: bucket === 'fra-anon' ? 404 : 200 });
    const { body } = await health();
    expect(body.services.buckets.ok).toBe(false);
    expect(body.services.buckets.error).toContain('frankfurt (NotFound)');
  });

  it('reports mail as failing when SES sending is disabled', async () => {
    answers.account = () => jsonResponse({ SendingEnabled: false });
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.services.mail.ok).toBe(false);
  });

  it('shows when the scheduled heartbeat last ran, and null before its first run', async () => {
    expect((await health()).body.scheduler).toEqual({ heartbeat: { lastRunAt: '2026-11-21T06:00:00.000Z', runs: 7 } });
    const probes = answers.getItem;
    answers.getItem = (req) =>
      req.json<{ Key: { pk: { S: string } } }>().Key.pk.S === 'JOB#heartbeat' ? jsonResponse({}) : probes(req);
    const { status, body } = await health();
    expect(body.scheduler).toEqual({ heartbeat: null });
    expect(status).toBe(200);
  });

  it('never sends mail', async () => {
    await publicHealth();
    const mail = calls.filter((c) => c.url.hostname.startsWith('email.'));
    expect(mail.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['GET /v2/email/account']);
  });
});
