/**
 * THE one place code publishes a product event: `publishEvent({ type, userId, data })`.
 *
 * 1. The event gets its id (`evt_` + a UUIDv7: stable across retries and redeliveries, so
 *    receivers de-duplicate on it) and its JSON body, written once and signed as is.
 * 2. The outbox: for each of the user's enabled endpoints subscribed to the type, a pending
 *    delivery is written with the event, in one transaction, before anything is sent.
 * 3. Hand-off. In AWS the event goes on the deployment's EventBridge bus (operators route it
 *    anywhere) and each delivery id goes to the SQS queue the delivery job consumes. Locally
 *    (no bus, no queue) the same delivery job is started through the local Lambda Invoke API.
 *    When a hand-off fails the outbox still holds the delivery: the delivery job's schedule
 *    picks up every due delivery.
 *
 * Publishing never fails or slows the path that publishes beyond these writes: every error is
 * logged and swallowed (the transfer, the download, the sweep go on).
 */
import { v7 as uuidV7 } from 'uuid';
import type { DeliveredEventType, EventDataOf, EventEnvelope, EventType } from '../domain/webhooks-api';
import {
  listEndpoints,
  recordEvent,
  type DeliveryRecord,
  type EndpointRecord,
  type StoredEvent,
} from '../data/webhooks';
import { config } from '../lib/env';
import { ENV } from '../lib/env-names';
import { errorFields, log } from '../lib/log';
import { RETRY_WINDOW_MS } from '../domain/webhooks-api';
import { newDeliveryId } from './webhook-ids';

/** The EventBridge `source` of every product event. */
export const EVENT_SOURCE = 'sendbridge';
/** The job that delivers (its name is its local function name; in AWS it consumes the queue). */
export const DELIVERY_JOB = 'webhook-deliver';

export interface PublishInput<T extends EventType> {
  readonly type: T;
  /** whose endpoints receive it; undefined (a guest's transfer): the bus only */
  readonly userId: string | undefined;
  readonly data: EventDataOf[T];
  readonly at?: number;
}

export function newEventId(at: number): string {
  return `evt_${uuidV7({ msecs: at })}`;
}

export function envelopeOf<T extends DeliveredEventType>(
  id: string,
  type: T,
  at: number,
  data: unknown,
): EventEnvelope<T> {
  return { id, type, createdAt: new Date(at).toISOString(), data: data as Record<string, unknown> };
}

/** Publishes one event; answers its id, or undefined when it could not be recorded (logged). */
export async function publishEvent<T extends EventType>(input: PublishInput<T>): Promise<string | undefined> {
  const at = input.at ?? Date.now();
  const envelope = envelopeOf(newEventId(at), input.type, at, input.data);
  const body = JSON.stringify(envelope);
  let deliveryIds: string[] = [];
  try {
    if (input.userId) {
      const endpoints = (await listEndpoints(input.userId)).filter((e) => e.enabled && e.events.includes(input.type));
      const stored: StoredEvent = { id: envelope.id, type: input.type, userId: input.userId, createdAt: at, body };
      // Deliveries run on the wall clock (a caller's `at` may be a job's logical time).
      const deliveries = endpoints.map((e) => newDelivery(stored, e, Date.now()));
      await recordEvent(stored, deliveries);
      deliveryIds = deliveries.map((d) => d.id);
    }
  } catch (err) {
    log.error('event not recorded', { type: input.type, eventId: envelope.id, ...errorFields(err) });
    return undefined;
  }
  await Promise.all([
    putOnBus(envelope, input.userId, at).catch((err: unknown) =>
      log.error('event not put on the bus', { eventId: envelope.id, ...errorFields(err) }),
    ),
    startDeliveries(deliveryIds.map((id) => ({ id, delaySeconds: 0 }))).catch((err: unknown) =>
      log.warn('deliveries not handed off (the delivery job picks them up)', {
        eventId: envelope.id,
        ...errorFields(err),
      }),
    ),
  ]);
  return envelope.id;
}

export function newDelivery(
  event: StoredEvent,
  endpoint: Pick<EndpointRecord, 'id' | 'userId'>,
  at: number,
  redeliveryOf?: string,
): DeliveryRecord {
  return {
    id: newDeliveryId(),
    userId: endpoint.userId,
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    status: 'pending',
    createdAt: at,
    deadline: at + RETRY_WINDOW_MS,
    attempts: [],
    nextAttemptAt: at,
    ...(redeliveryOf ? { redeliveryOf } : {}),
  };
}

async function putOnBus(envelope: EventEnvelope, userId: string | undefined, at: number): Promise<void> {
  const busName = process.env[ENV.eventBusName];
  if (!busName) return;
  const { eventBridge, PutEventsCommand } = await import('../lib/clients/event-queues');
  const out = await eventBridge().send(
    new PutEventsCommand({
      Entries: [
        {
          EventBusName: busName,
          Source: EVENT_SOURCE,
          DetailType: envelope.type,
          Detail: JSON.stringify({ ...envelope, ...(userId ? { userId } : {}) }),
          Time: new Date(at),
        },
      ],
    }),
  );
  // PutEvents answers 200 with per-entry failures.
  if (out.FailedEntryCount) {
    const first = out.Entries?.find((e) => e.ErrorCode);
    throw new Error(
      `PutEvents: ${out.FailedEntryCount} failed (${first?.ErrorCode ?? ''} ${first?.ErrorMessage ?? ''})`.trim(),
    );
  }
}

/**
 * Hands deliveries to the worker: SQS messages in AWS (with a delay, at most SQS's 15
 * minutes), the local Invoke API otherwise (now only: a later attempt waits for the schedule).
 */
export async function startDeliveries(items: readonly { id: string; delaySeconds: number }[]): Promise<void> {
  if (items.length === 0) return;
  const queueUrl = process.env[ENV.webhookQueueUrl];
  if (queueUrl) {
    const { sqs, SendMessageBatchCommand } = await import('../lib/clients/event-queues');
    for (let i = 0; i < items.length; i += 10) {
      const batch = items.slice(i, i + 10);
      const out = await sqs().send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((m, n) => ({
            Id: String(n),
            MessageBody: JSON.stringify({ deliveryId: m.id }),
            ...(m.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.floor(m.delaySeconds))) } : {}),
          })),
        }),
      );
      // SendMessageBatch answers 200 with per-message failures.
      if (out.Failed?.length)
        throw new Error(`SendMessageBatch: ${out.Failed.length} failed (${out.Failed[0]!.Code ?? ''})`);
    }
    return;
  }
  const now = items.filter((m) => m.delaySeconds <= 0);
  if (now.length === 0 || !config().endpoints.lambda) return;
  // The SQS event's shape, so the job reads one kind of message in both places.
  const records = now.map((m) => ({ messageId: m.id, body: JSON.stringify({ deliveryId: m.id }) }));
  const { lambda, InvokeCommand } = await import('../lib/clients/lambda');
  const out = await lambda().send(
    new InvokeCommand({
      FunctionName: DELIVERY_JOB,
      InvocationType: 'Event',
      Payload: JSON.stringify({ Records: records }),
    }),
  );
  if (out.StatusCode !== 202) throw new Error(`async invoke of ${DELIVERY_JOB} answered ${String(out.StatusCode)}`);
}
