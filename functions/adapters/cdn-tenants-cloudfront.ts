/**
 * CloudFront distribution tenants on the one multi-tenant distribution: the CDN provider of the
 * tenant job in AWS (jobs/domain-tenants.ts), the only function granted `cdn:tenants`. Kept out
 * of adapters/cdn-tenants.ts so that the API functions and the DNS check job, which import the
 * domain services but never manage tenants in AWS, do not carry CloudFront's client (~180 KB
 * their cold start would parse).
 */
import type { DistributionTenant } from '@aws-sdk/client-cloudfront';
import { ENV } from '../lib/env-names';
import { tenantName, type TenantProvider } from './cdn-tenants';

/** CloudFront's client on first use: only the tenant job in AWS manages tenants. */
const cloudFrontSdk = () => import('../lib/clients/cloudfront');

const errorOf = (err: unknown) => err as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
const isNotFound = (err: unknown) =>
  errorOf(err)?.name === 'EntityNotFound' || errorOf(err)?.$metadata?.httpStatusCode === 404;

/** The tenant that serves `host`, if any. */
async function tenantByDomain(
  host: string,
): Promise<{ tenant: DistributionTenant; etag: string | undefined } | undefined> {
  const { cloudFront, GetDistributionTenantByDomainCommand } = await cloudFrontSdk();
  try {
    const out = await cloudFront().send(new GetDistributionTenantByDomainCommand({ Domain: host }));
    return out.DistributionTenant ? { tenant: out.DistributionTenant, etag: out.ETag } : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function cloudFrontProvider(distributionId: string, connectionGroupId: string): TenantProvider {
  return {
    kind: 'cloudfront',
    async create(host) {
      const { cloudFront, CreateDistributionTenantCommand } = await cloudFrontSdk();
      try {
        const out = await cloudFront().send(
          new CreateDistributionTenantCommand({
            DistributionId: distributionId,
            ConnectionGroupId: connectionGroupId,
            Name: tenantName(host),
            Domains: [{ Domain: host }],
            Enabled: true,
            // The user's CNAME already points at the connection group, so CloudFront validates over HTTP.
            ManagedCertificateRequest: { PrimaryDomainName: host, ValidationTokenHost: 'cloudfront' },
          }),
        );
        return { tenantId: out.DistributionTenant?.Id ?? '', ...(out.ETag ? { etag: out.ETag } : {}) };
      } catch (err) {
        // A run that created it but died before recording it: find it by its domain.
        if (!/AlreadyExists|CNAMEAlreadyExists/u.test(errorOf(err)?.name ?? '')) throw err;
        const existing = await tenantByDomain(host);
        if (!existing?.tenant.Id) throw err;
        return { tenantId: existing.tenant.Id, ...(existing.etag ? { etag: existing.etag } : {}) };
      }
    },
    async remove(_host, tenantId) {
      const {
        cloudFront,
        GetDistributionTenantCommand,
        UpdateDistributionTenantCommand,
        DeleteDistributionTenantCommand,
      } = await cloudFrontSdk();
      let current: { tenant: DistributionTenant; etag: string | undefined };
      try {
        const out = await cloudFront().send(new GetDistributionTenantCommand({ Identifier: tenantId }));
        if (!out.DistributionTenant) return 'deleted';
        current = { tenant: out.DistributionTenant, etag: out.ETag };
      } catch (err) {
        if (isNotFound(err)) return 'deleted';
        throw err;
      }
      if (!current.etag) return 'pending';
      if (current.tenant.Enabled) {
        // CloudFront deletes only disabled tenants; its domains and distribution stay as they are.
        const domains = (current.tenant.Domains ?? []).flatMap((d) => (d.Domain ? [{ Domain: d.Domain }] : []));
        await cloudFront().send(
          new UpdateDistributionTenantCommand({
            Id: tenantId,
            IfMatch: current.etag,
            ...(current.tenant.DistributionId ? { DistributionId: current.tenant.DistributionId } : {}),
            ...(domains.length > 0 ? { Domains: domains } : {}),
            Enabled: false,
          }),
        );
        return 'pending';
      }
      if (current.tenant.Status !== 'Deployed') return 'pending';
      await cloudFront().send(new DeleteDistributionTenantCommand({ Id: tenantId, IfMatch: current.etag }));
      return 'deleted';
    },
  };
}

/** CloudFront where the function's env names the distribution and its connection group, else none. */
export function cloudFrontTenantProvider(env: NodeJS.ProcessEnv = process.env): TenantProvider | undefined {
  const distributionId = env[ENV.tenantDistributionId];
  const connectionGroupId = env[ENV.connectionGroupId];
  return distributionId && connectionGroupId ? cloudFrontProvider(distributionId, connectionGroupId) : undefined;
}
