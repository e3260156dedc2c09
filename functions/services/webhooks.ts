/**
 * Webhook endpoints and their delivery. Users register endpoints for a set of event
 * types; services/events.ts writes a pending delivery per matching endpoint; this module sends
 * them: signed as Standard Webhooks sign (`webhook-signature: v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>`, one per valid secret),
 * through the SSRF-guarded HTTP adapter, retried with exponential backoff until 24 h after the
 * event, every attempt logged with its status and time. A redelivery is a new delivery of the
 * same event: same event id and body, so receivers that de-duplicate on the id see it once.
 */
import { createHmac } from 'node:crypto';
import {
  backoffMs,
  DEFAULT_ROTATION_GRACE_HOURS,
  LEGACY_WEBHOOK_HEADERS,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_HEADERS,
  WEBHOOK_SECRET_PREFIX,
  type CreatedWebhook,
  type CreateWebhookInput,
  type DeliveryAttemptView,
  type DeliveryView,
  type UpdateWebhookInput,
  type WebhookEndpointView,
  type WebhookListResponse,
} from '../domain/webhooks-api';
import * as data from '../data/webhooks';
import type { DeliveryRecord, EndpointRecord, StoredEvent } from '../data/webhooks';
import { postWebhook, type HttpAttempt } from '../adapters/webhook-http';
import { mapLimited } from '../lib/concurrency';
import { config } from '../lib/env';
import { ENV } from '../lib/env-names';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors';
import { errorFields, log } from '../lib/log';
import { checkEndpointUrl, type Lookup } from '../lib/net-guard';
import { requireProfile } from './accounts';
import { envelopeOf, newDelivery, newEventId, startDeliveries } from './events';
import { newEndpointId, newWebhookSecret } from './webhook-ids';

/**
 * Local mode: the emulators' endpoints are configured (never in AWS). Only then may an
 * endpoint be http:// on a loopback address (the tests' and a developer's local receiver).
 */
export function isLocalMode(): boolean {
  return config().endpoints.dynamodb !== undefined;
}

const memberForbidden = () =>
  forbidden('team_member_forbidden', "Your team's admin has not allowed webhooks for team members.");

/** The caller, when they may use webhooks: anyone but a team member whose admin did not allow it. */
async function requireWebhookUser(userId: string): Promise<{ isAdminOrSolo: boolean }> {
  const profile = await requireProfile(userId);
  if (profile.isTeamMember) {
    if (!profile.parentAdminId || !(await data.getMembersAllowed(profile.parentAdminId))) throw memberForbidden();
    return { isAdminOrSolo: false };
  }
  return { isAdminOrSolo: true };
}

function urlOrThrow(raw: string): string {
  const v = checkEndpointUrl(raw, { localMode: isLocalMode() });
  if (!v.ok && v.code === 'webhook_url_invalid') {
    throw badRequest(
      'webhook_url_invalid',
      `Enter an https:// URL${isLocalMode() ? ' (or http:// to 127.0.0.1 locally)' : ''}: ${v.reason}.`,
      { field: 'url' },
    );
  }
  if (!v.ok)
    throw badRequest('webhook_url_not_allowed', `That address cannot receive webhooks: ${v.reason}.`, { field: 'url' });
  return v.url.toString();
}

async function endpointOrThrow(userId: string, id: string): Promise<EndpointRecord> {
  const e = await data.getEndpoint(userId, id);
  if (!e) throw notFound('webhook_not_found', 'No such webhook endpoint.');
  return e;
}

export async function listWebhooks(userId: string, now = Date.now()): Promise<WebhookListResponse> {
  const who = await requireWebhookUser(userId);
  const endpoints = await data.listEndpoints(userId);
  return {
    endpoints: endpoints.map((e) => data.endpointView(e, now)),
    max: MAX_WEBHOOK_ENDPOINTS,
    ...(who.isAdminOrSolo ? { settings: { membersAllowed: await data.getMembersAllowed(userId) } } : {}),
    localMode: isLocalMode(),
  };
}

