/**
 * Webhooks and product events. The contract between the `me` handlers, the
 * dashboard's webhooks screen (/dash/account/webhooks) and the tests. Paths are relative to
 * /api; every route needs the signed-in user's JWT and touches only the caller's own endpoints
 * (found under the caller's pk, so an id can never name another user's endpoint).
 *
 *   GET    /webhooks                              endpoints, settings            -> 200 WebhookListResponse
 *   POST   /webhooks                              { url, events, description? }  -> 201 { endpoint, secret } (secret shown once)
 *   PATCH  /webhooks/{id}                         { url?, events?, description?, enabled? } -> 200 { endpoint }
 *   DELETE /webhooks/{id}                                                        -> 200 { removed: true }
 *   POST   /webhooks/{id}/rotate                  { graceHours? }                -> 200 { endpoint, secret } (new secret once; the old one signs too until the grace ends)
 *   GET    /webhooks/{id}/deliveries              newest first                   -> 200 { deliveries }
 *   POST   /webhooks/{id}/deliveries/{deliveryId}/redeliver  same event id, now  -> 202 { delivery }
 *   POST   /webhooks/{id}/test                    a `ping` event to this endpoint -> 202 { delivery }
 *   PUT    /webhook-settings                      { membersAllowed } (not a member) -> 200 { settings }
 *
 * Errors: 400 webhook_url_invalid (not an https URL, or http to a non-loopback host locally),
 * 400 webhook_url_not_allowed (a private, loopback, link-local, CGNAT, multicast or metadata
 * address outside local mode), 409 webhooks_full (MAX_WEBHOOK_ENDPOINTS), 404
 * webhook_not_found, 404 delivery_not_found, 403 team_member_forbidden.
 */
import * as z from 'zod/mini';

/**
 * The event types, the delivery headers and the signing and retry timings live in a module
 * without zod (webhook-events.ts), so the public /developers page reads them without the
 * schemas; this contract re-exports them under the same names.
 */
import { EVENT_TYPES, type EventType } from './webhook-events';
import type { ReceiptDocument } from './receipt-format';
export {
  DEFAULT_ROTATION_GRACE_HOURS,
  EVENT_TYPES,
  isEventType,
  LEGACY_WEBHOOK_HEADERS,
  RETRY_WINDOW_MS,
  SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_HEADERS,
  WEBHOOK_SECRET_PREFIX,
} from './webhook-events';
export type { EventType } from './webhook-events';
export type DeliveredEventType = EventType | 'ping';

/** Most endpoints one account keeps. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** The most a rotation's grace period may be (the default: DEFAULT_ROTATION_GRACE_HOURS). */
export const MAX_ROTATION_GRACE_HOURS = 7 * 24;

/** Endpoint ids: `we_` + 20 lower-case base32 characters; delivery ids `wd_` + the same. */
export const WEBHOOK_ID_PATTERN = /^we_[a-z2-7]{20}$/u;
export const DELIVERY_ID_PATTERN = /^wd_[a-z2-7]{20}$/u;

/**
 * The wire shape of every event (the delivery body, and the EventBridge event's `detail`).
 * `id` is stable across retries and redeliveries: receivers de-duplicate on it.
 */
export interface EventEnvelope<T extends DeliveredEventType = DeliveredEventType, D = Record<string, unknown>> {
  readonly id: string;
  readonly type: T;
  /** ISO 8601 */
  readonly createdAt: string;
  readonly data: D;
}

