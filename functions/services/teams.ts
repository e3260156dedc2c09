/**
 * Teams and sharing (contract: functions/domain/teams-api.ts). An admin (a plan with
 * seats, spec §9) invites by email; the invitee's link is single use, bound to the invited
 * address and lives 7 days; accepting creates the member's account (Cognito like sign-up) under
 * the admin: storage and plan are the admin's (services/limits.ts storageOwnerOf). Members never
 * reach these admin routes (403 team_member_forbidden). A removed member's transfers pass to
 * the admin and the account lives on as a free account of its own with no transfers.
 */
import { limitsFor, resolveRole } from '../domain/plans';
import { randomString } from '../domain/slug';
import { TEXTS } from '../domain/texts';
import {
  INVITE_VALID_DAYS,
  INVITE_VALID_MS,
  type AcceptInviteInput,
  type InviteInfo,
  type TeamInviteView,
  type TeamMemberView,
  type TeamView,
} from '../domain/teams-api';
import * as data from '../data/teams';
import { deleteUserApiKeys } from '../data/api-keys';
import { getProfile, userIdByEmail, type UserProfile } from '../data/users';
import { adminCreateUser, adminDeleteUser, adminSetPassword } from '../adapters/auth';
import { config } from '../lib/env';
import { conflict, forbidden, gone, notFound, tooManyRequests } from '../lib/errors';
import { hashToken, newToken } from '../lib/secrets';
import { errorFields, log } from '../lib/log';
import type { AuthResponse } from '../domain/auth-api';
import { imageUrl, login } from './accounts';
import { mailTeamInvite } from './mail';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A resend waits this long after the last mail, so nobody's inbox can be flooded through resends. */
export const RESEND_COOLDOWN_MS = 60_000;

const memberForbidden = () => forbidden('team_member_forbidden', "Teams are managed by your team's admin.");
const inviteGone = () =>
  gone('invite_expired', 'This invitation has expired or was already used. Ask your team admin for a new one.');
const inviteMissing = () => notFound('invite_not_found', 'This invitation does not exist.');

/** The caller as a team admin (any non-member; the plan decides the seats). */
function requireAdmin(profile: UserProfile): UserProfile {
  if (profile.isTeamMember) throw memberForbidden();
  return profile;
}

export function teamLimitOf(profile: UserProfile): number {
  return limitsFor(resolveRole({ customerRole: profile.role })).teamLimit;
}

function inviteView(i: data.InviteRecord, now: number): TeamInviteView {
  return {
    id: i.inviteId,
    email: i.email,
    state: now < i.expiresAt ? 'pending' : 'expired',
    sentAt: i.sentAt,
    expiresAt: i.expiresAt,
  };
}

async function memberView(
  p: UserProfile | undefined,
  fallback: { id: string; email: string; joinedAt?: number },
  isAdmin: boolean,
): Promise<TeamMemberView> {
  const pic = await imageUrl(p?.profilePicKey);
  return {
    shareWithId: fallback.id,
    shareWithEmail: p?.email ?? fallback.email,
    shareWithFullName: p?.fullName ?? '',
    ...(pic ? { shareWithProfilePic: pic } : {}),
    finished_onboarding: isAdmin || (p?.loginCount ?? 0) > 0,
    isAdmin,
    ...(fallback.joinedAt !== undefined ? { joinedAt: fallback.joinedAt } : {}),
  };
}

/** GET /teams: the admin sees seats, members and invites; a member sees the team's people (for sharing). */
export async function teamView(profile: UserProfile, now = Date.now()): Promise<TeamView> {
  const adminId = profile.isTeamMember && profile.parentAdminId ? profile.parentAdminId : profile.userId;
  const admin = adminId === profile.userId ? profile : await getProfile(adminId);
  if (!admin) return { role: 'none', limit: 0, used: 0, members: [], invites: [] };
  const team = await data.readTeam(adminId);
  const profiles = await Promise.all(team.members.map((m) => getProfile(m.memberId)));
  const members = await Promise.all([
    memberView(admin, { id: admin.userId, email: admin.email }, true),
    ...team.members.map((m, k) =>
      memberView(profiles[k], { id: m.memberId, email: m.email, joinedAt: m.joinedAt }, false),
    ),
  ]);
  const isAdmin = !profile.isTeamMember;
  const limit = teamLimitOf(admin);
  return {
    role: isAdmin ? (team.members.length > 0 || team.invites.length > 0 || limit > 0 ? 'admin' : 'none') : 'member',
    limit,
    used: team.used,
    members,
    invites: isAdmin ? team.invites.map((i) => inviteView(i, now)) : [],
  };
}