export async function createWebhook(
  userId: string,
  input: CreateWebhookInput,
  now = Date.now(),
): Promise<CreatedWebhook> {
  await requireWebhookUser(userId);
  const url = urlOrThrow(input.url);
  const endpoint: EndpointRecord = {
    userId,
    id: newEndpointId(),
    url,
    description: input.description ?? '',
    events: [...new Set(input.events)],
    enabled: true,
    createdAt: now,
    secret: newWebhookSecret(),
  };
  if (!(await data.createEndpoint(endpoint, MAX_WEBHOOK_ENDPOINTS))) {
    throw conflict('webhooks_full', `You can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`);
  }
  return { endpoint: data.endpointView(endpoint, now), secret: endpoint.secret };
}

export async function updateWebhook(
  userId: string,
  id: string,
  edit: UpdateWebhookInput,
  now = Date.now(),
): Promise<{ endpoint: WebhookEndpointView }> {
  await requireWebhookUser(userId);
  const e = await endpointOrThrow(userId, id);
  const next: EndpointRecord = {
    ...e,
    ...(edit.url !== undefined ? { url: urlOrThrow(edit.url) } : {}),
    ...(edit.events !== undefined ? { events: [...new Set(edit.events)] } : {}),
    ...(edit.description !== undefined ? { description: edit.description } : {}),
    ...(edit.enabled !== undefined ? { enabled: edit.enabled } : {}),
  };
  if (!(await data.saveEndpoint(next))) throw notFound('webhook_not_found', 'No such webhook endpoint.');
  return { endpoint: data.endpointView(next, now) };
}

export async function deleteWebhook(userId: string, id: string): Promise<{ removed: true }> {
  await requireWebhookUser(userId);
  if (!(await data.deleteEndpoint(userId, id))) throw notFound('webhook_not_found', 'No such webhook endpoint.');
  return { removed: true };
}

/**
 * A new secret, shown once. The previous one keeps signing (a second `v1=` signature) for
 * `graceHours`, so a receiver can switch whenever it likes within that time without losing
 * a delivery.
 */
export async function rotateSecret(
  userId: string,
  id: string,
  graceHours = DEFAULT_ROTATION_GRACE_HOURS,
  now = Date.now(),
): Promise<CreatedWebhook> {
  await requireWebhookUser(userId);
  const e = await endpointOrThrow(userId, id);
  const { previousSecret: _p, previousSecretExpiresAt: _x, ...rest } = e;
  const next: EndpointRecord = {
    ...rest,
    secret: newWebhookSecret(),
    ...(graceHours > 0 ? { previousSecret: e.secret, previousSecretExpiresAt: now + graceHours * 3600_000 } : {}),
  };
  if (!(await data.saveEndpoint(next))) throw notFound('webhook_not_found', 'No such webhook endpoint.');
  return { endpoint: data.endpointView(next, now), secret: next.secret };
}

export async function setMembersAllowed(
  userId: string,
  allowed: boolean,
): Promise<{ settings: { membersAllowed: boolean } }> {
  const profile = await requireProfile(userId);
  if (profile.isTeamMember)
    throw forbidden('team_member_forbidden', "Webhooks for members are managed by your team's admin.");
  await data.setMembersAllowed(userId, allowed);
  return { settings: { membersAllowed: allowed } };
}

/** Newest 50 deliveries of one of the caller's endpoints. */
export async function listEndpointDeliveries(
  userId: string,
  id: string,
  now = Date.now(),
): Promise<{ deliveries: DeliveryView[] }> {
  await requireWebhookUser(userId);
  await endpointOrThrow(userId, id);
  return { deliveries: (await data.listDeliveries(id, 50, now)).map(data.deliveryView) };
}

/** The redeliver button: a new delivery of the same event (same id, same body), sent now. */
export async function redeliver(
  userId: string,
  id: string,
  deliveryId: string,
  now = Date.now(),
): Promise<{ delivery: DeliveryView }> {
  await requireWebhookUser(userId);
  const e = await endpointOrThrow(userId, id);
  const old = await data.getDelivery(deliveryId, now);
  if (!old || old.endpointId !== e.id || old.userId !== userId)
    throw notFound('delivery_not_found', 'No such delivery.');
  const event = await data.getEvent(old.eventId, now);
  if (!event) throw notFound('delivery_not_found', 'That event is no longer kept.');
  const d = newDelivery(event, e, now, old.id);
  await data.putDelivery(d);
  await startDeliveries([{ id: d.id, delaySeconds: 0 }]).catch((err: unknown) =>
    log.warn('redelivery not handed off', { id: d.id, ...errorFields(err) }),
  );
  return { delivery: data.deliveryView(d) };
}

