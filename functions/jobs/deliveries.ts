import { log } from '../lib/log';
import { recordServed, type ServedOutcome } from '../services/deliveries';

/**
 * The storage's report of each download request served, one function for both sources:
 * - AWS: an EventBridge rule sends every "AWS API Call via CloudTrail" GetObject data event of the
 *   deployment's buckets here (each storage region's trail logs them and forwards them to the home
 *   region's default bus; lib/storage-stack.ts, lib/core-stack.ts).
 * - locally: the s3rver child emits the same event for each GetObject once its response is
 *   written (scripts/local/s3rver-cloudtrail.ts) and starts this job through the local Invoke API.
 * A failure throws, so EventBridge (or the async invoke) retries it; a retried event counts once.
 */
export async function handler(event: unknown): Promise<ServedOutcome> {
  const outcome = await recordServed(event);
  if (outcome === 'ignored') log.info('storage event ignored (not a download of this deployment)');
  return outcome;
}