function inviteLink(token: string): string {
  return `${config().appOrigin}/invite/${token}`;
}

async function sendInviteMail(
  admin: UserProfile,
  email: string,
  token: string,
  lang: string | undefined,
): Promise<void> {
  const ok = await mailTeamInvite(email, lang ?? admin.lang, {
    adminName: admin.fullName || admin.email,
    adminEmail: admin.email,
    ...(admin.company ? { company: admin.company } : {}),
    link: inviteLink(token),
    validDays: INVITE_VALID_DAYS,
  });
  if (!ok) log.warn('team invite mail not sent', { adminId: admin.userId });
}

/** POST /teams/invites: a seat under the plan's size (conditional counter), then the mail. */
export async function invite(
  profile: UserProfile,
  email: string,
  lang: string | undefined,
  now = Date.now(),
): Promise<TeamInviteView> {
  const admin = requireAdmin(profile);
  const limit = teamLimitOf(admin);
  if (limit <= 0) throw forbidden('team_plan_required', 'Your plan has no team seats. Upgrade to invite team members.');
  if (email === admin.email) throw conflict('email_taken', TEXTS.emailTaken);
  // A quick, friendly answer; the transaction's own check decides under races.
  if (await userIdByEmail(email)) throw conflict('email_taken', TEXTS.emailTaken);
  const token = newToken();
  const inv: data.InviteRecord = {
    adminId: admin.userId,
    inviteId: randomString(16, ALNUM),
    email,
    tokenHash: hashToken(token),
    sentAt: now,
    expiresAt: now + INVITE_VALID_MS,
  };
  const failure = await data.createInvite(inv, limit, now);
  if (failure === 'team_full')
    throw conflict(
      'team_full',
      `Your plan includes ${limit} team member${limit === 1 ? '' : 's'}. Remove someone or upgrade to invite more.`,
    );
  if (failure === 'email_invited') throw conflict('email_invited', 'This address already has a pending invitation.');
  if (failure === 'email_taken') throw conflict('email_taken', TEXTS.emailTaken);
  await sendInviteMail(admin, email, token, lang);
  return inviteView(inv, now);
}

async function requireInvite(admin: UserProfile, inviteId: string): Promise<data.InviteRecord> {
  const inv = await data.getInvite(admin.userId, inviteId);
  if (!inv) throw inviteMissing();
  return inv;
}

/** POST /teams/invites/{id}/resend: a new link and a new week; the previous link stops working. */
export async function resendInvite(
  profile: UserProfile,
  inviteId: string,
  lang: string | undefined,
  now = Date.now(),
): Promise<TeamInviteView> {
  const admin = requireAdmin(profile);
  const inv = await requireInvite(admin, inviteId);
  const wait = inv.sentAt + RESEND_COOLDOWN_MS - now;
  if (wait > 0) throw tooManyRequests(Math.ceil(wait / 1000), 'The invitation was just sent. Try again in a minute.');
  const token = newToken();
  const next = { tokenHash: hashToken(token), sentAt: now, expiresAt: now + INVITE_VALID_MS };
  if (!(await data.rotateInvite(inv, next, now)))
    throw conflict('email_invited', 'This address has a pending invitation from another team now. Revoke this one.');
  await sendInviteMail(admin, inv.email, token, lang);
  return inviteView({ ...inv, ...next }, now);
}

/** DELETE /teams/invites/{id}. */
export async function revokeInvite(profile: UserProfile, inviteId: string): Promise<{ revoked: true }> {
  const admin = requireAdmin(profile);
  const inv = await requireInvite(admin, inviteId);
  if (!(await data.revokeInvite(inv))) throw inviteMissing();
  return { revoked: true };
}

