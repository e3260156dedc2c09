/**
 * The simulator's event log and its delivery: each event is written in Stripe's shape
 * (`{ id: 'evt_…', object: 'event', type, created, data: { object } }`) and then POSTed to the
 * webhook URL with a `Stripe-Signature` made exactly as Stripe makes it (wall-clock timestamp,
 * HMAC-SHA256 of `t.body`). Delivery happens right after the state change that caused it; its
 * outcome is recorded on the event, and an undelivered event stays in a queue (gsi2) that the
 * next clock tick retries, in log order. Tests list and redeliver events at will.
 */
import { keys } from '../../../data/keys';
import { log } from '../../../lib/log';
import { signatureHeader, SIGNATURE_HEADER } from '../signature';
import type { PaymentEvent, PaymentEventType } from '../provider';
import {
  getObject,
  listEventItems,
  listUndeliveredItems,
  putObject,
  simId,
  SimConflictError,
  type SimItem,
} from './store';

export interface DeliveryRecord {
  /** delivered: the webhook answered 2xx at least once */
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  /** wall-clock ms */
  readonly lastAttemptAt: number | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly order: string;
}

export interface SimEvent extends PaymentEvent {
  /** Stripe adds the changed fields' earlier values on *.updated events */
  readonly data: PaymentEvent['data'] & { readonly previous_attributes?: Record<string, unknown> };
  readonly livemode: false;
  readonly api_version: string;
  readonly pending_webhooks: number;
  readonly request: { readonly id: null; readonly idempotency_key: null };
}

export interface EventWithDelivery {
  readonly event: SimEvent;
  readonly delivery: DeliveryRecord;
}

export interface DeliveryTarget {
  readonly url: string;
  readonly secret: string;
}

/** What the simulator answers as `api_version` (the stripe SDK's pinned version). */
export const SIM_API_VERSION = '2026-10-28.endive';
const DELIVERY_TIMEOUT_MS = 5_000;

let sequence = 0;

/** Log order: simulated time, then wall-clock ms and a per-process counter for events of the same second. */
function orderKey(created: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${String(created).padStart(12, '0')}#${String(Date.now()).padStart(15, '0')}#${String(sequence).padStart(6, '0')}`;
}

export async function recordEvent(
  type: PaymentEventType,
  object: object,
  created: number,
  previous?: Record<string, unknown>,
): Promise<SimItem<SimEvent, DeliveryRecord>> {
  const id = simId('evt', 24);
  const event: SimEvent = {
    id,
    object: 'event',
    type,
    created,
    api_version: SIM_API_VERSION,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: object as PaymentEvent['data']['object'], ...(previous ? { previous_attributes: previous } : {}) },
  };
  const order = orderKey(created);
  const delivery: DeliveryRecord = {
    status: 'pending',
    attempts: 0,
    lastAttemptAt: null,
    lastStatus: null,
    lastError: null,
    order,
  };
  return putObject<SimEvent, DeliveryRecord>({ id, kind: 'event', data: event, sim: delivery }, 0, {
    gsi1: keys.simpayEventLog(order),
    gsi2: keys.simpayUndelivered(order),
  });
}

/** POSTs one event, signed now, and records the outcome (2xx delivered; anything else failed and queued). */
export async function deliverEvent(
  item: SimItem<SimEvent, DeliveryRecord>,
  target: DeliveryTarget,
): Promise<DeliveryRecord> {
  const body = JSON.stringify(item.data, null, 2);
  const timestamp = Math.floor(Date.now() / 1000);
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        [SIGNATURE_HEADER]: signatureHeader(body, target.secret, timestamp),
        'user-agent': 'SendBridge-PaymentsSimulator/1.0 (+Stripe webhook format)',
      },
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    status = res.status;
    await res.arrayBuffer().catch(() => undefined);
    if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
  } catch (err) {
    error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
  const ok = error === null;
  const previous = item.sim;
  const delivery: DeliveryRecord = {
    status: ok || previous.status === 'delivered' ? 'delivered' : 'failed',
    attempts: previous.attempts + 1,
    lastAttemptAt: Date.now(),
    lastStatus: status,
    lastError: error,
    order: previous.order,
  };
  if (!ok)
    log.warn('payments simulator: webhook delivery failed', {
      eventId: item.id,
      type: item.data.type,
      url: target.url,
      status,
      error,
    });
  try {
    await putObject<SimEvent, DeliveryRecord>(
      { id: item.id, kind: 'event', data: item.data, sim: delivery },
      item.version,
      {
        gsi1: keys.simpayEventLog(previous.order),
        ...(delivery.status === 'delivered' ? {} : { gsi2: keys.simpayUndelivered(previous.order) }),
      },
    );
  } catch (err) {
    // Another delivery of the same event recorded its outcome first; the event went out either way.
    if (!(err instanceof SimConflictError)) throw err;
  }
  return delivery;
}

/** Delivers events in order, each once (their state changes are already stored). */
export async function deliverAll(
  items: readonly SimItem<SimEvent, DeliveryRecord>[],
  target: DeliveryTarget,
): Promise<void> {
  for (const item of items) await deliverEvent(item, target);
}

/** Retries every undelivered event, oldest first (the clock's tick does this before moving on). */
export async function retryUndelivered(target: DeliveryTarget): Promise<number> {
  const pending = await listUndeliveredItems<SimEvent, DeliveryRecord>();
  let delivered = 0;
  for (const item of pending) {
    if ((await deliverEvent(item, target)).lastError === null) delivered += 1;
  }
  return delivered;
}

export async function listEvents(): Promise<EventWithDelivery[]> {
  return (await listEventItems<SimEvent, DeliveryRecord>()).map((i) => ({ event: i.data, delivery: i.sim }));
}

/** Sends one logged event again, whatever its delivery state (as the Stripe dashboard's "Resend"). */
export async function redeliverEvent(eventId: string, target: DeliveryTarget): Promise<DeliveryRecord | null> {
  const item = await getObject<SimEvent, DeliveryRecord>(eventId);
  if (item?.kind !== 'event') return null;
  return deliverEvent(item, target);
}
