/**
 * Webhook endpoints, published events and their deliveries (docs/data-model.md
 * patterns WH1-WH8). Endpoints live under the user's pk, so an id from a request can only ever
 * name one of the caller's own. Events and deliveries are the outbox: written before anything
 * is sent, so a delivery survives a failed enqueue, a crashed worker or a receiver that is down
 * (the delivery job picks up every pending delivery whose time has come, gsi2 `WHDUE`).
 */
import type {
  DeliveredEventType,
  DeliveryAttemptView,
  DeliveryStatus,
  DeliveryView,
  EventType,
  WebhookEndpointView,
} from '../domain/webhooks-api';
import { isEventType } from '../domain/webhooks-api';
import { ddb } from '../lib/clients/dynamodb';
import { conditionalUpdate, conditionalWrite, table, transact } from './base';
import { isLive, keys, ttlIn } from './keys';

/** Events and deliveries are kept 30 days (the log shows them that long). */
export const DELIVERY_TTL_SECONDS = 30 * 24 * 3600;
/** The attempts a delivery keeps in its log (the newest). */
export const MAX_LOGGED_ATTEMPTS = 40;
/** A claimed delivery is the claimer's for this long (a crashed worker's claim lapses). */
export const CLAIM_MS = 60_000;

/** An endpoint as stored: the dashboard's view with its owner and the secrets instead of their hint. */
export interface EndpointRecord extends Omit<WebhookEndpointView, 'secretHint'> {
  readonly userId: string;
  readonly secret: string;
  readonly previousSecret?: string;
}

export interface DeliveryRecord {
  readonly id: string;
  readonly userId: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly eventType: DeliveredEventType;
  readonly status: DeliveryStatus;
  readonly createdAt: number;
  /** attempts stop being made after this (createdAt + 24 h) */
  readonly deadline: number;
  readonly attempts: readonly DeliveryAttemptView[];
  readonly nextAttemptAt?: number;
  readonly redeliveryOf?: string;
}

export interface StoredEvent {
  readonly id: string;
  readonly type: DeliveredEventType;
  readonly userId: string;
  readonly createdAt: number;
  /** the JSON body every attempt sends and signs, byte for byte */
  readonly body: string;
}

function endpointOf(i: Record<string, unknown>): EndpointRecord {
  return {
    userId: String(i.userId),
    id: String(i.id),
    url: String(i.url),
    description: String(i.description ?? ''),
    events: (Array.isArray(i.events) ? i.events : []).filter(
      (e): e is EventType => typeof e === 'string' && isEventType(e),
    ),
    enabled: i.enabled !== false,
    createdAt: Number(i.createdAt),
    secret: String(i.secret),
    ...(typeof i.previousSecret === 'string' ? { previousSecret: i.previousSecret } : {}),
    ...(typeof i.previousSecretExpiresAt === 'number' ? { previousSecretExpiresAt: i.previousSecretExpiresAt } : {}),
  };
}

export function endpointView(e: EndpointRecord, now = Date.now()): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    createdAt: e.createdAt,
    secretHint: `${e.secret.slice(0, 10)}…`,
    ...(e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > now
      ? { previousSecretExpiresAt: e.previousSecretExpiresAt }
      : {}),
  };
}

/** WH1: the user's endpoints, oldest first. */
export async function listEndpoints(userId: string): Promise<EndpointRecord[]> {
  const out = await ddb().query({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.webhookEndpoint(userId, '').pk, ':p': keys.webhookEndpointPrefix },
  });
  return (out.Items ?? []).map(endpointOf).sort((a, b) => a.createdAt - b.createdAt);
}

export async function getEndpoint(userId: string, id: string): Promise<EndpointRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.webhookEndpoint(userId, id) });
  return out.Item ? endpointOf(out.Item) : undefined;
}

