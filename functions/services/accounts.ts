/**
 * Accounts and sessions (spec §4 Registration, Login modes; architecture §6): our own 5-digit
 * codes and reset links, Cognito for passwords and tokens, the refresh token only in an
 * httpOnly cookie. No answer tells whether an address has an account, except the spec's 409
 * at registration step 1.
 */
import { randomUUID } from 'node:crypto';
import { limitsFor, resolveRole } from '../domain/plans';
import { storageState } from '../domain/storage';
import { blockReason, transferMonthKey } from '../domain/blocking';
import { blockingOf, isSumoOf } from '../domain/billing';
import { TEXTS } from '../domain/texts';
import { IMAGE_URL_EXPIRES_SECONDS } from '../domain/upload';
import { brandImageUrl } from './branding';
import {
  REFRESH_COOKIE,
  type AuthResponse,
  type RegistrationProof,
  type RegistrationStart,
  type SessionUser,
  type SignupInput,
} from '../domain/auth-api';
import { consumeProofToken, getProofToken, putProofToken } from '../data/verification';
import {
  countLogin,
  createProfile,
  getProfile,
  monthlyTransfers,
  userIdByEmail,
  type UserProfile,
} from '../data/users';
import {
  AuthFailedError,
  adminCreateUser,
  adminDeleteUser,
  adminSetPassword,
  passwordAuth,
  type CognitoTokens,
} from '../adapters/auth';
import { accessExpiresAt, endSession, rotateSession, startSession } from './accounts-sessions';
import * as storage from '../adapters/storage';
import { config } from '../lib/env';
import { HttpError, conflict, forbidden, gone, unauthorized } from '../lib/errors';
import { hashToken, newToken } from '../lib/secrets';
import { errorFields, log } from '../lib/log';
import { checkEmailCode, limitRate, sendEmailCode } from './email-codes';
import { assertMayTry, recordFailure, recordSuccess, type FailurePolicy } from './failure-throttle';
import { storageOwnerOf } from './limits';
import { mailPasswordReset } from './mail';
import { DEFAULT_REQUEST_SETTINGS } from '../domain/requests-api';
import { transferSettingsOf } from './settings';
import { uploadRegionFor } from './storage-region';
import { hasLiveInvite } from '../data/teams';
import { getMembersAllowed } from '../data/webhooks';
import { teamAllowsApiKeys } from '../data/api-keys';

/** an address waiting on a team invite joins through the invite, not by registering. */
const EMAIL_INVITED =
  'This email has been taken: it has a pending team invitation. Accept it from the invitation email.';

const HOUR = 3_600_000;
export const REGISTRATION_TOKEN_HOURS = 24;
export const RESET_LINK_MINUTES = 60;
const REFRESH_COOKIE_MAX_AGE = 30 * 24 * 3600;

/** Sign-in attempts of one client over every address (credential stuffing). */
const LOGIN_PER_IP = { limit: 50, windowSeconds: 900 };
/**
 * Wrong passwords: per (address, client), five free, then 1, 2, 4 … minutes up to an hour; 100
 * an hour on one address from every client together, past which only clients without failures
 * may try. Nobody can lock an account out by guessing wrong on it (finding 3).
 */
export const LOGIN_FAILURES: FailurePolicy = {
  scope: 'login',
  freeFailures: 5,
  firstDelaySeconds: 60,
  maxDelaySeconds: 3600,
  ceiling: { limit: 100, windowSeconds: 3600 },
};
const LOGIN_WAIT = 'Too many sign-in attempts. Try again in {minutes} minutes.';
const RESET_PER_ADDRESS = { limit: 3, windowSeconds: 3600 };
const RESET_PER_IP = { limit: 20, windowSeconds: 3600 };

// ---- cookies ---------------------------------------------------------------------------------

/** httpOnly, Secure, SameSite=Strict, scoped to the API (architecture §6). */
export function refreshCookie(token: string): string {
  return `${REFRESH_COOKIE}=${token}; HttpOnly; Secure; SameSite=Strict; Path=/api; Max-Age=${REFRESH_COOKIE_MAX_AGE}`;
}

