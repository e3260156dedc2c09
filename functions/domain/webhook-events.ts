/**
 * The parts of the webhooks contract (functions/domain/webhooks-api.ts, which
 * re-exports them) that the public /developers page shows: event types, delivery headers, and
 * the signing and retry timings. Apart from the contract's zod schemas so the page's lazy chunk
 * stays without zod, as api-key-scopes.ts does for the API keys.
 */

/** The product's event types; `ping` is only ever sent by the test button. */
export const EVENT_TYPES = [
  'transfer.created',
  'transfer.downloaded',
  'transfer.expired',
  'request.uploaded',
  'transfer.scan_failed',
  'transfer.delivered',
  'review.commented',
  'review.approved',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(v: string): v is EventType {
  return (EVENT_TYPES as readonly string[]).includes(v);
}

/** How long the previous secret keeps signing after a rotation unless asked otherwise (at most MAX_ROTATION_GRACE_HOURS, webhooks-api.ts). */
export const DEFAULT_ROTATION_GRACE_HOURS = 24;
/** A receiver should refuse a timestamp further than this from its clock (the documented snippet does). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** Deliveries are retried with backoff for this long after the event. */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;

/**
 * Headers of every delivery: Standard Webhooks' three (https://www.standardwebhooks.com/), so its
 * official libraries verify our deliveries, and the event type for routing before parsing.
 */
export const WEBHOOK_HEADERS = {
  /** the event id: the same on every retry and redelivery */
  id: 'webhook-id',
  /** Unix seconds of this attempt */
  timestamp: 'webhook-timestamp',
  /** `v1,<base64 HMAC-SHA256>` per valid secret, space-separated (two during a rotation's grace period) */
  signature: 'webhook-signature',
  type: 'sendbridge-event-type',
} as const;

/**
 * The headers of the scheme before Standard Webhooks (`v1=<hex>` of `${timestamp}.${body}`
 * keyed with the secret's text), still sent beside the standard ones to endpoints whose secret
 * dates from then, so receivers written for it keep working until the secret is rotated.
 */
export const LEGACY_WEBHOOK_HEADERS = {
  id: 'sendbridge-event-id',
  timestamp: 'sendbridge-timestamp',
  signature: 'sendbridge-signature',
} as const;

/** The prefix of a signing secret; the rest is the key, base64 (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
