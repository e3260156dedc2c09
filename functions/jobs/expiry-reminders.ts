import type { Context, ScheduledEvent } from 'aws-lambda';
import { recordJobRun } from '../data/system';
import { runDueReminders, type ReminderRunResult } from '../services/reminders';
import { log } from '../lib/log';

/**
 * Scheduled (EventBridge in AWS, the gateway's timer locally): mails recipients who have not
 * downloaded a reminder 24 h before their transfer expires, once per recipient.
 */
export async function handler(_event: ScheduledEvent, context?: Context): Promise<ReminderRunResult> {
  const result = await runDueReminders(context ? { timeLeftMs: () => context.getRemainingTimeInMillis() } : {});
  await recordJobRun('expiry-reminders');
  log.info('expiry reminders', { ...result });
  return result;
}
