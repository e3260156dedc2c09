/**
 * Sharing a transfer with team mates (spec §3 Team member option, shareWith): kept
 * apart from services/teams.ts so the transfers and dashboard functions bundle no Cognito or
 * mail code. Shares are items per team mate (data/teams.ts pattern T8), listed by a Query.
 */
import * as data from '../data/teams';
import * as transfers from '../data/transfers';
import type { TransferRecord } from '../data/transfers';
import type { UserProfile } from '../data/users';
import { forbidden, notFound } from '../lib/errors';

/**
 * The team mates a user may share a transfer with (spec §3 Team member option): everyone in
 * the sender's team but the sender. Empty outside a team.
 */
export async function teamMateIds(profile: UserProfile): Promise<Set<string>> {
  const adminId = profile.isTeamMember && profile.parentAdminId ? profile.parentAdminId : profile.userId;
  const team = await data.readTeam(adminId);
  const ids = new Set([adminId, ...team.members.map((m) => m.memberId)]);
  ids.delete(profile.userId);
  return ids;
}

/**
 * The team a signed-in send belongs to: the admin whose storage it uses (a member's send uses
 * the admin's; an admin's or a lone user's, their own). None for guests' sends and request uploads.
 */
export function teamOfTransfer(t: Pick<TransferRecord, 'senderId' | 'storageOwner' | 'requestId'>): string | undefined {
  if (t.senderId === undefined || t.requestId) return undefined;
  return t.storageOwner && !t.storageOwner.includes(':') ? t.storageOwner : t.senderId;
}

/**
 * The team whose shares a user may read now: the admin's while the member item exists (the
 * profile alone is not trusted for this), their own otherwise; none for a member of a team
 * whose membership is gone.
 */
export async function currentTeamOf(
  profile: Pick<UserProfile, 'userId' | 'isTeamMember' | 'parentAdminId'>,
): Promise<string | undefined> {
  if (!profile.isTeamMember || !profile.parentAdminId) return profile.userId;
  return (await data.isOnTeam(profile.parentAdminId, profile.userId)) ? profile.parentAdminId : undefined;
}

/** Who sees a sent transfer under 'shared': the chosen team mates, and the admin for a member's send. */
export async function shareOnSend(
  t: {
    slug: string;
    createdAt: number;
    senderId?: string;
    shareWith: readonly string[];
    storageOwner?: string;
    requestId?: string;
  },
  now = Date.now(),
): Promise<void> {
  const team = teamOfTransfer(t);
  if (!t.senderId || team === undefined) return;
  const ids = new Set(t.shareWith);
  // A member's sends use the admin's storage: the admin sees and manages them (docs/decisions/).
  if (team !== t.senderId) ids.add(team);
  ids.delete(t.senderId);
  if (ids.size > 0) await data.putShares(t, team, [...ids], now);
}

/**
 * Who may manage a transfer: its sender, and the team admin for a member's send (the storage
 * owner of a signed-in send that is not the sender; never a file request's requester).
 */
export function managesTransfer(
  t: Pick<TransferRecord, 'senderId' | 'storageOwner' | 'requestId'>,
  userId: string,
): boolean {
  if (t.senderId === userId) return true;
  return t.senderId !== undefined && !t.requestId && t.storageOwner === userId;
}

/**
 * managesTransfer, with the membership read now: a member's send in the admin's storage is
 * the member's only while they are on that team (removal hands it to the admin; a move that
 * did not finish must not leave it with the former member).
 */
export async function managesNow(
  t: Pick<TransferRecord, 'senderId' | 'storageOwner' | 'requestId'>,
  userId: string,
): Promise<boolean> {
  if (!managesTransfer(t, userId)) return false;
  const team = teamOfTransfer(t);
  return team === undefined || team === userId || data.isOnTeam(team, userId);
}

/** A share opens a transfer only while its reader is on the transfer's team (a share item alone proves nothing). */
async function sharedNow(t: TransferRecord, userId: string): Promise<boolean> {
  const team = teamOfTransfer(t);
  if (team === undefined) return false;
  const [shared, onTeam] = await Promise.all([data.isSharedWith(t.slug, userId), data.isOnTeam(team, userId)]);
  return shared && onTeam;
}

/**
 * Read access for the TransferModal and its previews: a manager, or a team mate it was shared
 * with who is still on the team. Anyone else, a former member included, gets the outsider's 403.
 */
export async function requireReader(slug: string, userId: string): Promise<{ t: TransferRecord; manages: boolean }> {
  const t = await transfers.getTransfer(slug);
  if (!t || t.status === 'deleted' || t.status === 'cancelled')
    throw notFound('transfer_not_found', 'This transfer does not exist.');
  if (await managesNow(t, userId)) return { t, manages: true };
  if (await sharedNow(t, userId)) return { t, manages: false };
  throw forbidden('not_owner', 'Only the sender can change this transfer.');
}
