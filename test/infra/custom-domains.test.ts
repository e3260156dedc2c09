/**
 * In the infrastructure: the multi-tenant distribution (ConnectionMode tenant-only)
 * beside the main one with the same origins and behaviours, its connection group, the tenant
 * job granted only the tenant actions on that distribution, and the sender-domain routes granted
 * only SES identity actions.
 */
import { describe, expect, it } from 'vitest';
import { functionGroupOf, jobs, routes } from '../../functions/routes';
import { ENV } from '../../functions/lib/env-names';
import { logicalId, resourcesOf, synthSendBridge } from './synth';

type Statement = { Action: string | string[]; Resource: unknown };

describe('custom domains', () => {
  const t = synthSendBridge({ customDomainTarget: 'd123.cloudfront-routing.example' });
  const web = t.template(t.web).toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
  const core = t.template(t.core).toJSON().Resources as Record<
    string,
    { Type: string; Properties: Record<string, any> }
  >;
  const statementsOf = (res: typeof web, fnId: string): Statement[] => {
    const roleId = res[fnId]!.Properties.Role['Fn::GetAtt'][0] as string;
    return (res[roleId]!.Properties.Policies ?? []).flatMap(
      (p: { PolicyDocument: { Statement: Statement[] } }) => p.PolicyDocument.Statement,
    );
  };
  const actionsOf = (statements: Statement[]) => new Set(statements.flatMap((s) => [s.Action].flat()));

  it("has a multi-tenant distribution with the main distribution's origins and behaviours, and a connection group", () => {
    const main = web[logicalId(t.web.distribution, t.web)]!.Properties.DistributionConfig;
    const tenant = web[logicalId(t.web.tenantDistribution!, t.web)]!.Properties.DistributionConfig;
    expect(tenant.ConnectionMode).toBe('tenant-only');
    expect(main.ConnectionMode).toBeUndefined();
    for (const unsupported of ['PriceClass', 'IPV6Enabled', 'Aliases', 'ViewerCertificate'])
      expect(tenant[unsupported], unsupported).toBeUndefined();
    const shape = (c: any) => ({
      origins: c.Origins.map((o: any) => ({
        domain: o.DomainName,
        custom: o.CustomOriginConfig ?? null,
        headers: o.OriginCustomHeaders ?? null,
        s3: Boolean(o.S3OriginConfig),
      })),
      default: { ...c.DefaultCacheBehavior, TargetOriginId: undefined },
      others: c.CacheBehaviors.map((b: any) => ({ ...b, TargetOriginId: undefined })),
    });
    expect(shape(tenant)).toEqual(shape(main));
    expect(Object.keys(resourcesOf(t.template(t.web), 'AWS::CloudFront::ConnectionGroup'))).toHaveLength(1);
    // The app bucket lets both distributions read through their own OAC.
    const policy = Object.values(resourcesOf(t.template(t.web), 'AWS::S3::BucketPolicy')).flatMap(
      (p) =>
        (p as unknown as { Properties: { PolicyDocument: { Statement: unknown[] } } }).Properties.PolicyDocument
          .Statement,
    ) as { Principal?: { Service?: string } }[];
    expect(policy.filter((s) => s.Principal?.Service === 'cloudfront.amazonaws.com').length).toBeGreaterThanOrEqual(2);
  });

  it('runs the tenant job in the WebStack, granted only the tenant actions on that distribution, with its ids in env', () => {
    const webJobs = jobs.filter((j) => j.stack === 'web');
    expect(webJobs.map((j) => j.name)).toEqual(['domain-tenants']);
    for (const job of webJobs) {
      expect(t.core.jobFunctions.has(job.name), `${job.name} not in core`).toBe(false);
      const fn = t.web.tenantJobFunctions.get(job.name)!;
      const fnId = logicalId(fn.function, t.web);
      const env = web[fnId]!.Properties.Environment.Variables;
      expect(env[ENV.tenantDistributionId]).toEqual({ Ref: logicalId(t.web.tenantDistribution!, t.web) });
      expect(env[ENV.connectionGroupId]).toEqual({ 'Fn::GetAtt': [t.web.getLogicalId(t.web.connectionGroup!), 'Id'] });
      const statements = statementsOf(web, fnId);
      const cf = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('cloudfront:')));
      expect(actionsOf(cf)).toEqual(
        new Set([
          'cloudfront:CreateDistributionTenant',
          'cloudfront:GetDistributionTenant',
          'cloudfront:GetDistributionTenantByDomain',
          'cloudfront:UpdateDistributionTenant',
          'cloudfront:DeleteDistributionTenant',
        ]),
      );
      const create = cf.find((s) => [s.Action].flat().includes('cloudfront:CreateDistributionTenant'))!;
      expect(JSON.stringify(create.Resource)).toContain(logicalId(t.web.tenantDistribution!, t.web));
      for (const s of cf) expect(JSON.stringify(s.Resource)).not.toMatch(/distribution\/\*"/u);
      // The buckets' CORS (custom hosts upload straight to S3): every region's two buckets, no objects.
      const s3Statements = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));
      expect(actionsOf(s3Statements)).toEqual(new Set(['s3:GetBucketCORS', 's3:PutBucketCORS']));
      const bucketRefs = JSON.stringify(s3Statements.map((s) => s.Resource));
      expect(bucketRefs).not.toContain('/*');
      expect([...bucketRefs.matchAll(/Bucket/gu)].length).toBeGreaterThanOrEqual(2 * t.storage.size);
      // Nothing else but the table, logs and tracing.
      for (const action of actionsOf(statements))
        expect(action).toMatch(/^(cloudfront:|dynamodb:|s3:(Get|Put)BucketCORS$|logs:|xray:)/u);
    }
    const rules = Object.values(resourcesOf(t.template(t.web), 'AWS::Events::Rule'));
    expect(rules.map((r) => r.Properties!.ScheduleExpression)).toContain('rate(5 minutes)');
  });

  it('grants no function of the core a CloudFront action, and SES identity actions only to the routes with access mail:identities', () => {
    const identities = new Set(
      routes.filter((r) => r.access.includes('mail:identities')).map((r) => functionGroupOf(r)),
    );
    expect([...identities]).toEqual(['domains']);
    for (const fn of [...t.core.routeFunctions.values(), ...t.core.jobFunctions.values()]) {
      const fnId = logicalId(fn.function, t.core);
      const actions = actionsOf(statementsOf(core, fnId));
      expect(
        [...actions].some((a) => a.startsWith('cloudfront:')),
        fnId,
      ).toBe(false);
    }
    for (const [group, fn] of t.core.routeFunctions) {
      const statements = statementsOf(core, logicalId(fn.function, t.core));
      const ses = statements.filter((s) => [s.Action].flat().some((a) => /EmailIdentity$/u.test(a)));
      if (!identities.has(group)) {
        expect(ses, group).toEqual([]);
        continue;
      }
      expect(actionsOf(ses)).toEqual(
        new Set(['ses:CreateEmailIdentity', 'ses:GetEmailIdentity', 'ses:DeleteEmailIdentity']),
      );
      expect(JSON.stringify(ses.map((s) => s.Resource))).toMatch(/:identity\/\*/u);
    }
  });

  it('gives every function the CNAME target from -c customDomainTarget', () => {
    const fn = t.core.routeFunctions.get('domains')!;
    expect(core[logicalId(fn.function, t.core)]!.Properties.Environment.Variables[ENV.customDomainTarget]).toBe(
      'd123.cloudfront-routing.example',
    );
  });
});
