/**
 * The Teams screen's and the invite page's calls (functions/domain/teams-api.ts). Changes are
 * not retried on 5xx: an invite whose answer was lost may still have been mailed.
 */
import type { AuthResponse } from '@domain/auth-api';
import type { InviteInfo, TeamInviteView, TeamView } from '@domain/teams-api';
import { apiFetch } from '@/lib/api';
import { authedFetch } from '@/lib/session/session';

const once = { retries: 0 } as const;

export function fetchTeam(signal?: AbortSignal): Promise<TeamView> {
  return authedFetch<TeamView>('/teams', signal ? { signal } : {});
}

export function inviteMember(email: string, lang: string): Promise<TeamInviteView> {
  return authedFetch<TeamInviteView>('/teams/invites', { method: 'POST', body: { email, lang }, ...once });
}

export function resendInvite(id: string, lang: string): Promise<TeamInviteView> {
  return authedFetch<TeamInviteView>(`/teams/invites/${encodeURIComponent(id)}/resend`, {
    method: 'POST',
    body: { lang },
    ...once,
  });
}

export function revokeInvite(id: string): Promise<{ revoked: true }> {
  return authedFetch<{ revoked: true }>(`/teams/invites/${encodeURIComponent(id)}`, { method: 'DELETE', ...once });
}

export function removeMember(id: string): Promise<{ removed: true; transfersMoved: number }> {
  return authedFetch<{ removed: true; transfersMoved: number }>(`/teams/members/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    ...once,
  });
}

/** GET /invite/{token} (public). */
export function fetchInvite(token: string, signal?: AbortSignal): Promise<InviteInfo> {
  return apiFetch<InviteInfo>(`/invite/${encodeURIComponent(token)}`, signal ? { signal } : {});
}

/** PATCH /v1/teams: joins and signs in (the refresh token arrives as a cookie). */
export function acceptInvite(body: {
  token: string;
  newMemberEmail: string;
  fullName: string;
  password: string;
  company?: string;
  lang: string;
}): Promise<AuthResponse> {
  return apiFetch<AuthResponse>('/v1/teams', { method: 'PATCH', body, ...once });
}
