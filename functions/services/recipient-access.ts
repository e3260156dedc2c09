/**
 * Verified recipients (docs/decisions/0076): the download gate's recipient check, the mailed
 * code and the verified session it earns, and the sender's access list. A session is checked
 * against the live list on every request, so removing, revoking or expiring an address stops
 * its open pages at their next call.
 */
import {
  ACCESS_TEXTS,
  RECIPIENT_SESSION_HOURS,
  isAtDomain,
  type AccessEntry,
  type AccessSessionResponse,
} from '../domain/recipient-access';
import { randomString } from '../domain/slug';
import * as access from '../data/recipient-access';
import type { TransferRecord } from '../data/transfers';
import { HttpError, conflict, forbidden, gone } from '../lib/errors';
import { hashToken, newToken } from '../lib/secrets';
import { checkEmailCode, limitRate, sendEmailCode } from './email-codes';

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Codes mailed for one transfer an hour, from every client together (besides the per-address limits). */
export const CODES_PER_TRANSFER = { limit: 60, windowSeconds: 3600 };
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/u;

/** What the gate needs of a request: its session token, and the personal link's recipient id. */
export interface AccessViewer {
  readonly access?: string;
  readonly recipient?: string;
}

// The address a request was verified for, so the download it leads to is recorded under it.
const verified = new WeakMap<object, string>();

/** The verified address of a request the gate let through, if the transfer asked for one. */
export function verifiedAddressOf(viewer: object): string | undefined {
  return verified.get(viewer);
}

/** 410 for an address the sender removed, revoked, or whose own expiry has passed; nothing for a live one. */
function assertLiveEntry(e: AccessEntry | undefined, now: number): asserts e is AccessEntry {
  if (!e || e.removedAt !== undefined) throw gone('recipient_removed', ACCESS_TEXTS.recipientRemoved);
  if (e.revokedAt !== undefined) throw gone('recipient_revoked', ACCESS_TEXTS.recipientRevoked);
  if (e.expiresAt !== undefined && now >= e.expiresAt) throw gone('recipient_expired', ACCESS_TEXTS.recipientExpired);
}

async function entryByRecipientId(slug: string, recipientId: string): Promise<AccessEntry | undefined> {
  return (await access.listAccessEntries(slug)).find((e) => e.recipientId === recipientId);
}

/** 401 verification_required, naming the personal link's address so the page can fill it in. */
async function verificationRequired(t: TransferRecord, viewer: AccessViewer): Promise<HttpError> {
  const own = viewer.recipient ? await entryByRecipientId(t.slug, viewer.recipient) : undefined;
  const email = own && own.removedAt === undefined ? own.email : undefined;
  return new HttpError(401, 'verification_required', ACCESS_TEXTS.verificationRequired, email ? { email } : undefined);
}

/**
 * The download gate's recipient check (after the link, expiry and password checks): a transfer
 * with verified recipients needs a live session for an address still allowed now.
 */
export async function assertRecipientAccess(t: TransferRecord, viewer: AccessViewer, now = Date.now()): Promise<void> {
  if (!t.recipientAccess) return;
  const session =
    viewer.access && TOKEN_PATTERN.test(viewer.access)
      ? await access.getRecipientSession(hashToken(viewer.access), now)
      : undefined;
  if (!session || session.slug !== t.slug) throw await verificationRequired(t, viewer);
  const entry = await access.getAccessEntry(t.slug, session.email);
  assertLiveEntry(entry, now);
  // a personal link asks for its own address: another address's session does not open it
  if (viewer.recipient && entry.recipientId !== viewer.recipient) {
    const own = await entryByRecipientId(t.slug, viewer.recipient);
    if (own && own.email !== session.email) throw await verificationRequired(t, viewer);
  }
  verified.set(viewer, session.email);
}

/**
 * Whether `email` may ask for a code: a live entry, or an address at the allowed domain. 403
 * address_not_allowed otherwise; 410 for an address that was removed, revoked or expired.
 */
async function allowedEntry(
  t: TransferRecord,
  email: string,
  recipient: string | undefined,
  now: number,
): Promise<AccessEntry | undefined> {
  if (!t.recipientAccess) throw conflict('verification_not_needed', ACCESS_TEXTS.notVerified);
  if (recipient) {
    const own = await entryByRecipientId(t.slug, recipient);
    if (own && own.email !== email) throw forbidden('address_not_allowed', ACCESS_TEXTS.addressNotAllowed);
  }
  const entry = await access.getAccessEntry(t.slug, email);
  if (entry) {
    assertLiveEntry(entry, now);
    return entry;
  }
  if (isAtDomain(email, t.recipientAccess.domain)) return undefined;
  throw forbidden('address_not_allowed', ACCESS_TEXTS.addressNotAllowed);
}

/** POST /getDownload/access/code: the code goes to an allowed address, within the code flows' limits. */
export async function sendRecipientCode(
  t: TransferRecord,
  email: string,
  recipient: string | undefined,
  lang: string | undefined,
  sourceIp: string,
  now = Date.now(),
): Promise<{ expiresAt: number }> {
  await allowedEntry(t, email, recipient, now);
  await limitRate(
    [['access-code-transfer', t.slug, CODES_PER_TRANSFER]],
    'Too many codes requested. Try again in {minutes} minutes.',
    now,
  );
  return sendEmailCode('recipient', email, lang ?? t.lang, sourceIp, now);
}

/** POST /getDownload/access/verify: a right code opens a session for this transfer and address. */
export async function verifyRecipientCode(
  t: TransferRecord,
  email: string,
  code: string,
  recipient: string | undefined,
  sourceIp: string,
  now = Date.now(),
): Promise<AccessSessionResponse> {
  const entry = await allowedEntry(t, email, recipient, now);
  await checkEmailCode('recipient', email, code, sourceIp, now);
  // an address at the allowed domain joins the list on its first code, so the sender sees and can revoke it
  if (!entry) await access.putAccessEntry(t.slug, { email, recipientId: randomString(8, ALNUM), addedAt: now });
  await access.changeAccessEntry(t.slug, email, { kind: 'opened', at: now });
  const token = newToken();
  const expiresAt = Math.min(now + RECIPIENT_SESSION_HOURS * 3_600_000, t.expiryDate);
  await access.putRecipientSession(hashToken(token), { slug: t.slug, email, expiresAt }, now);
  return { access: token, email, expiresAt };
}
