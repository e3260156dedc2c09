/**
 * The CDN side of a verified custom domain, one interface with two providers: CloudFront
 * distribution tenants on the multi-tenant distribution (TENANT_DISTRIBUTION_ID and
 * CONNECTION_GROUP_ID set, AWS) and the local provider, for which the tenant record in the table
 * is the tenant: the local web servers serve a host only while it has one (frontend/app-server.ts,
 * frontend/dev-server.ts via servedCustomHost).
 */
import { createHash } from 'node:crypto';
import type { DistributionTenant } from '@aws-sdk/client-cloudfront';
import { ENV } from '../lib/env-names';

export interface CreatedTenant {
  readonly tenantId: string;
  readonly etag?: string;
}

export interface TenantProvider {
  readonly kind: 'cloudfront' | 'local';
  /** a tenant serving `host` (the existing one when it was made before) */
  create(host: string): Promise<CreatedTenant>;
  /** 'deleted', or 'pending' while CloudFront still disables it (the job tries again) */
  remove(host: string, tenantId: string): Promise<'deleted' | 'pending'>;
}

/** Tenant names are unique per account and limited in charset: a readable prefix and a hash. */
export function tenantName(host: string): string {
  const readable = host.replace(/[^a-z0-9-]/gu, '-').slice(0, 40);
  return `sb-${readable}-${createHash('sha256').update(host).digest('hex').slice(0, 12)}`;
}

const localProvider: TenantProvider = {
  kind: 'local',
  create: async (host) => ({ tenantId: `local-${tenantName(host)}` }),
  remove: async () => 'deleted',
};

/** CloudFront's client on first use: only the tenant job in AWS manages tenants. */
const cloudFrontSdk = () => import('../lib/clients/cloudfront');

const errorOf = (err: unknown) => err as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
const isNotFound = (err: unknown) => errorOf(err)?.name === 'EntityNotFound' || errorOf(err)?.$metadata?.httpStatusCode === 404;

/** The tenant that serves `host`, if any. */
async function tenantByDomain(host: string): Promise<{ tenant: DistributionTenant; etag: string | undefined } | undefined> {
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
      const { cloudFront, GetDistributionTenantCommand, UpdateDistributionTenantCommand, DeleteDistributionTenantCommand } = await cloudFrontSdk();
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

/**
 * CloudFront where the tenant job runs (its env names the distribution), the local provider
 * beside the emulators (DYNAMODB_ENDPOINT set), and none elsewhere: an AWS function without the
 * tenant grant leaves the queue to the tenant job.
 */
export function tenantProvider(env: NodeJS.ProcessEnv = process.env): TenantProvider | undefined {
  const distributionId = env[ENV.tenantDistributionId];
  const connectionGroupId = env[ENV.connectionGroupId];
  if (distributionId && connectionGroupId) return cloudFrontProvider(distributionId, connectionGroupId);
  return env[ENV.dynamodbEndpoint] ? localProvider : undefined;
}
