import type { Context, ScheduledEvent } from 'aws-lambda';
import { recordJobRun } from '../data/system';
import { sweepExpired, type SweepResult } from '../services/expiry-sweep';
import { log } from '../lib/log';

/** Scheduled (EventBridge in AWS, the gateway's timer locally): expires and purges transfers. */
export async function handler(_event: ScheduledEvent, context?: Context): Promise<SweepResult> {
  const result = await sweepExpired(context ? { timeLeftMs: () => context.getRemainingTimeInMillis() } : {});
  await recordJobRun('expiry-sweep');
  log.info('expiry sweep', { ...result });
  return result;
}
