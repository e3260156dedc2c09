/**
 * The CDN side of a verified custom domain (issue 15), one interface with two providers:
 * CloudFront distribution tenants on the multi-tenant distribution (TENANT_DISTRIBUTION_ID and
 * CONNECTION_GROUP_ID set, AWS) and the local provider, for which the tenant record in the table
 * is the tenant: the local web servers serve a host only while it has one (frontend/app-server.ts,
 * frontend/dev-server.ts via servedCustomHost).
 */
import { createHash } from 'node:crypto';
import { ENV } from '../lib/env-names';
import * as cloudfront from '../lib/aws/cloudfront';
import { AwsError } from '../lib/aws/core';

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

function cloudFrontProvider(distributionId: string, connectionGroupId: string): TenantProvider {
  return {
    kind: 'cloudfront',
    async create(host) {
      try {
        const t = await cloudfront.createDistributionTenant({ distributionId, connectionGroupId, host, name: tenantName(host) });
        return { tenantId: t.id, ...(t.etag ? { etag: t.etag } : {}) };
      } catch (err) {
        // A run that created it but died before recording it: find it by its domain.
        if (!(err instanceof AwsError) || !/AlreadyExists|CNAMEAlreadyExists/u.test(err.name)) throw err;
        const existing = await cloudfront.getDistributionTenantByDomain(host);
        if (!existing) throw err;
        return { tenantId: existing.id, ...(existing.etag ? { etag: existing.etag } : {}) };
      }
    },
    async remove(_host, tenantId) {
      const current = await cloudfront.getDistributionTenant(tenantId);
      if (!current) return 'deleted';
      if (!current.ref.etag) return 'pending';
      if (current.ref.enabled) {
        await cloudfront.disableDistributionTenant(tenantId, { xml: current.xml, etag: current.ref.etag });
        return 'pending';
      }
      if (current.ref.status !== 'Deployed') return 'pending';
      await cloudfront.deleteDistributionTenant(tenantId, current.ref.etag);
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
