import type { SessionUser } from '@domain/auth-api';

/** Avatar letters when there is no picture: first and last name initials, else the email's first letter. */
export function initialsOf(user: Pick<SessionUser, 'fullName' | 'email'>): string {
  const words = (user.fullName ?? '').trim().split(/\s+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0] ?? '', words[words.length - 1] ?? ''] : words;
  const initials = letters.map((w) => Array.from(w)[0] ?? '').join('');
  return (initials || Array.from(user.email)[0] || '?').toLocaleUpperCase();
}

/**
 * Account menu entries of spec §2; Domain, Teams and Billing are hidden from team members, and
 * API keys (issue 17) too unless their admin allows members to use keys.
 */
export type AccountMenuItem = 'profile' | 'domain' | 'teams' | 'billing' | 'customize' | 'apiKeys';

export function accountMenuItems(user: Pick<SessionUser, 'isTeamMember' | 'apiKeysAllowed'>): AccountMenuItem[] {
  const keys: AccountMenuItem[] = !user.isTeamMember || user.apiKeysAllowed ? ['apiKeys'] : [];
  return [...(user.isTeamMember ? ['profile', 'customize'] : ['profile', 'domain', 'teams', 'billing', 'customize']), ...keys] as AccountMenuItem[];
}
