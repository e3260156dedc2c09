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
  if (user.isTeamMember) return user.apiKeysAllowed === true ? ['profile', 'customize', 'apiKeys'] : ['profile', 'customize'];
  return ['profile', 'domain', 'teams', 'billing', 'customize', 'apiKeys'];
}

/** Whether the user may open the API keys screen (the API refuses the others alike). */
export function mayUseApiKeys(user: Pick<SessionUser, 'isTeamMember' | 'apiKeysAllowed'>): boolean {
  return accountMenuItems(user).includes('apiKeys');
}
