/**
 * Stripe's webhook signature (https://docs.stripe.com/webhooks#verify-manually), shared by the
 * simulator (which signs what it delivers) and the verification of both providers' webhooks:
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the
 * endpoint's secret>`. Several v1 entries may be present (a secret being rolled): any match
 * passes. Compared in constant time; the timestamp must be within the tolerance of now.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from '../../domain/billing-api';
import { WebhookError, type PaymentEvent } from './provider';

export const SIGNATURE_HEADER = 'Stripe-Signature';

export function computeSignature(timestamp: number, rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/** The header value for a body signed at `timestamp` (wall-clock seconds). */
export function signatureHeader(rawBody: string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${computeSignature(timestamp, rawBody, secret)}`;
}

interface ParsedHeader {
  readonly timestamp: number;
  readonly signatures: readonly string[];
}

function parseHeader(header: string): ParsedHeader | null {
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/u.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/iu.test(value)) signatures.push(value.toLowerCase());
  }
  return Number.isFinite(timestamp) && signatures.length > 0 ? { timestamp, signatures } : null;
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks the signature (throws WebhookError `invalid_signature`, or `signature_too_old` when a
 * valid signature's timestamp is outside the tolerance either way) and parses the event
 * (`invalid_event` unless it is a Stripe event object with an id and a type).
 */
export function verifySignedPayload(
  rawBody: string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  toleranceSeconds: number = WEBHOOK_TOLERANCE_SECONDS,
): PaymentEvent {
  if (!header) throw new WebhookError('invalid_signature', `No ${SIGNATURE_HEADER} header`);
  const parsed = parseHeader(header);
  if (!parsed) throw new WebhookError('invalid_signature', `Unreadable ${SIGNATURE_HEADER} header`);
  const expected = computeSignature(parsed.timestamp, rawBody, secret);
  if (!parsed.signatures.some((s) => sameHex(s, expected)))
    throw new WebhookError('invalid_signature', 'No signature matches the payload');
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds)
    throw new WebhookError('signature_too_old', 'The signature timestamp is outside the tolerance');
  return parseEvent(rawBody);
}

export function parseEvent(rawBody: string): PaymentEvent {
  let event: unknown;
  try {
    event = JSON.parse(rawBody);
  } catch {
    throw new WebhookError('invalid_event', 'The payload is not JSON');
  }
  const e = event as Partial<PaymentEvent> | null;
  if (
    !e ||
    typeof e !== 'object' ||
    e.object !== 'event' ||
    typeof e.id !== 'string' ||
    !e.id ||
    typeof e.type !== 'string' ||
    !e.type ||
    typeof e.created !== 'number' ||
    !e.data ||
    typeof e.data !== 'object' ||
    !e.data.object ||
    typeof e.data.object !== 'object'
  ) {
    throw new WebhookError('invalid_event', 'The payload is not an event');
  }
  return e as PaymentEvent;
}