/** WH2: a new endpoint, with the user's count kept under `max` in the same transaction. False when full. */
export async function createEndpoint(e: EndpointRecord, max: number): Promise<boolean> {
  return transact([
    {
      Update: {
        TableName: table(),
        Key: keys.webhookSettings(e.userId),
        UpdateExpression: 'SET endpointCount = if_not_exists(endpointCount, :zero) + :one, entity = :entity',
        ConditionExpression: 'attribute_not_exists(endpointCount) OR endpointCount < :max',
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max, ':entity': 'WebhookSettings' },
      },
    },
    {
      Put: {
        TableName: table(),
        Item: { ...keys.webhookEndpoint(e.userId, e.id), entity: 'WebhookEndpoint', ...e },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
}

/** Replaces an existing endpoint's fields (not its id or owner). False when it is gone. */
export async function saveEndpoint(e: EndpointRecord): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: { ...keys.webhookEndpoint(e.userId, e.id), entity: 'WebhookEndpoint', ...e },
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

/** WH3: removes an endpoint and gives its place back. False when it was not there. */
export async function deleteEndpoint(userId: string, id: string): Promise<boolean> {
  return transact([
    {
      Delete: {
        TableName: table(),
        Key: keys.webhookEndpoint(userId, id),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    {
      Update: {
        TableName: table(),
        Key: keys.webhookSettings(userId),
        UpdateExpression: 'SET endpointCount = endpointCount - :one',
        ConditionExpression: 'endpointCount > :zero',
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      },
    },
  ]);
}

/** WH4: a team admin's choice for the members (false when never set). */
export async function getMembersAllowed(adminId: string): Promise<boolean> {
  const out = await ddb().get({ TableName: table(), Key: keys.webhookSettings(adminId) });
  return out.Item?.membersAllowed === true;
}

export async function setMembersAllowed(adminId: string, allowed: boolean): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.webhookSettings(adminId),
    UpdateExpression: 'SET membersAllowed = :a, entity = :entity',
    ExpressionAttributeValues: { ':a': allowed, ':entity': 'WebhookSettings' },
  });
}

// ---- the outbox -------------------------------------------------------------------------------

function deliveryItem(d: DeliveryRecord): Record<string, unknown> {
  return {
    ...keys.webhookDelivery(d.id),
    ...keys.webhookLog(d.endpointId, d.createdAt, d.id),
    ...(d.status === 'pending' && d.nextAttemptAt !== undefined ? keys.webhookDueIndex(d.nextAttemptAt, d.id) : {}),
    entity: 'WebhookDelivery',
    ttl: ttlIn(DELIVERY_TTL_SECONDS, d.createdAt),
    ...d,
  };
}

function deliveryOf(i: Record<string, unknown>): DeliveryRecord {
  return {
    id: String(i.id),
    userId: String(i.userId),
    endpointId: String(i.endpointId),
    eventId: String(i.eventId),
    eventType: String(i.eventType) as DeliveredEventType,
    status: (['pending', 'delivered', 'failed'].includes(String(i.status)) ? i.status : 'failed') as DeliveryStatus,
    createdAt: Number(i.createdAt),
    deadline: Number(i.deadline),
    attempts: Array.isArray(i.attempts) ? (i.attempts as DeliveryAttemptView[]) : [],
    ...(typeof i.nextAttemptAt === 'number' ? { nextAttemptAt: i.nextAttemptAt } : {}),
    ...(typeof i.redeliveryOf === 'string' ? { redeliveryOf: i.redeliveryOf } : {}),
  };
}

export function deliveryView(d: DeliveryRecord): DeliveryView {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    createdAt: d.createdAt,
    attempts: d.attempts,
    ...(d.status === 'pending' && d.nextAttemptAt !== undefined ? { nextAttemptAt: d.nextAttemptAt } : {}),
    ...(d.redeliveryOf ? { redeliveryOf: d.redeliveryOf } : {}),
  };
}

/**
 * WH5: an event and its deliveries, written before any is sent. Up to 24 items a transaction
 * (the endpoint limit keeps it to one); the event item is written once (a repeat is a no-op).
 */
export async function recordEvent(event: StoredEvent, deliveries: readonly DeliveryRecord[]): Promise<void> {
  if (deliveries.length === 0) return;
  await ddb().transactWrite({
    TransactItems: [
      {
        Put: {
          TableName: table(),
          Item: {
            ...keys.webhookEvent(event.id),
            entity: 'WebhookEvent',
            ttl: ttlIn(DELIVERY_TTL_SECONDS, event.createdAt),
            ...event,
          },
        },
      },
      ...deliveries.map((d) => ({
        Put: { TableName: table(), Item: deliveryItem(d), ConditionExpression: 'attribute_not_exists(pk)' },
      })),
    ],
  });
}

/** WH5b: one more delivery of an event already stored (a redelivery, a test ping's). */
export async function putDelivery(d: DeliveryRecord): Promise<void> {
  await ddb().put({ TableName: table(), Item: deliveryItem(d), ConditionExpression: 'attribute_not_exists(pk)' });
}

export async function getEvent(eventId: string, now = Date.now()): Promise<StoredEvent | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.webhookEvent(eventId) });
  const i = out.Item;
  if (!i || !isLive(i, now)) return undefined;
  return {
    id: String(i.id),
    type: String(i.type) as DeliveredEventType,
    userId: String(i.userId),
    createdAt: Number(i.createdAt),
    body: String(i.body),
  };
}

