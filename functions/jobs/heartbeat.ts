import type { ScheduledEvent } from 'aws-lambda';
import { recordJobRun } from '../data/system';
import { log } from '../lib/log';

/**
 * Scheduled every 5 minutes (EventBridge in AWS, the local gateway's timer locally). Records
 * the run so operators can see the scheduler is alive; `/health` shows the last run under `scheduler`.
 */
export async function handler(_event: ScheduledEvent): Promise<{ runs: number }> {
  const run = await recordJobRun('heartbeat');
  log.info('heartbeat', { runs: run.runs });
  return { runs: run.runs };
}