export function clearedRefreshCookie(): string {
  return `${REFRESH_COOKIE}=; HttpOnly; Secure; SameSite=Strict; Path=/api; Max-Age=0`;
}

export function refreshTokenFrom(cookies: readonly string[] | undefined): string | undefined {
  for (const c of cookies ?? []) {
    const eq = c.indexOf('=');
    if (eq > 0 && c.slice(0, eq).trim() === REFRESH_COOKIE) {
      const value = c.slice(eq + 1).trim();
      return value || undefined;
    }
  }
  return undefined;
}

// ---- the signed-in user ------------------------------------------------------------------------

export async function imageUrl(key: string | undefined): Promise<string | undefined> {
  if (!key) return undefined;
  const region = config().defaultRegion;
  return storage.presignDownloadInline({ regionId: region, anon: false, key }, IMAGE_URL_EXPIRES_SECONDS);
}

export async function sessionUser(profile: UserProfile, now = Date.now()): Promise<SessionUser> {
  const owner = await storageOwnerOf(profile);
  const role = resolveRole({ customerRole: owner.role });
  const limits = limitsFor(role);
  const thisMonthsTransfers = await monthlyTransfers(owner.userId, transferMonthKey(now));
  const storageUsed = Math.max(0, owner.storageUsed ?? 0);
  const isMember = profile.isTeamMember === true && owner.userId !== profile.userId;
  // the logo shown is the storage owner's (a team member's nav shows the admin's), by its checked type.
  const [profilePic, logoPic, adminPic, webhooksAllowed, apiKeysAllowed] = await Promise.all([
    imageUrl(profile.profilePicKey),
    brandImageUrl(owner.logoPicKey).then((u) => u ?? undefined),
    isMember ? imageUrl(owner.profilePicKey) : undefined,
    // a member's account menu shows Webhooks only once their admin allowed it
    isMember ? getMembersAllowed(owner.userId) : true,
    // the account menu shows API keys to a member only once the admin allowed them
    isMember ? teamAllowsApiKeys(owner.userId) : undefined,
  ]);
  return {
    _id: profile.userId,
    email: profile.email,
    fullName: profile.fullName ?? '',
    ...(profile.greetingName ? { greetingName: profile.greetingName } : {}),
    ...(profile.company ? { company: profile.company } : {}),
    ...(profilePic ? { profilePic } : {}),
    ...(logoPic ? { logoPic } : {}),
    showLogoNav: owner.showLogoNav === true,
    role,
    ...(profile.chosenRole ? { chosenRole: profile.chosenRole } : {}),
    status: profile.status ?? 'active',
    isTeamMember: isMember,
    // spec §3 User.parentAdmin (members only)
    ...(isMember
      ? {
          parentAdmin: {
            parentAdminID: owner.userId,
            parentEmail: owner.email,
            parentAdminFullName: owner.fullName ?? '',
            ...(adminPic ? { parentAdminProfilePic: adminPic } : {}),
          },
        }
      : {}),
    ...(apiKeysAllowed !== undefined ? { apiKeysAllowed } : {}),
    loginCount: profile.loginCount ?? 0,
    ...(profile.createdAt !== undefined ? { createdAt: profile.createdAt } : {}),
    storageUsed,
    storageLimit: limits.storage,
    storageState: storageState(storageUsed, limits.storage),
    thisMonthsTransfers,
    monthlyTransferLimit: limits.monthlyTransfers,
    blocked: blockReason(blockingOf({ ...owner, role }), { thisMonthsTransfers, storageUsed, now }),
    // spec §3 User.stripeId and isSumo (code1..code8)
    ...(profile.stripeId ? { stripeId: profile.stripeId } : {}),
    isSumo: isSumoOf(profile.sumoCodes ?? 0),
    transferSettings: transferSettingsOf(profile),
    requestSettings: { ...DEFAULT_REQUEST_SETTINGS, ...profile.requestSettings },
    region: uploadRegionFor(profile, role),
    // links use the custom domain only once it is verified
    customDomainOption: profile.customDomainOption ?? 'standard',
    webhooksAllowed,
  };
}

