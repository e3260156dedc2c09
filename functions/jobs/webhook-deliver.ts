import type { ScheduledEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { recordJobRun } from '../data/system';
import { log, errorFields } from '../lib/log';
import { deliverDue, handleDeliveryMessage, type SweepResult } from '../services/webhooks';

/**
 * Webhook deliveries, one function for both triggers:
 * - SQS (AWS): each message names a delivery; one attempt each. A message fails (and SQS
 *   retries it, then moves it to the dead-letter queue) only when the attempt could not be
 *   made or recorded; a receiver's refusal is recorded and retried by a new delayed message.
 *   Locally the same message shape arrives through the gateway's Invoke API.
 * - the schedule (both): every pending delivery whose attempt is due (retries locally, and
 *   whatever a failed hand-off left in the outbox).
 */
export async function handler(event: SQSEvent | ScheduledEvent | undefined): Promise<SQSBatchResponse | SweepResult> {
  if (event && Array.isArray((event as SQSEvent).Records)) {
    const failures: { itemIdentifier: string }[] = [];
    for (const record of (event as SQSEvent).Records) {
      try {
        const { deliveryId } = JSON.parse(record.body) as { deliveryId?: unknown };
        if (typeof deliveryId !== 'string') continue;
        await handleDeliveryMessage(deliveryId);
      } catch (err) {
        log.error('delivery message failed', { messageId: record.messageId, ...errorFields(err) });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  }
  const result = await deliverDue();
  await recordJobRun('webhook-deliver');
  if (result.due > 0) log.info('webhook deliveries', { ...result });
  return result;
}