/** The test button: a `ping` event to this one endpoint, logged like any delivery. */
export async function sendTestEvent(userId: string, id: string, now = Date.now()): Promise<{ delivery: DeliveryView }> {
  await requireWebhookUser(userId);
  const e = await endpointOrThrow(userId, id);
  const eventId = newEventId(now);
  const envelope = envelopeOf(eventId, 'ping', now, { endpointId: e.id });
  const event: StoredEvent = { id: eventId, type: 'ping', userId, createdAt: now, body: JSON.stringify(envelope) };
  const d = newDelivery(event, e, now);
  await data.recordEvent(event, [d]);
  await startDeliveries([{ id: d.id, delaySeconds: 0 }]).catch((err: unknown) =>
    log.warn('test delivery not handed off', { id: d.id, ...errorFields(err) }),
  );
  return { delivery: data.deliveryView(d) };
}

// ---- signing ----------------------------------------------------------------------------------

/**
 * Secrets minted before Standard Webhooks: `whsec_` + 43 URL-safe base64 characters (32 bytes,
 * unpadded). The standard's secrets (newWebhookSecret) always end in `=`, so the two never mix.
 */
const LEGACY_SECRET = /^whsec_[A-Za-z0-9_-]{43}$/u;

export function isLegacySecret(secret: string): boolean {
  return LEGACY_SECRET.test(secret);
}

/**
 * The HMAC key of a secret, as Standard Webhooks reads it: the bytes the base64 after `whsec_`
 * stands for. Node's decoder reads the URL-safe alphabet too, so a legacy secret gives the same
 * 32 random bytes it was made of.
 */