export async function requireProfile(userId: string): Promise<UserProfile> {
  const profile = await getProfile(userId);
  if (!profile) throw unauthorized('profile_missing', 'Your account could not be found. Please log in again.');
  return profile;
}

async function authResponse(t: CognitoTokens, profile?: UserProfile): Promise<AuthResponse> {
  const p = profile ?? (await requireProfile(t.sub));
  return { accessToken: t.accessToken, expiresAt: accessExpiresAt(t), user: await sessionUser(p) };
}

// ---- registration ----------------------------------------------------------------------------

/** Step 1: 409 if taken; a still-valid proof for this address skips to step 3; else a code is mailed. */
export async function startRegistration(
  email: string,
  proof: string | undefined,
  lang: string | undefined,
  sourceIp: string,
): Promise<RegistrationStart> {
  if (await userIdByEmail(email)) throw conflict('email_taken', TEXTS.emailTaken);
  if (await hasLiveInvite(email)) throw conflict('email_invited', EMAIL_INVITED);
  if (proof && /^[A-Za-z0-9_-]{43}$/u.test(proof)) {
    const proven = await getProofToken('signup', hashToken(proof));
    if (proven?.email === email) return { verified: true, registrationToken: proof };
  }
  await sendEmailCode('signup', email, lang, sourceIp);
  return { verified: false };
}

/** Step 2: a right code proves the address for 24 hours. */
export async function checkRegistrationCode(
  email: string,
  code: string,
  client: string,
  now = Date.now(),
): Promise<RegistrationProof> {
  await checkEmailCode('signup', email, code, client, now);
  const registrationToken = newToken();
  await putProofToken('signup', hashToken(registrationToken), { email }, now + REGISTRATION_TOKEN_HOURS * HOUR, now);
  return { registrationToken, email };
}

/**
 * Step 3: the Cognito user (no Cognito mail, email verified, our password) and the profile.
 * A paid plan starts as free with status unpaid and the chosen plan kept for checkout.
 */
export async function signup(
  input: SignupInput & { email: string },
  now = Date.now(),
): Promise<{ auth: AuthResponse; refreshToken: string }> {
  const proof = await getProofToken('signup', hashToken(input.registrationToken), now);
  if (!proof || proof.email !== input.email) throw forbidden('registration_expired', 'Please verify your email again.');
  if (await userIdByEmail(input.email)) throw conflict('email_taken', TEXTS.emailTaken);
  if (await hasLiveInvite(input.email, now)) throw conflict('email_invited', EMAIL_INVITED);
  const created = await adminCreateUser(input.email);
  if (created === 'exists') throw conflict('email_taken', TEXTS.emailTaken);
  const chosen = input.role ?? 'free';
  try {
    await adminSetPassword(input.email, input.password);
    const ok = await createProfile({
      userId: created,
      email: input.email,
      fullName: input.fullName.trim(),
      ...(input.company ? { company: input.company.trim() } : {}),
      role: 'free',
      ...(chosen !== 'free' ? { chosenRole: chosen } : {}),
      ...(input.period ? { period: input.period } : {}),
      status: 'unpaid',
      ...(input.lang ? { lang: input.lang } : {}),
      ...(input.referrer ? { referrer: input.referrer } : {}),
      ...(input.fingerprint
        ? {
            fingerprint: Object.fromEntries(
              Object.entries(input.fingerprint).filter(([, v]) => typeof v === 'string'),
            ) as Record<string, string>,
          }
        : {}),
      loginCount: 0,
      storageUsed: 0,
      createdAt: now,
    });
    if (!ok) throw conflict('email_taken', TEXTS.emailTaken);
  } catch (err) {
    // Leave no half-made account behind: the address can register again.
    await adminDeleteUser(input.email).catch((e: unknown) => log.error('signup rollback failed', errorFields(e)));
    throw err;
  }
  await consumeProofToken('signup', hashToken(input.registrationToken));
  // Right after sign-up the password was just set by us: no rate limit applies.
  return login(input.email, input.password, null);
}

