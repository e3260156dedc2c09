/**
 * The CDN side of a verified custom domain, one interface with two providers: CloudFront
 * distribution tenants on the multi-tenant distribution (adapters/cdn-tenants-cloudfront.ts, the
 * tenant job in AWS) and the local provider, for which the tenant record in the table
 * is the tenant: the local web servers serve a host only while it has one (frontend/app-server.ts,
 * frontend/dev-server.ts via servedCustomHost).
 */
import { createHash } from 'node:crypto';
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

/**
 * The local provider beside the emulators (DYNAMODB_ENDPOINT set), none elsewhere: an AWS
 * function leaves the queue to the tenant job, which alone holds the CloudFront provider
 * (adapters/cdn-tenants-cloudfront.ts), so no other bundle carries CloudFront's client.
 */
export function tenantProvider(env: NodeJS.ProcessEnv = process.env): TenantProvider | undefined {
  return env[ENV.dynamodbEndpoint] ? localProvider : undefined;
}
