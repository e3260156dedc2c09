import type { ScheduledEvent } from 'aws-lambda';
import { cloudFrontTenantProvider } from '../adapters/cdn-tenants-cloudfront';
import { tenantProvider } from '../adapters/cdn-tenants';
import { recordJobRun } from '../data/system';
import { syncTenants, type TenantSyncResult } from '../services/domains';
import { log } from '../lib/log';

/**
 * Scheduled (in AWS beside the multi-tenant distribution, WebStack): creates a CloudFront
 * distribution tenant for each newly verified custom domain and deletes those of released ones,
 * and keeps every region's bucket CORS allowing exactly the custom hosts served.
 */
export async function handler(_event: ScheduledEvent): Promise<TenantSyncResult> {
  const result = await syncTenants(20, cloudFrontTenantProvider() ?? tenantProvider());
  await recordJobRun('domain-tenants');
  log.info('domain tenants', { ...result });
  return result;
}
