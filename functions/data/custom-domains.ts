/**
 * Custom domains in the single table (issue 15; docs/data-model.md patterns D1-): one claim
 * item per host name under `DOMAIN#<host>/CLAIM`, so a host belongs to one account. Its
 * attributes: `userId` (the claiming user), `status` (`pending` until the DNS records check
 * out, then `verified`; see `CustomDomainStatus`), `createdAt`, `checkedAt` (epoch ms).
 */
import { ddb } from '../lib/aws/dynamodb';
import { config } from '../lib/env';
import { isLive, keys } from './keys';

export type CustomDomainStatus = 'pending' | 'verified' | 'failed';

/** A host name as claims store it: lower-case, without a trailing dot or a port. */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

/** The user whose verified custom domain `host` is (undefined: no one's, or not verified yet). */
export async function liveDomainOwner(host: string): Promise<string | undefined> {
  const out = await ddb().get({ TableName: config().tableName, Key: keys.customDomain(normalizeHost(host)), ConsistentRead: true });
  const item = out.Item;
  if (!item || !isLive(item) || item.status !== 'verified' || typeof item.userId !== 'string') return undefined;
  return item.userId;
}
