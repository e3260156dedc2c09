import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import {
  API_CORS,
  API_PREFIX,
  functionGroupOf,
  functionsOf,
  jobs,
  routes,
  type Access,
  type RouteDef,
} from '../../functions/routes';
import { ENV } from '../../functions/lib/env-names';
import { handlerEntry } from '../../lib/paths';
import { USER_POOL_ADMIN_ACTIONS } from '../../lib/constructs/api-function';
import { logicalId, resourcesOf, synthSendBridge, type TestApp } from './synth';

let t: TestApp;
let core: Template;

beforeAll(() => {
  t = synthSendBridge();
  core = t.template(t.core);
});

const routeKey = (r: { method: string; path: string }) => `${r.method} ${API_PREFIX}${r.path}`;
const apiFunctions = functionsOf();

/** Logical id of the function that serves a route. */
function functionIdOf(route: RouteDef): string {
  const fn = t.core.routeFunctions.get(functionGroupOf(route));
  if (!fn) throw new Error(`no function for ${route.handler}`);
  return logicalId(fn.function, t.core);
}

/** the jobs the CoreStack runs (the WebStack's are checked in custom-domains.test.ts). */
const coreJobs = jobs.filter((j) => (j.stack ?? 'core') === 'core');

/** Every action granted to a function's role, from its inline policies. */
interface GrantedStatement {
  readonly Action: string | string[];
  readonly Resource: unknown;
}

function grantedStatements(fnLogicalId: string): GrantedStatement[] {
  const fn = core.toJSON().Resources[fnLogicalId];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const role = core.toJSON().Resources[roleId];
  return (role.Properties.Policies ?? []).flatMap(
    (p: { PolicyDocument: { Statement: GrantedStatement[] } }) => p.PolicyDocument.Statement,
  );
}

function grantedActions(fnLogicalId: string): Set<string> {
  return new Set(grantedStatements(fnLogicalId).flatMap((s) => [s.Action].flat()));
}

/** Granted on a resource whose template text mentions `resource` (two accesses share GetSecretValue, on different secrets). */
function grantedOn(fnLogicalId: string, action: string, resource: string): boolean {
  return grantedStatements(fnLogicalId).some(
    (s) => [s.Action].flat().includes(action) && JSON.stringify(s.Resource).includes(resource),
  );
}

/** One marker action per access, and the actions an access may bring (least privilege). */
const MARKER: Record<Access, string> = {
  'table:read': 'dynamodb:Query',
  'table:write': 'dynamodb:PutItem',
  'buckets:read': 's3:GetObject',
  'buckets:write': 's3:PutObject',
  'mail:send': 'ses:SendEmail',
  'mail:read': 'ses:GetAccount',
  'userpool:read': 'cognito-idp:DescribeUserPool',
  'userpool:admin': 'cognito-idp:AdminCreateUser',
  'jobs:invoke': 'lambda:InvokeFunction',
  payments: 'secretsmanager:GetSecretValue',
  'mail:identities': 'ses:CreateEmailIdentity',
  'cdn:tenants': 'cloudfront:CreateDistributionTenant',
  'buckets:cors': 's3:PutBucketCORS',
  'events:publish': 'events:PutEvents',
  receipts: 'secretsmanager:PutSecretValue',
};
const ALWAYS = ['logs:CreateLogStream', 'logs:PutLogEvents', 'xray:PutTraceSegments', 'xray:PutTelemetryRecords'];
const ALLOWED_BY: Record<Access, RegExp> = {
  'table:read': /^dynamodb:(GetItem|BatchGetItem|Query|ConditionCheckItem|DescribeTable)$/,
  'table:write': /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem|ConditionCheckItem)$/,
  'buckets:read': /^s3:(GetObject|ListBucket)$/,
  'buckets:write': /^s3:(PutObject|DeleteObject|AbortMultipartUpload)$/,
  'mail:send': /^ses:(SendEmail|SendRawEmail)$/,
  'mail:read': /^ses:GetAccount$/,
  'userpool:read': /^cognito-idp:DescribeUserPool$/,
  'userpool:admin': new RegExp(`^(${USER_POOL_ADMIN_ACTIONS.join('|')})$`),
  'jobs:invoke': /^lambda:InvokeFunction$/,
  payments: /^secretsmanager:GetSecretValue$/,
  'mail:identities': /^ses:(CreateEmailIdentity|GetEmailIdentity|DeleteEmailIdentity)$/,
  'cdn:tenants':
    /^cloudfront:(CreateDistributionTenant|GetDistributionTenant|GetDistributionTenantByDomain|UpdateDistributionTenant|DeleteDistributionTenant)$/,
  'buckets:cors': /^s3:(GetBucketCORS|PutBucketCORS)$/,
  'events:publish': /^(events:PutEvents|sqs:SendMessage)$/,
  receipts: /^secretsmanager:(GetSecretValue|PutSecretValue)$/,
};

