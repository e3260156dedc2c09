/** What the webhooks screen shows of a delivery (pure, unit-tested). */
import type { DeliveredEventType, DeliveryView, EventType } from '@domain/webhooks-api';

export type LastResponse = { kind: 'status'; status: number } | { kind: 'error'; error: string } | { kind: 'none' };

/** The latest attempt's answer: its HTTP status, else why none arrived; `none` before any attempt. */
export function lastResponseOf(d: Pick<DeliveryView, 'attempts'>): LastResponse {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return { kind: 'none' };
  if (last.status !== undefined) return { kind: 'status', status: last.status };
  return { kind: 'error', error: last.error ?? '' };
}

/** When the next attempt is due: pending deliveries only. */
export function nextRetryOf(d: Pick<DeliveryView, 'status' | 'nextAttemptAt'>): number | undefined {
  return d.status === 'pending' ? d.nextAttemptAt : undefined;
}

/** The log is asked for again while any of its deliveries is still pending. */
export function anyPending(deliveries: readonly Pick<DeliveryView, 'status'>[]): boolean {
  return deliveries.some((d) => d.status === 'pending');
}

/** An event type's text key in the `webhooks` catalogue (`transfer.created` → `transfer_created`: a key holds no dot). */
export type EventTextKey<T extends string> = T extends `${infer A}.${infer B}` ? `${A}_${B}` : T;
export function eventTextKey<T extends DeliveredEventType>(type: T): EventTextKey<T> {
  return type.replace('.', '_') as EventTextKey<T>;
}

/**
 * The event types a user can subscribe to, in the contract's order. A copy of the contract's
 * EVENT_TYPES (functions/domain/webhooks-api.ts; a unit test keeps them equal) so the screen
 * takes no runtime code from that module, whose zod schemas would reshuffle shared chunks of
 * the first load.
 */
export const SUBSCRIBABLE_EVENTS = [
  'transfer.created',
  'transfer.downloaded',
  'transfer.expired',
  'request.uploaded',
  'transfer.scan_failed',
  'transfer.delivered',
  'review.commented',
  'review.approved',
] as const satisfies readonly EventType[];
