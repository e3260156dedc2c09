import type { Context, ScheduledEvent } from 'aws-lambda';
import { recordJobRun } from '../data/system';
import { runQueuedCopies } from '../services/transfer-actions';
import { log } from '../lib/log';

/**
 * Scheduled every minute: copies the forwards too large to copy within their request (queued by
 * POST /transfers/forward), inside S3, then sends each copy and mails its recipients.
 */
export async function handler(_event: ScheduledEvent, context?: Context): Promise<{ sent: number; failed: number }> {
  const result = await runQueuedCopies(context ? { timeLeftMs: () => context.getRemainingTimeInMillis() } : {});
  await recordJobRun('forward-copy');
  if (result.sent + result.failed > 0) log.info('forward copies', { ...result });
  return result;
}
