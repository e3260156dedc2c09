/**
 * Teams and sharing (spec §2 /dash/account/teams, /invite/{id}, /accept-invite;
 * §3 User.isTeamMember / parentAdmin, Team member option; §7 PATCH /v1/teams; §9 team sizes).
 * The contract between the API, the Teams screen, the invite page and the quick send's
 * Sharing tab. Paths are relative to /api.
 *
 *   GET    /teams                        the admin's members, pending invites, seats  -> 200 TeamView
 *                                        (a member: 200 TeamView of the team, `role: 'member'`, read only)
 *   POST   /teams/invites                { email, lang? }  seat taken, mail sent      -> 201 TeamInviteView
 *   POST   /teams/invites/{id}/resend    new link (the old one stops working)         -> 200 TeamInviteView
 *   DELETE /teams/invites/{id}           seat freed, link stops working               -> 200 { revoked: true }
 *   DELETE /teams/members/{id}           member detached, transfers stay with admin   -> 200 { removed: true, transfersMoved }
 *   GET    /invite/{token}               what the invite page shows (public)          -> 200 InviteInfo | 404 | 410
 *   PATCH  /v1/teams                     { token, newMemberEmail, fullName, password, company? } -> 201 AuthResponse
 *
 * Error codes: 403 team_member_forbidden (members on admin routes), 403 team_plan_required
 * (plan without seats), 409 team_full, 409 email_taken (the address has an account),
 * 409 email_invited (pending invite elsewhere / already invited), 404 invite_not_found,
 * 410 invite_expired, 403 invite_wrong_address, 404 member_not_found, 400 share_not_team.
 */
import * as z from 'zod/mini';
import { emailSchema, signupPasswordSchema } from './validation';

/** How long an invite link works (a resend makes a new link with a new week). */
export const INVITE_VALID_DAYS = 7;
export const INVITE_VALID_MS = INVITE_VALID_DAYS * 24 * 3600 * 1000;

/** The invite link's secret: 32 random bytes, base64url (the table keeps only its SHA-256). */
export const INVITE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/u;
/** The admin's handle on a pending invite (resend / revoke): 16 letters or digits. */
export const INVITE_ID_PATTERN = /^[A-Za-z0-9]{16}$/u;
/** Cognito `sub`s are UUIDs. */
export const MEMBER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

export const inviteTokenSchema = z.string().check(z.regex(INVITE_TOKEN_PATTERN, 'invalid_token'));
export const inviteTokenParamsSchema = z.object({ id: inviteTokenSchema });
export const inviteIdParamsSchema = z.object({ id: z.string().check(z.regex(INVITE_ID_PATTERN, 'invalid_link')) });
export const memberIdParamsSchema = z.object({ id: z.string().check(z.regex(MEMBER_ID_PATTERN, 'invalid_link')) });

export const createInviteSchema = z.object({
  email: emailSchema,
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export const resendInviteSchema = z.object({ lang: z.optional(z.string().check(z.maxLength(16))) });

/** spec §7 PATCH /v1/teams: the invitee sets name and password; `token` is the `/invite/{token}` part. */
export const acceptInviteSchema = z.object({
  token: inviteTokenSchema,
  newMemberEmail: emailSchema,
  fullName: z.string().check(z.trim(), z.minLength(1, 'name_required'), z.maxLength(200)),
  password: signupPasswordSchema,
  company: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export type AcceptInviteInput = z.output<typeof acceptInviteSchema>;

export type InviteState = 'pending' | 'expired';

export interface TeamInviteView {
  readonly id: string;
  readonly email: string;
  readonly state: InviteState;
  /** epoch ms */
  readonly sentAt: number;
  readonly expiresAt: number;
}

/** spec §3 Team member option (shareWithId, shareWithEmail, shareWithFullName, shareWithProfilePic) plus the admin's view. */
export interface TeamMemberView {
  readonly shareWithId: string;
  readonly shareWithEmail: string;
  readonly shareWithFullName: string;
  readonly shareWithProfilePic?: string;
  /** spec: finished_onboarding (signed in at least once after accepting) */
  readonly finished_onboarding: boolean;
  readonly isAdmin: boolean;
  readonly joinedAt?: number;
}

export interface TeamView {
  readonly role: 'admin' | 'member' | 'none';
  /** seats of the admin's plan (spec §9 teamLimit; the admin is not counted) */
  readonly limit: number;
  /** members plus pending invites */
  readonly used: number;
  /** everyone in the team, the admin first (the Sharing tab leaves out the caller) */
  readonly members: readonly TeamMemberView[];
  /** only for the admin */
  readonly invites: readonly TeamInviteView[];
}

/** GET /invite/{token}: enough for the page, nothing else (no ids, no other members). */
export interface InviteInfo {
  readonly email: string;
  readonly adminName: string;
  readonly company?: string;
  readonly state: InviteState;
  readonly expiresAt: number;
}

/** spec §3 User.parentAdmin as the app receives it (members only). */
export interface ParentAdmin {
  readonly parentAdminID: string;
  readonly parentEmail: string;
  readonly parentAdminFullName: string;
  readonly parentAdminProfilePic?: string;
}
