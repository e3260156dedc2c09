/**
 * CloudFront through the AWS SDK v3, one CloudFrontClient per process, created on first use:
 * the distribution tenants of verified custom domains. Imported on demand by
 * adapters/cdn-tenants-cloudfront.ts (only the tenant job in AWS calls it). CloudFront is global: the
 * client signs for us-east-1. No emulator: locally the tenant provider is the table.
 */
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { REQUEST_HANDLER } from './timeouts';

export {
  CreateDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  GetDistributionTenantByDomainCommand,
  GetDistributionTenantCommand,
  UpdateDistributionTenantCommand,
} from '@aws-sdk/client-cloudfront';

let client: CloudFrontClient | undefined;

export function cloudFront(): CloudFrontClient {
  client ??= new CloudFrontClient({ region: 'us-east-1', requestHandler: REQUEST_HANDLER });
  return client;
}
