/**
 * Deliveries and download limits (docs/decisions/0077).
 *
 * - `grantDownload`: every download URL (a file, or the ZIP) is issued under a grant whose id the
 *   URL carries; with a limit set, the grant reserves a slot or is refused (403 download_limit_reached).
 * - `recordServed`: the deliveries job's step for each storage event of a GetObject served under a
 *   grant. Once the bytes served cover the object, the download is a delivery: recorded once
 *   (data/deliveries.ts), counted against its limits, published as `transfer.delivered`, and the
 *   sender told (mail and notification, once) when a limit is used up by it.
 */
import { v7 as uuidV7 } from 'uuid';
import type { DeliveredFile, DeliveryRecipient, DeliveryRecord } from '../domain/delivery';
import {
  DOWNLOAD_LIMIT_TEXT,
  RESERVATION_GRACE_MS,
  servedRequestOf,
  servedWhole,
  usedUp,
} from '../domain/delivery-events';
import { putDelivery } from '../data/deliveries';
import {
  addServed,
  completeGrant,
  getGrant,
  getLimits,
  markLimitNotified,
  recipientScope,
  reserveGrant,
  TRANSFER_SCOPE,
  type GrantRecord,
} from '../data/download-grants';
import { putLimitReachedNotification } from '../data/notifications';
import * as data from '../data/transfers';
import type { TransferRecord } from '../data/transfers';
import { bucketFor, type ObjectRef } from '../adapters/storage';
import { HttpError } from '../lib/errors';
import { errorFields, log } from '../lib/log';
import { publishEvent } from './events';
import { deliveredWebhookPayload } from './receipts';
import { mailLimitReached } from './mail';
import { mailTitleOf } from '../domain/mail-title';
import { currentVersions } from '../domain/file-versions';

/** Who is asking for a URL: the personal link's recipient id and the client's country. */
export interface GrantViewer {
  readonly recipient?: string;
  /** the address a verified-recipients session proved (services/recipient-access.ts) */
  readonly verifiedEmail?: string;
  readonly sourceIp: string;
  readonly viewerCountry?: string;
}

export interface GrantRequest {
  readonly what: 'file' | 'zip';
  readonly ref: ObjectRef;
  readonly size: number;
  readonly fileIds: readonly string[];
  readonly expiresInSeconds: number;
}

export function limitReachedError(): HttpError {
  return new HttpError(403, 'download_limit_reached', DOWNLOAD_LIMIT_TEXT);
}

function recipientOf(
  t: TransferRecord,
  viewer: Pick<GrantViewer, 'recipient' | 'verifiedEmail'>,
): { who: DeliveryRecipient; id?: string } {
  if (viewer.verifiedEmail) {
    // a proven address counts against its own recipient's limit when it is one of the mailed recipients
    const own = t.recipients.find((x) => x.email.toLowerCase() === viewer.verifiedEmail!.toLowerCase());
    return { who: { kind: 'verified', email: viewer.verifiedEmail }, ...(own ? { id: own.recipientId } : {}) };
  }
  const r = viewer.recipient ? t.recipients.find((x) => x.recipientId === viewer.recipient) : undefined;
  return r ? { who: { kind: 'personal', email: r.email }, id: r.recipientId } : { who: { kind: 'link' } };
}

/** The limit scopes a download through this link counts against. */
function scopesOf(recipientId: string | undefined): string[] {
  return recipientId ? [TRANSFER_SCOPE, recipientScope(recipientId)] : [TRANSFER_SCOPE];
}

/**
 * Issues a grant for one download URL: its id goes into the URL. With a limit on the transfer
 * (or on this recipient) a slot is reserved until the URL lapses, or 403 download_limit_reached.
 */
export async function grantDownload(
  t: TransferRecord,
  viewer: GrantViewer,
  req: GrantRequest,
  now = Date.now(),
): Promise<string> {
  const { who, id } = recipientOf(t, viewer);
  // loaded here, not at import: the jobs importing this module for other reasons do not carry GeoIP
  const { countryOf } = await import('../adapters/geo');
  const country = await countryOf(viewer.viewerCountry, viewer.sourceIp);
  const urlExpiresAt = now + req.expiresInSeconds * 1000;
  const grant: GrantRecord = {
    deliveryId: uuidV7({ msecs: now }),
    slug: t.slug,
    what: req.what,
    recipient: who,
    ...(id ? { recipientId: id } : {}),
    fileIds: req.fileIds,
    bucket: bucketFor(req.ref.regionId, req.ref.anon).bucket,
    key: req.ref.key,
    size: req.size,
    startedAt: now,
    urlExpiresAt,
    countryCode: country.code,
    scopes: scopesOf(id),
    servedBytes: 0,
  };
  const reserved = await reserveGrant(grant, urlExpiresAt + RESERVATION_GRACE_MS, now);
  if (!reserved.ok) throw limitReachedError();
  return grant.deliveryId;
}

