/**
 * Session families (docs/decisions/, "Sessions: rotating refresh cookies and revocable
 * access tokens"). A sign-in starts a family; its refresh cookie is
 * `s1.<session id>.<secret>.<key>`, and the family keeps the Cognito refresh token sealed with
 * that key: the cookie alone cannot be taken to Cognito directly (past our rotation), and the
 * table alone holds no usable token. Every refresh checks the secret against the family's and
 * hands out a new one (conditional write on the generation it read); an old secret presented
 * again means the cookie was copied, so the whole family ends. Ending a family (that, or
 * logout) revokes the Cognito refresh token and writes a marker for each access token the
 * family issued, which the per-request check below consults.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { hashToken, newToken, safeEqual } from '../lib/secrets';
import { unauthorized } from '../lib/errors';
import { errorFields, log } from '../lib/log';
import type { JwtClaims } from '../lib/jwt-claims';
import { AuthFailedError, refreshAuth, revokeRefreshToken, type CognitoTokens } from '../adapters/auth';
import {
  createSession,
  getSession,
  isAccessTokenRevoked,
  liveTokens,
  putRevokedTokens,
  revokeSession,
  rotateSession as rotateRecord,
  type IssuedToken,
  type RevokeReason,
} from '../data/sessions';

/** Access tokens live this long (the CDK app client and the local pool say the same; enforced here too). */
export const ACCESS_TOKEN_MAX_AGE_SECONDS = 15 * 60;
/** Tolerated difference between Cognito's clock and ours when checking `iat`. */
const CLOCK_SKEW_SECONDS = 30;
/** A family ends with its Cognito refresh token (the app client's refreshTokenValidity). */
export const SESSION_DAYS = 30;
/** A "not revoked" answer is reused this long per container: the price is that a logout reaches a warm container up to this late. */
export const REVOCATION_CACHE_MS = 5_000;
const REVOCATION_CACHE_SIZE = 1_000;

const COOKIE_VERSION = 's1';
const COOKIE_RE = /^s1\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/u;

export interface SessionCookie {
  readonly sessionId: string;
  /** rotates with every renewal */
  readonly secret: string;
  /** fixed for the family: opens its sealed Cognito refresh token */
  readonly key: string;
}

export function sessionCookieValue(c: SessionCookie): string {
  return `${COOKIE_VERSION}.${c.sessionId}.${c.secret}.${c.key}`;
}

/** undefined for anything else, including a bare Cognito token from before session families. */
export function parseSessionCookie(value: string | undefined): SessionCookie | undefined {
  const m = COOKIE_RE.exec(value ?? '');
  return m ? { sessionId: m[1]!, secret: m[2]!, key: m[3]! } : undefined;
}

