import { resolveRole } from '../domain/plans';
import { getSenderProfile } from '../data/users';
import { unauthorized } from '../lib/errors';
import type { JwtClaims } from '../lib/http';
import type { Sender } from './transfers';

/** The signed-in sender behind verified JWT claims: id from `sub`, role and address from the profile. */
export async function userSender(claims: JwtClaims | undefined): Promise<Extract<Sender, { kind: 'user' }>> {
  const sub = typeof claims?.sub === 'string' ? claims.sub : undefined;
  if (!sub) throw unauthorized();
  const profile = await getSenderProfile(sub);
  // Cognito usernames are email addresses in this pool (email is the username, architecture §1).
  const claimEmail = [claims?.email, claims?.username].find((v): v is string => typeof v === 'string' && v.includes('@'));
  const email = profile?.email ?? claimEmail;
  if (!email) throw unauthorized('profile_missing', 'Your account has no email address yet.');
  return {
    kind: 'user',
    userId: sub,
    email: email.toLowerCase(),
    role: resolveRole({ customerRole: profile?.role }),
    ...(profile?.fullName ? { name: profile.fullName } : {}),
  };
}