// ---- sessions --------------------------------------------------------------------------------

/**
 * POST /combinedAuth. Every failure is the spec's 'Auth Failed'. Starts a session family
 * (services/accounts-sessions.ts): `refreshToken` is the refresh cookie's value.
 */
export async function login(
  email: string,
  password: string,
  sourceIp: string | null,
): Promise<{ auth: AuthResponse; refreshToken: string }> {
  let failures = 0;
  if (sourceIp !== null) {
    await limitRate([['login-ip', sourceIp, LOGIN_PER_IP]], LOGIN_WAIT);
    failures = await assertMayTry(LOGIN_FAILURES, email, sourceIp, LOGIN_WAIT);
  }
  let t: CognitoTokens;
  try {
    t = await passwordAuth(email, password);
  } catch (err) {
    if (err instanceof AuthFailedError) {
      if (sourceIp !== null) await recordFailure(LOGIN_FAILURES, email, sourceIp);
      throw unauthorized('auth_failed', TEXTS.authFailed);
    }
    throw err;
  }
  if (sourceIp !== null && failures > 0) await recordSuccess(LOGIN_FAILURES, email, sourceIp);
  if (!t.refreshToken) throw new HttpError(502, 'auth_unavailable', 'Sign-in is unavailable right now.');
  const profile = await requireProfile(t.sub);
  const loginCount = await countLogin(profile.userId);
  const refreshToken = await startSession(t);
  return { auth: await authResponse(t, { ...profile, loginCount }), refreshToken };
}

/**
 * GET /refreshToken: a new access token and a rotated cookie; 401 when the cookie is missing,
 * expired or of an ended family (an old cookie presented again ends its family).
 */
export async function refreshSession(
  cookie: string | undefined,
): Promise<{ auth: AuthResponse; refreshToken: string }> {
  const { tokens, cookie: next } = await rotateSession(cookie);
  return { auth: await authResponse(tokens), refreshToken: next };
}

/** GET /logout: ends the cookie's session family, its access tokens and its Cognito refresh token. */
export async function logout(cookie: string | undefined): Promise<void> {
  await endSession(cookie);
}

// ---- password reset --------------------------------------------------------------------------

/** Always the same answer; a link is mailed only when the address has an account. */
export async function sendResetLink(
  email: string,
  lang: string | undefined,
  sourceIp: string,
  now = Date.now(),
): Promise<{ message: string }> {
  await limitRate(
    [
      ['reset-address', email, RESET_PER_ADDRESS],
      ['reset-ip', sourceIp, RESET_PER_IP],
    ],
    'Too many reset requests. Try again in {minutes} minutes.',
    now,
  );
  const userId = await userIdByEmail(email);
  if (userId) {
    const token = newToken();
    await putProofToken('reset', hashToken(token), { email, userId }, now + RESET_LINK_MINUTES * 60_000, now);
    await mailPasswordReset(email, `${config().appOrigin}/updatepassword?t=${token}`, RESET_LINK_MINUTES, lang);
  }
  return { message: TEXTS.resetLinkSent };
}

export async function checkResetToken(token: string): Promise<void> {
  if (!(await getProofToken('reset', hashToken(token))))
    throw gone('reset_expired', 'This reset link has expired or was already used.');
}

/** Sets the password and consumes the link (single use). */
export async function resetPassword(token: string, password: string): Promise<void> {
  const hash = hashToken(token);
  const found = await getProofToken('reset', hash);
  if (!found) throw gone('reset_expired', 'This reset link has expired or was already used.');
  if (!(await consumeProofToken('reset', hash)))
    throw gone('reset_expired', 'This reset link has expired or was already used.');
  await adminSetPassword(found.email, password);
}

export function feedbackId(): string {
  return randomUUID();
}
