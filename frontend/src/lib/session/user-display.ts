import type { SessionUser } from '@domain/auth-api';

/** Avatar letters when there is no picture: first and last name initials, else the email's first letter. */
export function initialsOf(user: Pick<SessionUser, 'fullName' | 'email'>): string {
  const words = (user.fullName ?? '').trim().split(/\s+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0] ?? '', words[words.length - 1] ?? ''] : words;
  const initials = letters.map((w) => Array.from(w)[0] ?? '').join('');
  return (initials || Array.from(user.email)[0] || '?').toLocaleUpperCase();
}

/**
 * Account menu entries of spec §2; Domain, Teams and Billing are hidden from team members.
 * Webhooks and API keys too, unless the member's admin allowed them
 * (SessionUser.webhooksAllowed, SessionUser.apiKeysAllowed).
 */
export type AccountMenuItem = 'profile' | 'domain' | 'teams' | 'billing' | 'customize' | 'webhooks' | 'apiKeys';

export function accountMenuItems(
  user: Pick<SessionUser, 'isTeamMember' | 'webhooksAllowed' | 'apiKeysAllowed'>,
): AccountMenuItem[] {
  if (!user.isTeamMember) return ['profile', 'domain', 'teams', 'billing', 'customize', 'webhooks', 'apiKeys'];
  return [
    'profile',
    'customize',
    ...(user.webhooksAllowed === true ? (['webhooks'] as const) : []),
    ...(user.apiKeysAllowed === true ? (['apiKeys'] as const) : []),
  ];
}