/**
 * DELETE /teams/members/{id}: detached to a free account; its sent transfers pass to the admin.
 * Membership ends all the member's access at once: the transfers shared with them are withdrawn
 * with the membership (data/teams.ts T7) and their API keys, made under the team's permission,
 * are revoked. Reads re-check membership too (services/sharing.ts), so nothing left behind opens.
 */
export async function removeMember(
  profile: UserProfile,
  memberId: string,
): Promise<{ removed: true; transfersMoved: number }> {
  const admin = requireAdmin(profile);
  if (!(await data.getMember(admin.userId, memberId)))
    throw notFound('member_not_found', 'This person is not in your team.');
  if (!(await data.removeMember(admin.userId, memberId)))
    throw notFound('member_not_found', 'This person is not in your team.');
  const keysRevoked = await deleteUserApiKeys(memberId);
  const moved = await data.moveTransfers(memberId, admin.userId);
  // The admin now owns them: their copies in the admin's shared list would be doubles.
  await Promise.all(moved.map((slug) => data.deleteShare(slug, admin.userId)));
  log.info('team member removed', { adminId: admin.userId, memberId, transfersMoved: moved.length, keysRevoked });
  return { removed: true, transfersMoved: moved.length };
}

/** The live invite behind a link, or 404 / 410. */
async function liveInvite(token: string, now: number): Promise<{ inv: data.InviteRecord; admin: UserProfile }> {
  const found = await data.inviteByToken(hashToken(token), now);
  if (!found) throw inviteMissing();
  if (found.expiresAt <= now) throw inviteGone();
  const inv = await data.getInvite(found.adminId, found.inviteId);
  if (!inv || inv.tokenHash !== hashToken(token)) throw inviteGone();
  const admin = await getProfile(found.adminId);
  if (!admin || admin.isTeamMember) throw inviteGone();
  return { inv, admin };
}

/** GET /invite/{token}: the invited address, the admin's name and company, the state. Nothing else. */
export async function inviteInfo(token: string, now = Date.now()): Promise<InviteInfo> {
  const found = await data.inviteByToken(hashToken(token), now);
  if (!found) throw inviteMissing();
  const admin = await getProfile(found.adminId);
  const inv = await data.getInvite(found.adminId, found.inviteId);
  if (!admin || !inv || inv.tokenHash !== hashToken(token)) throw inviteGone();
  return {
    email: found.email,
    adminName: admin.fullName || admin.email,
    ...(admin.company ? { company: admin.company } : {}),
    state: now < found.expiresAt ? 'pending' : 'expired',
    expiresAt: found.expiresAt,
  };
}

/**
 * PATCH /v1/teams (spec §7): the invitee sets name and password; the Cognito user is made as at
 * sign-up, the profile joins the admin's team, and the caller is signed in like /combinedAuth.
 */
export async function acceptInvite(
  input: AcceptInviteInput,
  now = Date.now(),
): Promise<{ auth: AuthResponse; refreshToken: string }> {
  const { inv, admin } = await liveInvite(input.token, now);
  if (input.newMemberEmail !== inv.email)
    throw forbidden('invite_wrong_address', 'This invitation was sent to another address.');
  if (await userIdByEmail(inv.email)) throw conflict('email_taken', TEXTS.emailTaken);
  const created = await adminCreateUser(inv.email);
  if (created === 'exists') throw conflict('email_taken', TEXTS.emailTaken);
  try {
    await adminSetPassword(inv.email, input.password);
    const failure = await data.acceptInvite(
      inv,
      {
        userId: created,
        email: inv.email,
        fullName: input.fullName,
        ...(input.company ? { company: input.company } : admin.company ? { company: admin.company } : {}),
        role: 'free',
        status: 'active',
        isTeamMember: true,
        parentAdminId: admin.userId,
        ...(input.lang ? { lang: input.lang } : {}),
        loginCount: 0,
        storageUsed: 0,
        createdAt: now,
      },
      now,
    );
    if (failure === 'email_taken') throw conflict('email_taken', TEXTS.emailTaken);
    if (failure === 'used') throw inviteGone();
  } catch (err) {
    // No half-made account: the invite (if still there) can be accepted again.
    await adminDeleteUser(inv.email).catch((e: unknown) => log.error('invite accept rollback failed', errorFields(e)));
    throw err;
  }
  return login(inv.email, input.password, null);
}
