/**
 * Mailed 5-digit codes (guest sender proof, registration step 2): stored hashed and salted
 * with a TTL, a bounded number of checks per code, sends rate-limited per address and per
 * client address (spec §4 Verification, architecture §6).
 */
import { generateVerificationCode } from '../domain/slug';
import { TEXTS } from '../domain/texts';
import type { CodePurpose } from '../data/keys';
import { countCodeAttempt, deleteEmailCode, getEmailCode, hitRateWindow, putEmailCode } from '../data/verification';
import { HttpError, forbidden, tooManyRequests } from '../lib/errors';
import { hashCode, newSalt, safeEqual } from '../lib/secrets';
import { mailSenderCode } from './mail';

export const CODE_VALID_MINUTES = 15;
export const CODE_MAX_ATTEMPTS = 5;
export const CODES_PER_ADDRESS = { limit: 5, windowSeconds: 3600 };
export const CODES_PER_IP = { limit: 20, windowSeconds: 3600 };

/** Fixed-window limits in one place: 429 with Retry-After and the minutes in the message. */
export async function limitRate(rules: readonly (readonly [scope: string, subject: string, rule: { limit: number; windowSeconds: number }])[], message: string, now = Date.now()): Promise<void> {
  for (const [scope, subject, rule] of rules) {
    const hit = await hitRateWindow(scope, subject, rule.limit, rule.windowSeconds, now);
    if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, message.replace('{minutes}', String(Math.ceil(hit.retryAfterSeconds / 60))));
  }
}

export async function sendEmailCode(purpose: CodePurpose, email: string, lang: string | undefined, sourceIp: string, now = Date.now()): Promise<{ expiresAt: number }> {
  await limitRate(
    [
      [`code-address-${purpose}`, email, CODES_PER_ADDRESS],
      [`code-ip`, sourceIp, CODES_PER_IP],
    ],
    'Too many codes requested. Try again in {minutes} minutes.',
    now,
  );
  const code = generateVerificationCode();
  const salt = newSalt();
  const expiresAt = now + CODE_VALID_MINUTES * 60_000;
  await putEmailCode({ purpose, email, codeHash: hashCode(code, salt), salt, attempts: 0, expiresAt }, now);
  if (!(await mailSenderCode(email, code, CODE_VALID_MINUTES, lang))) {
    throw new HttpError(503, 'mail_unavailable', 'We could not send the code right now. Please try again.');
  }
  return { expiresAt };
}

/** Throws 403 (spec text) for a wrong or expired code, 429 once the attempts are used; consumes a right one. */
export async function checkEmailCode(purpose: CodePurpose, email: string, code: string, now = Date.now()): Promise<void> {
  const stored = await getEmailCode(purpose, email, now);
  if (!stored || stored.expiresAt <= now) throw forbidden('incorrect_code', TEXTS.incorrectCode);
  if (!(await countCodeAttempt(purpose, email, CODE_MAX_ATTEMPTS))) {
    throw new HttpError(429, 'too_many_attempts', 'Too many tries. Ask for a new code.');
  }
  if (!safeEqual(hashCode(code.trim(), stored.salt), stored.codeHash)) throw forbidden('incorrect_code', TEXTS.incorrectCode);
  await deleteEmailCode(purpose, email);
}