function expectLeastPrivilege(fnLogicalId: string, access: readonly Access[]): void {
  const granted = grantedActions(fnLogicalId);
  for (const a of Object.keys(MARKER) as Access[]) {
    // the Stripe secret's read, told apart from the receipt keys' read of their own secret
    const has = a === 'payments' ? grantedOn(fnLogicalId, MARKER[a], 'sendbridge/stripe') : granted.has(MARKER[a]);
    expect(has, `${fnLogicalId} ${MARKER[a]} iff access ${a}`).toBe(access.includes(a));
  }
  for (const action of granted) {
    const allowed = ALWAYS.includes(action) || access.some((a) => ALLOWED_BY[a].test(action));
    expect(allowed, `${fnLogicalId} grants ${action}, which ${access.join(', ') || 'no access'} does not need`).toBe(
      true,
    );
  }
}

describe('HTTP API', () => {
  it('has exactly the routes of functions/routes.ts under /api', () => {
    const keys = Object.values(resourcesOf(core, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties!.RouteKey);
    expect(new Set(keys)).toEqual(new Set(routes.map(routeKey)));
    expect(keys).toHaveLength(routes.length);
  });

  it('puts the Cognito JWT authorizer on jwt routes and no authorizer on public ones', () => {
    const authorizers = resourcesOf(core, 'AWS::ApiGatewayV2::Authorizer');
    expect(Object.keys(authorizers)).toHaveLength(1);
    const [authorizerId, authorizer] = Object.entries(authorizers)[0]!;
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ Ref: logicalId(t.core.userPoolClient, t.core) }],
        Issuer: {
          'Fn::Join': [
            '',
            ['https://cognito-idp.ap-southeast-1.amazonaws.com/', { Ref: logicalId(t.core.userPool, t.core) }],
          ],
        },
      },
    });

    const byKey = new Map(
      Object.values(resourcesOf(core, 'AWS::ApiGatewayV2::Route')).map((r) => [r.Properties!.RouteKey, r.Properties!]),
    );
    for (const route of routes) {
      const props = byKey.get(routeKey(route))!;
      if (route.auth === 'jwt') {
        expect(props, routeKey(route)).toMatchObject({ AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } });
      } else {
        expect(props.AuthorizationType, routeKey(route)).toBe('NONE');
        expect(props.AuthorizerId, routeKey(route)).toBeUndefined();
      }
    }
  });

  it("'key' routes (the public API v1) have no authorizer in AWS, as locally, and their handler verifies the key with the route's scope", async () => {
    const keyed = routes.filter((r) => r.auth === 'key');
    expect(keyed.length).toBeGreaterThanOrEqual(10);
    const byKey = new Map(
      Object.values(resourcesOf(core, 'AWS::ApiGatewayV2::Route')).map((r) => [r.Properties!.RouteKey, r.Properties!]),
    );
    for (const route of keyed) {
      expect(route.path.startsWith('/v1/'), routeKey(route)).toBe(true);
      expect(route.scope, routeKey(route)).toBeDefined();
      const props = byKey.get(routeKey(route))!;
      expect(props.AuthorizationType, routeKey(route)).toBe('NONE');
      expect(props.AuthorizerId, routeKey(route)).toBeUndefined();
      // the key check reads the key and writes its rate window and last use
      expect(route.access, routeKey(route)).toEqual(expect.arrayContaining(['table:read', 'table:write']));
      const actions = grantedActions(functionIdOf(route));
      expect(actions.has('dynamodb:UpdateItem') && actions.has('dynamodb:GetItem'), routeKey(route)).toBe(true);
      const mod = (await import(handlerEntry(route.handler))) as { handler: { keyScope?: string } };
      expect(mod.handler.keyScope, `${route.handler} is built with keyRoute('${route.scope}')`).toBe(route.scope);
    }
    // and no route without 'key' auth verifies a key (a scope on it would be a lie)
    for (const route of routes.filter((r) => r.auth !== 'key')) expect(route.scope, routeKey(route)).toBeUndefined();
  });

  it("sends each route to its group's function", () => {
    const integrations = resourcesOf(core, 'AWS::ApiGatewayV2::Integration');
    const byKey = new Map(
      Object.values(resourcesOf(core, 'AWS::ApiGatewayV2::Route')).map((r) => [r.Properties!.RouteKey, r.Properties!]),
    );
    for (const route of routes) {
      const target = byKey.get(routeKey(route))!.Target as { 'Fn::Join': [string, unknown[]] };
      const integrationId = (target['Fn::Join'][1][1] as { Ref: string }).Ref;
      expect(integrations[integrationId]!.Properties!.IntegrationUri, routeKey(route)).toEqual({
        'Fn::GetAtt': [functionIdOf(route), 'Arn'],
      });
    }
  });

  it('has one Lambda per function group and per job, on nodejs24.x arm64, with one integration and one invoke permission each', () => {
    const functions = resourcesOf(core, 'AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(apiFunctions.length + coreJobs.length);
    // a job that ships a linux-x64 native package (sharp) declares x86_64; everything else is arm64
    const x86 = new Set(
      coreJobs
        .filter((j) => j.architecture === 'x86_64')
        .map((j) => logicalId(t.core.jobFunctions.get(j.name)!.function, t.core)),
    );
    for (const [id, fn] of Object.entries(functions)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: [x86.has(id) ? 'x86_64' : 'arm64'],
        TracingConfig: { Mode: 'Active' },
        Handler: 'index.handler',
      });
    }
    expect(Object.keys(resourcesOf(core, 'AWS::ApiGatewayV2::Integration'))).toHaveLength(apiFunctions.length);
    const permissions = Object.values(resourcesOf(core, 'AWS::Lambda::Permission'));
    const fromApi = permissions.filter((p) => p.Properties!.Principal === 'apigateway.amazonaws.com');
    expect(fromApi).toHaveLength(apiFunctions.length);
    for (const p of fromApi) {
      // Scoped to this API (any stage, method and path): the dispatcher refuses unknown route keys.
      expect(JSON.stringify(p.Properties!.SourceArn)).toContain(logicalId(t.core.httpApi, t.core));
      expect(JSON.stringify(p.Properties!.SourceArn)).toContain('/*/*/*');
    }
  });

  it('gives every function the env the functions read', () => {
    const required = [
      ENV.tableName,
      ENV.regionBuckets,
      ENV.defaultRegion,
      ENV.userPoolId,
      ENV.userPoolClientId,
      ENV.mailFrom,
      ENV.sesConfigurationSet,
      ENV.appOrigin,
    ];
    for (const [id, fn] of Object.entries(resourcesOf(core, 'AWS::Lambda::Function'))) {
      const vars = (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      for (const name of required) expect(vars[name], `${id} ${name}`).toBeDefined();
      expect(vars[ENV.defaultRegion]).toBe('hongkong');
      // Emulator endpoints are for the local column only (architecture §1).
      for (const name of [ENV.dynamodbEndpoint, ENV.s3Endpoint, ENV.cognitoEndpoint, ENV.sesEndpoint])
        expect(vars[name]).toBeUndefined();
    }
  });

  it('lists every served storage region in REGION_BUCKETS', () => {
    const fn = resourcesOf(core, 'AWS::Lambda::Function')[functionIdOf(routes[0]!)]!;
    const json = JSON.stringify(
      (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables[ENV.regionBuckets],
    );
    for (const [regionId, awsRegion, stackName] of [
      ['hongkong', 'ap-east-1', 'SendBridge-Storage-Hongkong'],
      ['frankfurt', 'eu-central-1', 'SendBridge-Storage-Frankfurt'],
    ] as const) {
      expect(json).toContain(`\\"${regionId}\\":{\\"bucket\\":`);
      expect(json).toContain(`\\"awsRegion\\":\\"${awsRegion}\\"`);
      expect(json).toContain(stackName);
    }
  });

  it("grants each grouped function exactly the union of its routes' access, nothing more", () => {
    for (const fn of apiFunctions) {
      const access = [...new Set(routes.filter((r) => functionGroupOf(r) === fn.name).flatMap((r) => r.access))];
      expectLeastPrivilege(logicalId(t.core.routeFunctions.get(fn.name)!.function, t.core), access);
    }
  });

  it('runs each scheduled job on its schedule, and on-demand jobs on no schedule, with exactly their access', () => {
    // a job with an event `trigger` has its event rule instead (test/infra/malware-scan.test.ts)
    const rules = Object.values(resourcesOf(core, 'AWS::Events::Rule')).filter(
      (r) => r.Properties!.ScheduleExpression !== undefined,
    );
    expect(rules).toHaveLength(coreJobs.filter((j) => j.schedule).length);
    expect(Object.values(resourcesOf(core, 'AWS::Events::Rule'))).toHaveLength(
      coreJobs.filter((j) => j.schedule).length + coreJobs.filter((j) => j.trigger).length,
    );
    for (const job of coreJobs) {
      const fnId = logicalId(t.core.jobFunctions.get(job.name)!.function, t.core);
      const rule = rules.find((r) => JSON.stringify(r.Properties!.Targets).includes(`"${fnId}"`));
      if (job.schedule) expect(rule?.Properties?.ScheduleExpression, job.name).toBe(job.schedule);
      else expect(rule, job.name).toBeUndefined();
      expectLeastPrivilege(fnId, job.access);
    }
  });

  it('grants no function the object-tagging actions, so its server-side copies must leave tags behind', () => {
    // S3 copies tags by default (x-amz-tagging-directive COPY), which needs s3:GetObjectTagging on
    // the source and s3:PutObjectTagging on the copy; GuardDuty tags every scanned object, so such
    // a copy would be AccessDenied. storage.copyObject sends TaggingDirective REPLACE instead.
    const fns = Object.entries(core.toJSON().Resources as Record<string, { Type: string }>).filter(
      ([, r]) => r.Type === 'AWS::Lambda::Function',
    );
    expect(fns.length).toBeGreaterThan(10);
    for (const [id] of fns) {
      const actions = [...grantedActions(id)];
      expect(
        actions.filter((a) => /^s3:.*Tagging$/u.test(a)),
        id,
      ).toEqual([]);
    }
  });

  it('lets a route start exactly the jobs it names, and tells it their function names', () => {
    for (const route of routes.filter((r) => r.access.includes('jobs:invoke'))) {
      const fnId = functionIdOf(route);
      const fn = core.toJSON().Resources[fnId];
      const env = JSON.stringify(fn.Properties.Environment.Variables.JOB_FUNCTIONS);
      const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
      const statements = core
        .toJSON()
        .Resources[roleId].Properties.Policies.flatMap(
          (p: { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } }) =>
            p.PolicyDocument.Statement,
        );
      const invoke = statements.filter((s: { Action: string | string[] }) =>
        [s.Action].flat().includes('lambda:InvokeFunction'),
      );
      const groupInvokes = new Set(
        routes.filter((r) => functionGroupOf(r) === functionGroupOf(route)).flatMap((r) => r.invokes ?? []),
      );
      // one resource per job the group's routes start (CDK may merge them into one statement)
      expect(
        invoke.flatMap((st: { Resource: unknown }) => [st.Resource].flat()),
        route.path,
      ).toHaveLength(groupInvokes.size);
      for (const name of route.invokes!) {
        const jobFnId = logicalId(t.core.jobFunctions.get(name)!.function, t.core);
        expect(env, `${route.path} JOB_FUNCTIONS names ${name}`).toContain(jobFnId);
        expect(JSON.stringify(invoke.map((s: { Resource: unknown }) => s.Resource)), route.path).toContain(jobFnId);
      }
    }
  });

  it('lets a job start exactly the jobs it names (the complete-upload job the digest), and tells it their names', () => {
    for (const job of coreJobs) {
      const fn = t.core.jobFunctions.get(job.name)!;
      const fnId = logicalId(fn.function, t.core);
      const props = core.toJSON().Resources[fnId].Properties;
      const roleId = props.Role['Fn::GetAtt'][0] as string;
      const statements = (core.toJSON().Resources[roleId].Properties.Policies ?? []).flatMap(
        (p: { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } }) =>
          p.PolicyDocument.Statement,
      );
      const invoked = statements
        .filter((st: { Action: string | string[] }) => [st.Action].flat().includes('lambda:InvokeFunction'))
        .flatMap((st: { Resource: unknown }) => [st.Resource].flat());
      const named = job.invokes ?? [];
      expect(invoked, job.name).toHaveLength(named.length);
      const env = JSON.stringify(props.Environment.Variables.JOB_FUNCTIONS ?? null);
      for (const name of named) {
        const jobFnId = logicalId(t.core.jobFunctions.get(name)!.function, t.core);
        expect(env, `${job.name} JOB_FUNCTIONS names ${name}`).toContain(jobFnId);
        expect(JSON.stringify(invoked), job.name).toContain(jobFnId);
      }
    }
    expect(coreJobs.find((j) => j.name === 'complete-upload')?.invokes).toEqual(['digest']);
  });

  it('lets a job that continues past its timeout invoke exactly itself, by a policy of its own, and no other job', () => {
    const policies = Object.values(core.toJSON().Resources as Record<string, { Type: string; Properties: any }>).filter(
      (r) => r.Type === 'AWS::IAM::Policy',
    );
    for (const job of coreJobs) {
      const fn = t.core.jobFunctions.get(job.name)!;
      const fnId = logicalId(fn.function, t.core);
      const roleId = core.toJSON().Resources[fnId].Properties.Role['Fn::GetAtt'][0] as string;
      const selfInvokes = policies.filter(
        (p) =>
          JSON.stringify(p.Properties.Roles).includes(roleId) &&
          JSON.stringify(p.Properties.PolicyDocument).includes('lambda:InvokeFunction'),
      );
      if (!job.continues) {
        expect(selfInvokes, job.name).toEqual([]);
        continue;
      }
      expect(selfInvokes, job.name).toHaveLength(1);
      const statements = selfInvokes[0]!.Properties.PolicyDocument.Statement as { Action: string; Resource: unknown }[];
      expect(statements).toEqual([
        { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { 'Fn::GetAtt': [fnId, 'Arn'] } },
      ]);
    }
    expect(coreJobs.some((j) => j.continues)).toBe(true);
  });

  it('throttles and access-logs the default stage', () => {
    core.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
  });

  it('keeps API keys and tokens out of the access log: route keys only, no path, query string or header', () => {
    const stage = Object.values(resourcesOf(core, 'AWS::ApiGatewayV2::Stage'))[0]!;
    const format = (stage.Properties!.AccessLogSettings as { Format: string }).Format;
    const fields = Object.values(JSON.parse(format) as Record<string, string>);
    expect(fields).toContain('$context.routeKey');
    for (const f of fields)
      expect(f, f).not.toMatch(
        /\$context\.(path|requestOverride|authorizer\.claims)|\$request\.(querystring|header|path)|\$input/u,
      );
  });

  it('has no CORS without app origins (the app calls /api on its own origin)', () => {
    const api = Object.values(resourcesOf(core, 'AWS::ApiGatewayV2::Api'))[0]!;
    expect(api.Properties!.CorsConfiguration).toBeUndefined();
  });
});

describe('HTTP API with app origins', () => {
  it('answers CORS preflights from API_CORS for the configured origins', () => {
    const custom = synthSendBridge({ appOrigins: 'https://send.example.com,https://files.example.org' });
    custom.template(custom.core).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['https://send.example.com', 'https://files.example.org'],
        AllowMethods: [...API_CORS.allowMethods],
        AllowHeaders: [...API_CORS.allowHeaders],
        AllowCredentials: true,
        MaxAge: API_CORS.maxAgeSeconds,
      },
    });
    const fn = Object.values(resourcesOf(custom.template(custom.core), 'AWS::Lambda::Function'))[0]!;
    expect((fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables[ENV.appOrigin]).toBe(
      'https://send.example.com',
    );
  });
});
