import type { ScheduledEvent } from 'aws-lambda';
import { recordJobRun } from '../data/system';
import { runDomainJob, type DomainJobResult } from '../services/domains';
import { log } from '../lib/log';

/**
 * Scheduled: checks the DNS records of pending custom domains whose next check is due (backoff
 * from 15 minutes to 6 hours), and, where this function can reach the CDN (locally), syncs tenants.
 */
export async function handler(_event: ScheduledEvent): Promise<DomainJobResult> {
  const result = await runDomainJob();
  await recordJobRun('custom-domains');
  log.info('custom domains', { ...result });
  return result;
}
