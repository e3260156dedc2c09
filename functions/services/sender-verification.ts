/**
 * Guest sender verification (spec §4 Verification): a 5-digit code mailed when the step opens,
 * stored hashed with a TTL, a bounded number of checks per code, sends rate-limited per address
 * and per client address. A right code yields a sender token for the sends of the next hours.
 */
import { generateVerificationCode } from '../domain/slug';
import { TEXTS } from '../domain/texts';
import type { SenderTokenResponse, VerifySenderResponse } from '../domain/transfer-api';
import { countCodeAttempt, deleteSenderCode, getSenderCode, getSenderTokenEmail, hitRateWindow, putSenderCode, putSenderToken } from '../data/verification';
import { HttpError, forbidden, tooManyRequests } from '../lib/errors';
import { hashCode, hashToken, newSalt, newToken, safeEqual } from '../lib/secrets';
import { mailSenderCode } from './mail';

export const CODE_VALID_MINUTES = 15;
export const CODE_MAX_ATTEMPTS = 5;
export const CODES_PER_ADDRESS = { limit: 5, windowSeconds: 3600 };
export const CODES_PER_IP = { limit: 20, windowSeconds: 3600 };
export const SENDER_TOKEN_HOURS = 12;

export async function sendSenderCode(email: string, lang: string | undefined, sourceIp: string, now = Date.now()): Promise<VerifySenderResponse> {
  for (const [scope, subject, rule] of [
    ['code-address', email, CODES_PER_ADDRESS],
    ['code-ip', sourceIp, CODES_PER_IP],
  ] as const) {
    const hit = await hitRateWindow(scope, subject, rule.limit, rule.windowSeconds, now);
    if (!hit.allowed) {
      throw tooManyRequests(hit.retryAfterSeconds, `Too many codes requested. Try again in ${Math.ceil(hit.retryAfterSeconds / 60)} minutes.`);
    }
  }
  const code = generateVerificationCode();
  const salt = newSalt();
  const expiresAt = now + CODE_VALID_MINUTES * 60_000;
  await putSenderCode({ email, codeHash: hashCode(code, salt), salt, attempts: 0, expiresAt }, now);
  if (!(await mailSenderCode(email, code, CODE_VALID_MINUTES, lang))) {
    throw new HttpError(503, 'mail_unavailable', 'We could not send the code right now. Please try again.');
  }
  return { expiresAt };
}

export async function checkSenderCode(email: string, code: string, now = Date.now()): Promise<SenderTokenResponse> {
  const stored = await getSenderCode(email, now);
  if (!stored || stored.expiresAt <= now) throw forbidden('incorrect_code', TEXTS.incorrectCode);
  if (!(await countCodeAttempt(email, CODE_MAX_ATTEMPTS))) {
    throw new HttpError(429, 'too_many_attempts', 'Too many tries. Ask for a new code.');
  }
  if (!safeEqual(hashCode(code.trim(), stored.salt), stored.codeHash)) throw forbidden('incorrect_code', TEXTS.incorrectCode);
  await deleteSenderCode(email);
  const senderToken = newToken();
  const expiresAt = now + SENDER_TOKEN_HOURS * 3_600_000;
  await putSenderToken(hashToken(senderToken), email, expiresAt, now);
  return { senderToken, email, expiresAt };
}

/** The proven address behind a sender token, or 403. */
export async function requireSenderToken(token: string | undefined, now = Date.now()): Promise<string> {
  const email = token && /^[A-Za-z0-9_-]{43}$/u.test(token) ? await getSenderTokenEmail(hashToken(token), now) : undefined;
  if (!email) throw forbidden('sender_not_verified', 'Verify your email address before sending.');
  return email;
}
