/**
 * Plan limits on the server (spec §6, §9; architecture §4): storage used per owner (the team
 * admin for members) and free users' monthly sends change only through conditional
 * transactional writes, so concurrent sends cannot overshoot; account states block first.
 */
import {
  blockReason,
  limitScreenFor,
  overTransferLimitText,
  transferExcess,
  transferMonthKey,
  type BlockReason,
} from '../domain/blocking';
import { limitsFor, resolveRole } from '../domain/plans';
import { blockingOf } from '../domain/billing';
import { formatBytes } from '../domain/format';
import { keys } from '../data/keys';
import { conditionalUpdate, table, transact } from '../data/base';
import type { TransferRecord } from '../data/transfers';
import {
  getProfile,
  guestOwner,
  monthlyTransfers,
  releaseSend,
  reserveSend,
  storedBytesUpdate,
  type UserProfile,
} from '../data/users';
import { hitRateWindow } from '../data/verification';
import { GUEST_DAY_SECONDS, GUEST_LIMITS } from '../domain/guest-limits';
import { ddb } from '../lib/clients/dynamodb';
import { HttpError } from '../lib/errors';

export interface Reservation {
  readonly storageOwner: string;
  readonly reservedBytes: number;
  readonly sendMonth?: string;
}

/** Whose storage and plan a user's sends count against: the parent admin for team members. */
export async function storageOwnerOf(profile: UserProfile): Promise<UserProfile> {
  if (!profile.isTeamMember || !profile.parentAdminId) return profile;
  return (await getProfile(profile.parentAdminId)) ?? profile;
}

/** 403 with the limit screen's own words (domain/blocking.ts), so API and app say the same. */
export function blockedError(reason: BlockReason, owner: UserProfile, thisMonthsTransfers: number): HttpError {
  const role = resolveRole({ customerRole: owner.role });
  const screen = limitScreenFor(reason, { role, thisMonthsTransfers });
  // A refused send is the spec's toast, which counts the refused send ("1 over" at 10 of 10).
  const message =
    reason === 'over_transfer_limit'
      ? overTransferLimitText({
          role,
          limit: limitsFor(role).monthlyTransfers ?? 0,
          excess: transferExcess(thisMonthsTransfers, limitsFor(role).monthlyTransfers ?? 0),
        })
      : [screen.title, ...screen.lines.slice(reason === 'storage_full' ? 1 : 0)].join(' ');
  const details =
    reason === 'storage_full'
      ? { allowance: formatBytes(limitsFor(role).storage) }
      : reason === 'over_transfer_limit'
        ? { limit: limitsFor(role).monthlyTransfers }
        : undefined;
  return new HttpError(403, reason, message, details);
}

/** Refuses a send the plan does not allow, and reserves its bytes (and monthly send) atomically. */
export async function reserveForSend(
  profile: UserProfile,
  bytes: number,
  now: number,
  opts: { countsAsSend: boolean },
): Promise<Reservation> {
  const owner = await storageOwnerOf(profile);
  const role = resolveRole({ customerRole: owner.role });
  const limits = limitsFor(role);
  const month = transferMonthKey(now);
  const sent = await monthlyTransfers(owner.userId, month);
  // the subscription's status and trial end (a stale trialing past its end blocks); lifetime codes never block
  const reason = blockReason(blockingOf({ ...owner, role }), {
    thisMonthsTransfers: opts.countsAsSend ? sent : 0,
    storageUsed: owner.storageUsed ?? 0,
    now,
  });
  // Storage and monthly sends are decided by the conditional write below, not by this read.
  if (reason && reason !== 'storage_full' && reason !== 'over_transfer_limit') throw blockedError(reason, owner, sent);
  const failure = await reserveSend(
    owner.userId,
    bytes,
    limits.storage,
    opts.countsAsSend ? { key: month, limit: limits.monthlyTransfers } : null,
  );
  if (failure) throw blockedError(failure, owner, sent);
  return { storageOwner: owner.userId, reservedBytes: bytes, ...(opts.countsAsSend ? { sendMonth: month } : {}) };
}

export interface GuestSend {
  /** the verified sender address */
  readonly email: string;
  /** the client's address (functions/lib/http.ts clientAddressOf) */
  readonly client: string;
  readonly bytes: number;
  readonly recipients: number;
}

/**
 * A guest's send: the day's allowances of the address and of the client (sends, recipients,
 * bytes), then the anon plan's storage reserved per verified address, like an account's
 * (released on cancel, abandon and purge through the transfer's `storageOwner`).
 */