export function signingKeyOf(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/** A secret written as Standard Webhooks libraries take it (a legacy one re-encoded: the same key). */
export function standardSecretOf(secret: string): string {
  return `${WEBHOOK_SECRET_PREFIX}${signingKeyOf(secret).toString('base64')}`;
}

/** Standard Webhooks' signature: base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` with the secret's key. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  return createHmac('sha256', signingKeyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The scheme before it: hex HMAC-SHA256 of `${timestamp}.${body}`, keyed with the secret's text. */
export function legacySignatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The headers of one attempt: Standard Webhooks' id, timestamp and a `v1,` signature per valid
 * secret (two during a rotation's grace period), the event type, and, while a valid secret is a
 * legacy one, the old headers signed with it, so a receiver still on the old scheme keeps working.
 */
export function deliveryHeaders(
  e: Pick<EndpointRecord, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  event: Pick<StoredEvent, 'id' | 'type' | 'body'>,
  now: number,
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  const secrets = [e.secret, ...(e.previousSecret && (e.previousSecretExpiresAt ?? 0) > now ? [e.previousSecret] : [])];
  const legacy = secrets.filter(isLegacySecret);
  return {
    [WEBHOOK_HEADERS.id]: event.id,
    [WEBHOOK_HEADERS.type]: event.type,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: secrets.map((s) => `v1,${signatureOf(s, event.id, timestamp, event.body)}`).join(' '),
    ...(legacy.length > 0
      ? {
          [LEGACY_WEBHOOK_HEADERS.id]: event.id,
          [LEGACY_WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [LEGACY_WEBHOOK_HEADERS.signature]: legacy
            .map((s) => `v1=${legacySignatureOf(s, timestamp, event.body)}`)
            .join(' '),
        }
      : {}),
  };
}

// ---- the worker -------------------------------------------------------------------------------

export interface DeliverOptions {
  /** test seam: the resolver (default the system's) */
  readonly lookup?: Lookup;
  readonly random?: () => number;
}

export type DeliverResult =
  | { readonly outcome: 'not-due'; readonly retryInMs?: number }
  | { readonly outcome: 'delivered' | 'failed'; readonly delivery: DeliveryRecord }
  | { readonly outcome: 'retry'; readonly delivery: DeliveryRecord; readonly retryInMs: number };

function attemptView(at: number, a: HttpAttempt): DeliveryAttemptView {
  return {
    at,
    ...(a.status !== undefined ? { status: a.status } : {}),
    ...(a.error
      ? { error: a.error.slice(0, 200) }
      : a.status !== undefined && (a.status < 200 || a.status >= 300) && a.body
        ? { error: a.body.slice(0, 200) }
        : {}),
    durationMs: a.durationMs,
  };
}

/** One attempt of one delivery, when it is due and nobody else holds it. */
export async function deliverOne(
  deliveryId: string,
  now = Date.now(),
  opts: DeliverOptions = {},
): Promise<DeliverResult> {
  const d = await data.claimDelivery(deliveryId, now);
  if (!d) {
    const current = await data.getDelivery(deliveryId, now);
    const retryInMs =
      current?.status === 'pending' && current.nextAttemptAt !== undefined
        ? Math.max(0, current.nextAttemptAt - now)
        : undefined;
    return { outcome: 'not-due', ...(retryInMs !== undefined ? { retryInMs } : {}) };
  }
  const [endpoint, event] = await Promise.all([
    data.getEndpoint(d.userId, d.endpointId),
    data.getEvent(d.eventId, now),
  ]);
  if (!endpoint || !event || !endpoint.enabled) {
    const why = !endpoint ? 'endpoint removed' : !event ? 'event no longer kept' : 'endpoint disabled';
    const done = await data.finishAttempt(d, { at: now, error: why, durationMs: 0 }, { status: 'failed' });
    return { outcome: 'failed', delivery: done };
  }
  const attempt = await postWebhook(endpoint.url, event.body, deliveryHeaders(endpoint, event, now), {
    allowLoopback: isLocalMode(),
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
  const view = attemptView(now, attempt);
  if (ok) return { outcome: 'delivered', delivery: await data.finishAttempt(d, view, { status: 'delivered' }) };
  const failedSoFar = d.attempts.length + 1;
  const wait = backoffMs(failedSoFar, (opts.random ?? Math.random)());
  const next = now + wait;
  if (next > d.deadline)
    return { outcome: 'failed', delivery: await data.finishAttempt(d, view, { status: 'failed' }) };
  return {
    outcome: 'retry',
    delivery: await data.finishAttempt(d, view, { status: 'pending', nextAttemptAt: next }),
    retryInMs: wait,
  };
}

/**
 * A queue message: one attempt, then, in AWS, the next attempt's message (SQS delays at most
 * 15 minutes: a longer wait is crossed in hops, each finding its delivery not due yet).
 * Locally a retry waits for the schedule (the delivery stays due in the outbox).
 */
export async function handleDeliveryMessage(
  deliveryId: string,
  now = Date.now(),
  opts: DeliverOptions = {},
): Promise<DeliverResult> {
  const result = await deliverOne(deliveryId, now, opts);
  const again = result.outcome === 'retry' || result.outcome === 'not-due' ? result.retryInMs : undefined;
  if (again !== undefined && process.env[ENV.webhookQueueUrl]) {
    await startDeliveries([{ id: deliveryId, delaySeconds: Math.ceil(again / 1000) }]);
  }
  return result;
}

export interface SweepResult {
  readonly due: number;
  readonly delivered: number;
  readonly retrying: number;
  readonly failed: number;
}

/** The schedule: every pending delivery whose attempt is due (first attempts whose hand-off failed, and retries). */
export async function deliverDue(
  now = Date.now(),
  opts: DeliverOptions & { limit?: number } = {},
): Promise<SweepResult> {
  const ids = await data.listDue(now, opts.limit ?? 100);
  const results = await mapLimited(ids, 8, (id) =>
    deliverOne(id, now, opts).catch((err: unknown) => {
      log.error('delivery attempt failed', { id, ...errorFields(err) });
      return undefined;
    }),
  );
  const count = (o: string) => results.filter((r) => r?.outcome === o).length;
  return { due: ids.length, delivered: count('delivered'), retrying: count('retry'), failed: count('failed') };
}
