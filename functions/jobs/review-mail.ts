import type { Context, ScheduledEvent } from 'aws-lambda';
import { recordJobRun } from '../data/system';
import { runDueReviewMail, type ReviewMailRunResult } from '../services/review-mail';
import { log } from '../lib/log';

/**
 * Scheduled (EventBridge in AWS, the gateway's timer locally): the senders' batched review mail,
 * at most one per transfer per 10 minutes with everything since the last one.
 */
export async function handler(_event: ScheduledEvent, context?: Context): Promise<ReviewMailRunResult> {
  const result = await runDueReviewMail(context ? { timeLeftMs: () => context.getRemainingTimeInMillis() } : {});
  await recordJobRun('review-mail');
  log.info('review mail', { ...result });
  return result;
}