/** `data` of each event type. */
export interface TransferEventData {
  readonly transferId: string;
  readonly link: string;
  readonly sendAs: 'email' | 'link';
  readonly fileCount: number;
  readonly totalBytes: number;
  readonly expiryDate: string;
  readonly recipients: readonly string[];
}
export interface TransferDownloadedData {
  readonly transferId: string;
  readonly downloadId: string;
  /** ISO 3166-1 alpha-2, or `XX` when unknown */
  readonly country: string;
  readonly countryName: string;
  /** the recipient's address when the link was a recipient's own (email sends) */
  readonly recipient?: string;
  readonly origin: 'file' | 'zip';
  readonly fileName: string;
  readonly downloadedAt: string;
}
export interface TransferExpiredData {
  readonly transferId: string;
  readonly expiredAt: string;
  readonly totalDownloads: number;
}
export interface RequestUploadedData {
  readonly requestId: string;
  readonly requestTitle: string;
  readonly transferId: string;
  readonly senderName: string;
  readonly senderEmail: string;
  readonly fileCount: number;
  readonly totalBytes: number;
  readonly expiryDate: string;
}
/** Emitted by the malware scan: one file found infected and quarantined. */
export interface TransferScanFailedData {
  readonly transferId: string;
  readonly fileId: string;
  readonly fileName: string;
  /** the scanner's name of what it found, e.g. `EICAR-Test-File` */
  readonly finding: string;
  /** which scanner decided: `guardduty`, `clamav`, `eicar` */
  readonly scanner: string;
  readonly scannedAt: string;
}
/**
 * Emitted once per delivery: a download the storage reported served to the end (every byte of
 * the file or the ZIP, possibly over several ranged requests).
 */
export interface TransferDeliveredData {
  readonly transferId: string;
  readonly delivery: {
    readonly deliveryId: string;
    readonly what: 'file' | 'zip';
    /** `personal`: the personal link of `email`; `link`: anyone with the link; `verified`: proved `email` */
    readonly recipient: { readonly kind: 'link' } | { readonly kind: 'personal' | 'verified'; readonly email: string };
    /** ISO 3166-1 alpha-2, or `XX` when unknown */
    readonly country: string;
    /** the URL was issued */
    readonly startedAt: string;
    /** the last byte was served */
    readonly deliveredAt: string;
    readonly bytes: number;
    readonly servedWhole: boolean;
    /** SHA-256 (hex) from the transfer's manifest; null while not yet computed */
    readonly files: readonly { fileId: string; path: string; size: number; sha256: string | null }[];
  };
  /** the signed receipt file, as the sender downloads it from the TransferModal */
  readonly receipt: ReceiptDocument;
}
/** Who wrote a review comment or decision: a verified address, or a name a link visitor typed (unverified). */
export type ReviewEventAuthor =
  | { readonly kind: 'verified'; readonly email: string }
  | { readonly kind: 'visitor'; readonly name: string };
/**
 * Emitted for each recipient's comment on a transfer with review on (threads and replies), and
 * for a request for changes that carries a note (`decision: 'changes_requested'`, no comment id).
 */
export interface ReviewCommentedData {
  readonly transferId: string;
  /** the file commented on (its first version's id); null for a note on the whole transfer */
  readonly fileId: string | null;
  readonly fileName: string | null;
  /** null for a request for changes' note */
  readonly commentId: string | null;
  /** a reply's thread */
  readonly parentId?: string;
  readonly author: ReviewEventAuthor;
  /** plain text, up to 2,000 characters */
  readonly body: string;
  /** where on the file: `{kind:'point',x,y}` (fractions), `{kind:'time',seconds}`, `{kind:'page',page}` */
  readonly anchor?:
    | { readonly kind: 'point'; readonly x: number; readonly y: number }
    | { readonly kind: 'time'; readonly seconds: number }
    | { readonly kind: 'page'; readonly page: number };
  readonly decision?: 'changes_requested';
  readonly createdAt: string;
}
/** Emitted when a recipient approves a file or the whole transfer (`subject: 'transfer'`). */
export interface ReviewApprovedData {
  readonly transferId: string;
  /** a file's id (its first version's), or `transfer` */
  readonly subject: string;
  readonly fileName: string | null;
  /** the file's version approved (0 for the transfer) */
  readonly version: number;
  readonly author: ReviewEventAuthor;
  readonly note?: string;
  readonly approvedAt: string;
}
export interface EventDataOf {
  'transfer.created': TransferEventData;
  'transfer.downloaded': TransferDownloadedData;
  'transfer.expired': TransferExpiredData;
  'request.uploaded': RequestUploadedData;
  'transfer.scan_failed': TransferScanFailedData;
  'transfer.delivered': TransferDeliveredData;
  'review.commented': ReviewCommentedData;
  'review.approved': ReviewApprovedData;
}

