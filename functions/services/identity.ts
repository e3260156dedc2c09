import { resolveRole } from '../domain/plans';
import { getProfile } from '../data/users';
import { unauthorized } from '../lib/errors';
import type { JwtClaims } from '../lib/jwt-claims';
import type { Sender } from './transfers';

/** The signed-in sender behind verified JWT claims: id from `sub`, role and address from the profile. */
export async function userSender(claims: JwtClaims | undefined): Promise<Extract<Sender, { kind: 'user' }>> {
  const sub = typeof claims?.sub === 'string' ? claims.sub : undefined;
  if (!sub) throw unauthorized();
  const profile = await getProfile(sub);
  // Every account gets its profile at sign-up (services/accounts.ts); a token without one is stale.
  if (!profile) throw unauthorized('profile_missing', 'Your account could not be found. Please log in again.');
  return {
    kind: 'user',
    userId: sub,
    email: profile.email,
    role: resolveRole({ customerRole: profile.role }),
    ...(profile.fullName ? { name: profile.fullName } : {}),
    profile,
  };
}