/** AES-256-GCM, bound to the family's id: `<iv>.<tag>.<ciphertext>`, base64url. */
export function sealCognitoToken(token: string, c: Pick<SessionCookie, 'sessionId' | 'key'>): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(c.key, 'base64url'), iv);
  cipher.setAAD(Buffer.from(c.sessionId));
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** undefined when the key is not the family's (a forged cookie). */
export function openCognitoToken(sealed: string, c: Pick<SessionCookie, 'sessionId' | 'key'>): string | undefined {
  const [iv = '', tag = '', body = ''] = sealed.split('.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(c.key, 'base64url'), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(c.sessionId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** When the client should consider the access token gone: Cognito's exp, capped by our own maximum age. */
export function accessExpiresAt(t: Pick<CognitoTokens, 'expiresAt' | 'iat'>): number {
  return Math.min(t.expiresAt, (t.iat + ACCESS_TOKEN_MAX_AGE_SECONDS) * 1000);
}

const issued = (t: CognitoTokens): IssuedToken => ({ jti: t.jti, exp: Math.floor(t.expiresAt / 1000) });

const sessionExpired = () => unauthorized('session_expired', 'Please log in again.');
const sessionRevoked = () => unauthorized('session_revoked', 'This session has ended. Please log in again.');

/** A new family for a fresh sign-in; answers the refresh cookie's value. */
export async function startSession(t: CognitoTokens, now = Date.now()): Promise<string> {
  if (!t.refreshToken) throw new Error('sign-in answered no refresh token');
  const cookie = { sessionId: newToken(), secret: newToken(), key: newToken() };
  await createSession({
    sessionId: cookie.sessionId,
    userId: t.sub,
    generation: 0,
    secretHash: hashToken(cookie.secret),
    cognitoSealed: sealCognitoToken(t.refreshToken, cookie),
    createdAt: now,
    rotatedAt: now,
    expiresAt: now + SESSION_DAYS * 86_400_000,
    tokens: [issued(t)],
  });
  return sessionCookieValue(cookie);
}

/**
 * GET /refreshToken: a new access token and a new cookie secret. A wrong secret for a real
 * family (an old cookie replayed, or the loser of two refreshes with one cookie) ends the family.
 */
export async function rotateSession(
  value: string | undefined,
  now = Date.now(),
): Promise<{ tokens: CognitoTokens; cookie: string }> {
  if (!value) throw unauthorized('no_session', 'Please log in.');
  const cookie = parseSessionCookie(value);
  if (!cookie) throw sessionExpired();
  const family = await getSession(cookie.sessionId, now);
  const cognitoRefresh = family && openCognitoToken(family.cognitoSealed, cookie);
  if (!family || !cognitoRefresh) throw sessionExpired();
  if (family.revokedAt !== undefined) throw sessionRevoked();
  if (!safeEqual(family.secretHash, hashToken(cookie.secret))) {
    await endFamily(cookie.sessionId, cognitoRefresh, 'reuse', [], now);
    throw sessionRevoked();
  }
  let tokens: CognitoTokens;
  try {
    tokens = await refreshAuth(cognitoRefresh);
  } catch (err) {
    if (err instanceof AuthFailedError) throw sessionExpired();
    throw err;
  }
  const secret = newToken();
  const rotated = await rotateRecord(
    family,
    { secretHash: hashToken(secret), tokens: liveTokens([...family.tokens, issued(tokens)], now) },
    now,
  );
  if (!rotated) {
    // Another refresh with this same cookie got there first: one of the two is a copy.
    await endFamily(cookie.sessionId, cognitoRefresh, 'reuse', [issued(tokens)], now);
    throw sessionRevoked();
  }
  return { tokens, cookie: sessionCookieValue({ ...cookie, secret }) };
}

/** GET /logout: ends the cookie's family (any secret of it: an old one is reuse anyway). */
export async function endSession(value: string | undefined, now = Date.now()): Promise<void> {
  const cookie = parseSessionCookie(value);
  if (!cookie) {
    // A cookie from before session families held the Cognito refresh token itself: end that.
    if (value && value.length > 100 && !value.startsWith(`${COOKIE_VERSION}.`))
      await revokeRefreshToken(value).catch((err: unknown) => log.warn('revoke failed', errorFields(err)));
    return;
  }
  const family = await getSession(cookie.sessionId, now);
  const cognitoRefresh = family && openCognitoToken(family.cognitoSealed, cookie);
  if (!family || !cognitoRefresh) return;
  await endFamily(
    cookie.sessionId,
    cognitoRefresh,
    safeEqual(family.secretHash, hashToken(cookie.secret)) ? 'logout' : 'reuse',
    [],
    now,
  );
}

async function endFamily(
  sessionId: string,
  cognitoRefresh: string,
  reason: RevokeReason,
  extra: readonly IssuedToken[],
  now: number,
): Promise<void> {
  const tokens = await revokeSession(sessionId, reason, extra, now);
  await putRevokedTokens(tokens, now);
  for (const t of tokens) notRevokedUntil.delete(t.jti);
  if (reason === 'reuse') log.warn('refresh cookie reused: session family ended', { sessionId: sessionId.slice(0, 8) });
  // Also ends the token for Cognito itself; our markers already stop our API.
  await revokeRefreshToken(cognitoRefresh).catch((err: unknown) => log.warn('revoke failed', errorFields(err)));
}

/** jti -> until when (epoch ms) a "not revoked" answer may be reused, oldest first. */
const notRevokedUntil = new Map<string, number>();

/** Counts the table reads the check made (docs/benchmarks.md). */
export const accessCheckStats = { reads: 0, cached: 0 };

/**
 * Every `auth: 'jwt'` request, after the authorizer checked signature and expiry: refuses a
 * token older than the maximum age and one whose family ended. Costs at most one GetItem,
 * none while a recent answer for the same token is cached.
 */
export async function assertAccessTokenLive(claims: JwtClaims, now = Date.now()): Promise<void> {
  const iat = Number(claims.iat);
  if (Number.isFinite(iat) && iat > 0 && now > (iat + ACCESS_TOKEN_MAX_AGE_SECONDS + CLOCK_SKEW_SECONDS) * 1000) {
    throw unauthorized('token_expired', 'Your session needs renewing.');
  }
  // Cognito puts a jti on every access token; claims without one come from no token of ours.
  const jti = typeof claims.jti === 'string' ? claims.jti : undefined;
  if (!jti) return;
  const until = notRevokedUntil.get(jti);
  if (until !== undefined && until > now) {
    accessCheckStats.cached += 1;
    return;
  }
  accessCheckStats.reads += 1;
  if (await isAccessTokenRevoked(jti, now)) {
    notRevokedUntil.delete(jti);
    throw unauthorized('token_revoked', 'This session has ended. Please log in again.');
  }
  notRevokedUntil.delete(jti);
  notRevokedUntil.set(jti, now + REVOCATION_CACHE_MS);
  if (notRevokedUntil.size > REVOCATION_CACHE_SIZE) notRevokedUntil.delete(notRevokedUntil.keys().next().value!);
}