// ---- the dashboard's views ------------------------------------------------------------------

export interface WebhookEndpointView {
  readonly id: string;
  readonly url: string;
  readonly description: string;
  readonly events: readonly EventType[];
  readonly enabled: boolean;
  readonly createdAt: number;
  /** the secret's first characters, to tell secrets apart (`whsec_ab12…`) */
  readonly secretHint: string;
  /** while a rotation's grace period runs: when the previous secret stops signing */
  readonly previousSecretExpiresAt?: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttemptView {
  readonly at: number;
  /** the receiver's HTTP status; absent when no answer arrived */
  readonly status?: number;
  /** why no answer, or the first bytes of a refusal */
  readonly error?: string;
  readonly durationMs: number;
}

export interface DeliveryView {
  readonly id: string;
  readonly eventId: string;
  readonly eventType: DeliveredEventType;
  readonly status: DeliveryStatus;
  readonly createdAt: number;
  readonly attempts: readonly DeliveryAttemptView[];
  /** when the next attempt is due (pending only) */
  readonly nextAttemptAt?: number;
  /** set on a redelivery: the delivery it repeats */
  readonly redeliveryOf?: string;
}

export interface WebhookSettings {
  /** a team admin's choice: may the team's members use webhooks (their own endpoints)? */
  readonly membersAllowed: boolean;
}

export interface WebhookListResponse {
  readonly endpoints: readonly WebhookEndpointView[];
  readonly max: number;
  /** present for team admins only (they decide for their members) */
  readonly settings?: WebhookSettings;
  /** in local mode http://127.0.0.1 endpoints are allowed */
  readonly localMode: boolean;
}

export interface CreatedWebhook {
  readonly endpoint: WebhookEndpointView;
  /** shown once; the server keeps it only to sign */
  readonly secret: string;
}

// ---- request schemas ------------------------------------------------------------------------

const eventsSchema = z
  .array(z.enum(EVENT_TYPES))
  .check(z.minLength(1, 'invalid_value'), z.maxLength(EVENT_TYPES.length, 'invalid_value'));
const urlSchema = z
  .string()
  .check(z.trim(), z.minLength(1, 'invalid_value'), z.maxLength(WEBHOOK_URL_MAX, 'invalid_value'));
const descriptionSchema = z.string().check(z.trim(), z.maxLength(WEBHOOK_DESCRIPTION_MAX, 'invalid_value'));

export const createWebhookSchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  description: z.optional(descriptionSchema),
});
export type CreateWebhookInput = z.output<typeof createWebhookSchema>;

export const updateWebhookSchema = z.object({
  url: z.optional(urlSchema),
  events: z.optional(eventsSchema),
  description: z.optional(descriptionSchema),
  enabled: z.optional(z.boolean()),
});
export type UpdateWebhookInput = z.output<typeof updateWebhookSchema>;

export const rotateWebhookSchema = z.object({
  graceHours: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(MAX_ROTATION_GRACE_HOURS))),
});

export const webhookSettingsSchema = z.object({ membersAllowed: z.boolean() });

export const webhookIdParamsSchema = z.object({ id: z.string().check(z.regex(WEBHOOK_ID_PATTERN, 'invalid_link')) });
export const deliveryParamsSchema = z.object({
  id: z.string().check(z.regex(WEBHOOK_ID_PATTERN, 'invalid_link')),
  deliveryId: z.string().check(z.regex(DELIVERY_ID_PATTERN, 'invalid_link')),
});

// ---- retry schedule -------------------------------------------------------------------------

/**
 * The delay before attempt `n + 1` after `n` failed attempts: 30 s doubling to a 1 h ceiling,
 * with ±20 % jitter (`random` in [0, 1)). About 30 attempts fit the 24 h window.
 */
export function backoffMs(failedAttempts: number, random: number): number {
  const base = Math.min(30_000 * 2 ** Math.max(0, failedAttempts - 1), 3600_000);
  return Math.round(base * (0.8 + 0.4 * random));
}
