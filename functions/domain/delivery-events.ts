/**
 * Download completion as the storage reports it (docs/decisions/0077): each GetObject served
 * under a presigned URL becomes a CloudTrail data event ("AWS API Call via CloudTrail" on
 * EventBridge; locally the s3rver child emits the same shape). The URL carries its grant's id in
 * its signed `response-content-disposition` (CloudTrail logs a presigned GET's query parameters,
 * response overrides included, in `requestParameters`), and `bytesTransferredOut` says how many
 * bytes that request served. CloudTrail logs no Range, so a grant is complete once the bytes served
 * under it reach the object's size.
 */

/** Download limits per transfer and per recipient: whole completions, 1 to 100. */
export const MIN_DOWNLOAD_LIMIT = 1;
export const MAX_DOWNLOAD_LIMIT = 100;

/**
 * A reservation outlives its URL by this much: a request started just before the URL expired
 * may still be running, and CloudTrail delivers data events minutes after the call.
 */
export const RESERVATION_GRACE_MS = 15 * 60 * 1000;

/** The download page's text when a limit is used up (code `download_limit_reached`, 403). */
export const DOWNLOAD_LIMIT_TEXT =
  'This transfer has reached its download limit. Ask the sender to raise it or to send it again.';

/** The disposition parameter naming the grant (RFC 6266 lets a disposition carry extension parameters; browsers ignore them). */
export const GRANT_PARAM = 'sb-delivery';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/** The attachment disposition with the grant's id appended. */
export function taggedDisposition(disposition: string, deliveryId: string): string {
  return `${disposition}; ${GRANT_PARAM}=${deliveryId}`;
}

/** The grant id in a disposition, if it carries a well-formed one. */
export function grantIdOf(disposition: unknown): string | undefined {
  if (typeof disposition !== 'string') return undefined;
  for (const part of disposition.split(';')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name?.toLowerCase() === GRANT_PARAM && value && UUID.test(value)) return value;
  }
  return undefined;
}

/** One served GetObject, as the deliveries job needs it. */
export interface ServedRequest {
  /** CloudTrail's eventID: a redelivered event is counted once */
  readonly eventId: string;
  readonly deliveryId: string;
  readonly bucket: string;
  readonly key: string;
  /** body bytes the request served (all of them, or those sent before the client went away) */
  readonly bytes: number;
  /** epoch ms of the call */
  readonly at: number;
  readonly sourceIp?: string;
}

export const CLOUDTRAIL_DETAIL_TYPE = 'AWS API Call via CloudTrail';
export const S3_EVENT_SOURCE = 'aws.s3';

function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * The served request of an EventBridge "AWS API Call via CloudTrail" event, or undefined for
 * anything else: another call, a failed one (`errorCode`), or a GET without a grant.
 */
export function servedRequestOf(event: unknown): ServedRequest | undefined {
  const e = record(event);
  if (!e || e['detail-type'] !== CLOUDTRAIL_DETAIL_TYPE) return undefined;
  const d = record(e.detail);
  if (d?.eventSource !== 's3.amazonaws.com' || d.eventName !== 'GetObject' || d.errorCode !== undefined)
    return undefined;
  const params = record(d.requestParameters);
  const extra = record(d.additionalEventData);
  if (!params || !extra) return undefined;
  const deliveryId = grantIdOf(params['response-content-disposition']);
  const bytes = Number(extra.bytesTransferredOut);
  const at = Date.parse(String(d.eventTime));
  const { bucketName, key } = params;
  if (!deliveryId || typeof bucketName !== 'string' || typeof key !== 'string') return undefined;
  if (typeof d.eventID !== 'string' || !Number.isFinite(bytes) || bytes < 0 || !Number.isFinite(at)) return undefined;
  return {
    eventId: d.eventID,
    deliveryId,
    bucket: bucketName,
    key,
    bytes,
    at,
    ...(typeof d.sourceIPAddress === 'string' ? { sourceIp: d.sourceIPAddress } : {}),
  };
}

/** Whether the bytes served under a grant cover its object: every byte was served at least once. */
export function servedWhole(servedBytes: number, size: number): boolean {
  return servedBytes >= size;
}

/** A limit's state: completions plus reservations still live, against the limit. */
export interface LimitState {
  readonly limit: number;
  readonly completed: number;
  /** deliveryId -> epoch ms the reservation lapses */
  readonly held: Readonly<Record<string, number>>;
}

/** The reservations still live at `now`, and those lapsed (to remove). */
export function liveHolds(held: Readonly<Record<string, number>>, now: number): { live: string[]; lapsed: string[] } {
  const live: string[] = [];
  const lapsed: string[] = [];
  for (const [id, until] of Object.entries(held)) (until > now ? live : lapsed).push(id);
  return { live, lapsed };
}

/** Whether one more download may start: completed and live reservations stay under the limit. */
export function mayReserve(s: LimitState, now: number): boolean {
  return s.completed + liveHolds(s.held, now).live.length < s.limit;
}

/** Whether a limit is used up by completions alone (what the download page and the sender see). */
export function usedUp(s: Pick<LimitState, 'limit' | 'completed'>): boolean {
  return s.completed >= s.limit;
}