export async function getDelivery(id: string, now = Date.now()): Promise<DeliveryRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.webhookDelivery(id) });
  return out.Item && isLive(out.Item, now) ? deliveryOf(out.Item) : undefined;
}

/** WH6: an endpoint's log, newest first. */
export async function listDeliveries(endpointId: string, limit: number, now = Date.now()): Promise<DeliveryRecord[]> {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.webhookLogPartition(endpointId) },
    ScanIndexForward: false,
    Limit: limit,
  });
  return (out.Items ?? []).filter((i) => isLive(i, now)).map(deliveryOf);
}

/** WH7: ids of pending deliveries due by `now`, oldest due first. */
export async function listDue(now: number, limit: number): Promise<string[]> {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :upTo',
    ExpressionAttributeValues: { ':pk': keys.webhookDuePartition, ':upTo': keys.webhookDueUpTo(now) },
    Limit: limit,
  });
  return (out.Items ?? []).map((i) => String(i.id));
}

/**
 * WH8: takes a due delivery for one attempt (a conditional write, so the SQS consumer and the
 * scheduled sweep never both send it): its next attempt moves CLAIM_MS ahead, which also
 * hands it back if this worker dies. Answers the delivery, or undefined when not ours to send.
 */
export async function claimDelivery(id: string, now: number): Promise<DeliveryRecord | undefined> {
  const until = now + CLAIM_MS;
  const out = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key: keys.webhookDelivery(id),
      UpdateExpression: 'SET nextAttemptAt = :until, gsi2sk = :due',
      ConditionExpression: '#s = :pending AND nextAttemptAt <= :now',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':until': until,
        ':due': keys.webhookDueIndex(until, id).gsi2sk,
        ':pending': 'pending',
        ':now': now,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return out ? deliveryOf(out) : undefined;
}

/** The outcome of a claimed attempt: delivered, failed for good, or pending until `nextAttemptAt`. */
export async function finishAttempt(
  d: DeliveryRecord,
  attempt: DeliveryAttemptView,
  outcome: { status: DeliveryStatus; nextAttemptAt?: number },
): Promise<DeliveryRecord> {
  const attempts = [...d.attempts, attempt].slice(-MAX_LOGGED_ATTEMPTS);
  const pending = outcome.status === 'pending' && outcome.nextAttemptAt !== undefined;
  const out = await ddb().update({
    TableName: table(),
    Key: keys.webhookDelivery(d.id),
    UpdateExpression: pending
      ? 'SET #s = :s, attempts = :a, nextAttemptAt = :n, gsi2pk = :dpk, gsi2sk = :dsk'
      : 'SET #s = :s, attempts = :a REMOVE nextAttemptAt, gsi2pk, gsi2sk',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: {
      ':s': outcome.status,
      ':a': attempts,
      ...(pending
        ? {
            ':n': outcome.nextAttemptAt,
            ':dpk': keys.webhookDuePartition,
            ':dsk': keys.webhookDueIndex(outcome.nextAttemptAt!, d.id).gsi2sk,
          }
        : {}),
    },
    ReturnValues: 'ALL_NEW',
  });
  return deliveryOf(out.Attributes!);
}