export async function reserveForGuest(send: GuestSend, now: number): Promise<Reservation> {
  const day: [scope: string, subject: string, limit: number, amount: number][] = [
    ['guest-sends-address', send.email, GUEST_LIMITS.sendsPerAddress, 1],
    ['guest-sends-client', send.client, GUEST_LIMITS.sendsPerClient, 1],
    ['guest-recipients-address', send.email, GUEST_LIMITS.recipientsPerAddress, send.recipients],
    ['guest-recipients-client', send.client, GUEST_LIMITS.recipientsPerClient, send.recipients],
    ['guest-bytes-client', send.client, GUEST_LIMITS.bytesPerClient, send.bytes],
  ];
  for (const [scope, subject, limit, amount] of day) {
    if (amount === 0) continue;
    const hit = await hitRateWindow(scope, subject, limit, GUEST_DAY_SECONDS, now, amount);
    if (!hit.allowed) {
      throw new HttpError(
        429,
        'guest_daily_limit',
        "You've reached today's limit for sending without an account. Create a free account to keep sending.",
        { retryAfterSeconds: hit.retryAfterSeconds },
        { 'retry-after': String(hit.retryAfterSeconds) },
      );
    }
  }
  const owner = guestOwner(send.email);
  const storage = limitsFor('anon').storage;
  if (await reserveSend(owner, send.bytes, storage, null)) {
    throw new HttpError(
      403,
      'guest_storage_full',
      `Guests can keep up to ${formatBytes(storage)} of files at a time. Create a free account for more room, or send again when earlier transfers expire.`,
      { allowance: formatBytes(storage) },
    );
  }
  return { storageOwner: owner, reservedBytes: send.bytes };
}

/**
 * Gives a transfer's reservation back once (cancel, abandon, delete, purge): the flag on the
 * transfer makes a repeat a no-op. An unsent transfer also gives its monthly send back.
 */
export async function releaseTransfer(t: TransferRecord, opts: { unsent: boolean }): Promise<void> {
  if (!t.storageOwner || !t.reservedBytes) return;
  const out = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(t.slug),
      UpdateExpression: 'SET storageReleased = :t',
      ConditionExpression: 'attribute_not_exists(storageReleased)',
      ExpressionAttributeValues: { ':t': true },
      ReturnValues: 'ALL_NEW',
    }),
  );
  if (!out) return;
  // What is reserved when the flag is set: a thumbnail charged since `t` was read goes back too.
  const reserved = typeof out.reservedBytes === 'number' ? out.reservedBytes : t.reservedBytes;
  await releaseSend(t.storageOwner, reserved, opts.unsent ? (t.sendMonth ?? null) : null);
}

/**
 * Bytes the product stored for a sent transfer (an image's thumbnail) count as the
 * transfer's: added to its reservation and its owner's storage in one transaction, so its
 * release gives them back. False (nothing charged) once the reservation was released.
 */
export async function chargeStoredBytes(
  t: Pick<TransferRecord, 'slug' | 'storageOwner'>,
  bytes: number,
): Promise<boolean> {
  if (!t.storageOwner || bytes <= 0) return false;
  return transact([
    {
      Update: {
        TableName: table(),
        Key: keys.transfer(t.slug),
        UpdateExpression: 'ADD reservedBytes :b',
        ConditionExpression: 'storageOwner = :o AND attribute_not_exists(storageReleased)',
        ExpressionAttributeValues: { ':b': bytes, ':o': t.storageOwner },
      },
    },
    storedBytesUpdate(t.storageOwner, bytes),
  ]);
}

/** Adds bytes to a sent transfer's reservation (add-files). */
export async function reserveMore(t: TransferRecord, profile: UserProfile, bytes: number, now: number): Promise<void> {
  const r = await reserveForSend(profile, bytes, now, { countsAsSend: false });
  await ddb().update({
    TableName: table(),
    Key: keys.transfer(t.slug),
    UpdateExpression: 'SET storageOwner = :o ADD reservedBytes :b',
    ExpressionAttributeValues: { ':o': r.storageOwner, ':b': bytes },
  });
}

/** Gives back the bytes of files cancelled before they finished (add-files cancel). */
export async function releaseBytes(t: TransferRecord, bytes: number): Promise<void> {
  if (!t.storageOwner || bytes <= 0 || t.storageReleased) return;
  await ddb().update({
    TableName: table(),
    Key: keys.transfer(t.slug),
    UpdateExpression: 'ADD reservedBytes :b',
    ExpressionAttributeValues: { ':b': -bytes },
  });
  await releaseSend(t.storageOwner, bytes, null);
}