/**
 * Whether the download page should say the limit is used up for this viewer (completions alone):
 * the scopes its downloads would count against, so a verified address on the shared link sees
 * its own recipient's limit as its personal link would.
 */
export async function limitUsedUp(
  t: TransferRecord,
  viewer: Pick<GrantViewer, 'recipient' | 'verifiedEmail'>,
): Promise<boolean> {
  const limits = await getLimits(t.slug, scopesOf(recipientOf(t, viewer).id));
  return limits.some(usedUp);
}

export type ServedOutcome = 'ignored' | 'counted' | 'delivered' | 'duplicate';

/**
 * The deliveries job's step for one storage event. Safe to repeat: an event is counted once per
 * grant, a grant completes once, and a delivery is written once.
 */
export async function recordServed(event: unknown): Promise<ServedOutcome> {
  const served = servedRequestOf(event);
  if (!served) return 'ignored';
  const grant = await getGrant(served.deliveryId);
  // the URL's signature covers key and disposition; a mismatch is not one of our downloads
  if (!grant || grant.bucket !== served.bucket || grant.key !== served.key) return 'ignored';
  const after = await addServed(served.deliveryId, served.eventId, served.bytes);
  if (!after) {
    // counted before: a run that completed the grant may have died before its delivery
    const again = await getGrant(served.deliveryId);
    if (again?.completedAt !== undefined) await deliver(again, again.completedAt);
    return 'duplicate';
  }
  if (!servedWhole(after.servedBytes, after.size)) return 'counted';
  if (!(await completeGrant(after, served.at))) {
    const again = await getGrant(served.deliveryId);
    if (again?.completedAt !== undefined) await deliver(again, again.completedAt);
    return 'duplicate';
  }
  await deliver(after, served.at);
  return 'delivered';
}

async function deliveredFiles(slug: string, fileIds: readonly string[]): Promise<DeliveredFile[]> {
  const byId = new Map((await data.listFiles(slug)).map((f) => [f.fileId, f]));
  return fileIds.flatMap((fileId): DeliveredFile[] => {
    const f = byId.get(fileId);
    if (!f) return [];
    return [{ fileId, path: f.itemPath || f.fileName, size: f.size, ...(f.sha256 ? { sha256: f.sha256 } : {}) }];
  });
}

/** Writes the delivery once; the first write publishes it and tells the sender of a limit it used up. */
async function deliver(g: GrantRecord, at: number): Promise<void> {
  const record: DeliveryRecord = {
    slug: g.slug,
    deliveryId: g.deliveryId,
    startedAt: g.startedAt,
    at,
    what: g.what,
    recipient: g.recipient,
    countryCode: g.countryCode,
    files: await deliveredFiles(g.slug, g.fileIds),
    bytes: g.size,
    servedWhole: true,
  };
  if (!(await putDelivery(record))) return;
  const t = await data.getTransfer(g.slug);
  if (!t) return;
  // a file request's upload is downloaded by its requester: nothing to tell
  if (!t.requestId) {
    // the event carries the delivery's signed receipt (services/receipts.ts)
    await publishEvent({ ...(await deliveredWebhookPayload(record, t)), userId: t.senderId, at });
  }
  await tellSenderOfUsedUpLimits(t, g, at);
}

async function tellSenderOfUsedUpLimits(t: TransferRecord, g: GrantRecord, at: number): Promise<void> {
  try {
    for (const l of await getLimits(g.slug, g.scopes)) {
      if (!usedUp(l) || !(await markLimitNotified(g.slug, l.scope, at))) continue;
      const recipient = l.scope === TRANSFER_SCOPE ? undefined : (g.recipient as { email?: string }).email;
      if (t.senderId) {
        await putLimitReachedNotification(t.senderId, at, t.slug, t.fileName ?? t.slug, {
          limit: l.limit,
          ...(recipient ? { recipient } : {}),
        });
      }
      const files = currentVersions((await data.listFiles(t.slug)).filter((f) => f.status === 'uploaded'));
      await mailLimitReached(t, { title: mailTitleOf(files), limit: l.limit, ...(recipient ? { recipient } : {}) });
    }
  } catch (err) {
    // the delivery is recorded; a lost notice must not make the job count it again
    log.error('download limit notice not sent', { slug: t.slug, ...errorFields(err) });
  }
}
