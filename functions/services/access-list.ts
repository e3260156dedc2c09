/**
 * The sender's access list of a transfer with verified recipients (docs/decisions/0076): read
 * it with each address's state and downloads, turn verification on or off, add addresses (they
 * get the mail), remove, revoke, restore, or give one address its own expiry. Owner only.
 */
import type * as z from 'zod/mini';
import {
  ACCESS_TEXTS,
  MAX_ACCESS_ENTRIES,
  accessStateOf,
  type AccessEntry,
  type AccessListResponse,
} from '../domain/recipient-access';
import type {
  accessAddRequestSchema,
  accessChangeRequestSchema,
  accessSettingsRequestSchema,
} from '../domain/recipient-access-api';
import { randomString } from '../domain/slug';
import * as access from '../data/recipient-access';
import * as transfers from '../data/transfers';
import type { TransferRecipient, TransferRecord } from '../data/transfers';
import { listDeliveries } from '../data/deliveries';
import { badRequest, conflict, gone, notFound } from '../lib/errors';
import { mapLimited } from '../lib/concurrency';
import { limitRate } from './email-codes';
import { mailTransferAgain } from './mail';
import { requireOwner } from './transfers';
import { ALNUM } from './recipient-access';
import { currentVersions } from '../domain/file-versions';

/** POST /transfers/access: each listed address with its state and download count. */
export async function accessListOf(slug: string, userId: string, now = Date.now()): Promise<AccessListResponse> {
  const t = await requireOwner(slug, userId);
  return listView(t, now);
}

async function listView(t: TransferRecord, now: number): Promise<AccessListResponse> {
  // "downloaded n times" counts deliveries (whole files or ZIPs served to the end), not clicks
  const [entries, deliveries] = await Promise.all([access.listAccessEntries(t.slug), listDeliveries(t.slug)]);
  const counts = new Map<string, number>();
  for (const d of deliveries) {
    if (d.recipient.kind === 'link') continue;
    const email = d.recipient.email.toLowerCase();
    counts.set(email, (counts.get(email) ?? 0) + 1);
  }
  return {
    enabled: t.recipientAccess !== undefined,
    ...(t.recipientAccess?.domain ? { domain: t.recipientAccess.domain } : {}),
    recipients: entries
      .filter((e) => e.removedAt === undefined)
      .sort((a, b) => a.addedAt - b.addedAt || a.email.localeCompare(b.email))
      .map((e) => {
        const n = counts.get(e.email.toLowerCase()) ?? 0;
        return {
          email: e.email,
          state: accessStateOf(e, n, now),
          downloads: n,
          addedAt: e.addedAt,
          ...(e.expiresAt !== undefined ? { expiresAt: e.expiresAt } : {}),
          ...(e.openedAt !== undefined ? { openedAt: e.openedAt } : {}),
          ...(e.revokedAt !== undefined ? { revokedAt: e.revokedAt } : {}),
        };
      }),
  };
}

function assertChangeable(t: TransferRecord, now: number): void {
  if (t.status === 'uploading' && t.liveAt === undefined)
    throw conflict('transfer_uploading', 'This transfer is still being uploaded.');
  if (now >= t.expiryDate || t.purged) throw gone('transfer_expired', 'This transfer has expired.');
}

/** An email send's recipients, with the ids of their personal links, as list entries. */
export function entriesOfRecipients(recipients: readonly TransferRecipient[], now: number): AccessEntry[] {
  return recipients.map((r) => ({ email: r.email, recipientId: r.recipientId, addedAt: now }));
}

/**
 * POST /transfers/access/settings: turns verification on (the recipients join the list) or off.
 * On with no one listed and no domain is allowed here: the link is closed until the sender adds
 * someone, which the TransferModal does next.
 */
export async function changeAccessSettings(
  body: z.output<typeof accessSettingsRequestSchema>,
  userId: string,
  now = Date.now(),
): Promise<AccessListResponse> {
  const t = await requireOwner(body.slug, userId);
  assertChangeable(t, now);
  const domain = body.domain === undefined ? t.recipientAccess?.domain : (body.domain ?? undefined);
  const config = body.enabled ? { ...(domain ? { domain } : {}) } : undefined;
  if (config) await mapLimited(entriesOfRecipients(t.recipients, now), 8, (e) => access.putAccessEntry(t.slug, e));
  if (!(await access.setAccessConfig(t.slug, config)))
    throw notFound('transfer_not_found', 'This transfer does not exist.');
  return listView({ ...t, recipientAccess: config }, now);
}

/** POST /transfers/access/add: new addresses on the list, each mailed its own link. */
export async function addRecipients(
  body: z.output<typeof accessAddRequestSchema>,
  userId: string,
  now = Date.now(),
): Promise<AccessListResponse & { mailed: string[] }> {
  const t = await requireOwner(body.slug, userId);
  assertChangeable(t, now);
  if (!t.recipientAccess) throw conflict('verification_not_needed', ACCESS_TEXTS.notVerified);
  if (body.expiresAt !== undefined && body.expiresAt <= now)
    throw badRequest('invalid_expiry', 'Choose a date in the future.');
  const existing = await access.listAccessEntries(t.slug);
  const live = new Set(existing.filter((e) => e.removedAt === undefined).map((e) => e.email));
  const fresh = [...new Set(body.emails)].filter((e) => !live.has(e));
  if (live.size + fresh.length > MAX_ACCESS_ENTRIES) throw badRequest('access_list_full', ACCESS_TEXTS.listFull);
  await limitRate(
    [['access-add', t.slug, { limit: 10, windowSeconds: 3600 }]],
    'Too many changes. Try again in {minutes} minutes.',
    now,
  );
  const added: TransferRecipient[] = [];
  for (const email of fresh) {
    const recipientId = randomString(8, ALNUM);
    const entry: AccessEntry = {
      email,
      recipientId,
      addedAt: now,
      ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt } : {}),
    };
    if (await access.putAccessEntry(t.slug, entry)) added.push({ email, recipientId });
  }
  // the mail lists what recipients get: the current version of each file
  const files = currentVersions((await transfers.listFiles(t.slug)).filter((f) => f.status === 'uploaded'));
  const failed = new Set(added.length > 0 ? await mailTransferAgain(t, files, added) : []);
  return { ...(await listView(t, now)), mailed: added.map((r) => r.email).filter((e) => !failed.has(e)) };
}

/** POST /transfers/access/recipient: remove, revoke, restore, or set one address's expiry. */
export async function changeRecipient(
  body: z.output<typeof accessChangeRequestSchema>,
  userId: string,
  now = Date.now(),
): Promise<AccessListResponse> {
  const t = await requireOwner(body.slug, userId);
  if (body.action === 'expiry' && typeof body.expiresAt === 'number' && body.expiresAt <= now)
    throw badRequest('invalid_expiry', 'Choose a date in the future.');
  const change =
    body.action === 'remove' || body.action === 'revoke'
      ? { kind: body.action, at: now }
      : body.action === 'restore'
        ? { kind: 'restore' as const }
        : { kind: 'expiry' as const, expiresAt: body.expiresAt ?? undefined };
  if (!(await access.changeAccessEntry(t.slug, body.email, change)))
    throw notFound('not_on_access_list', ACCESS_TEXTS.notListed);
  return listView(t, now);
}
