/**
 * Mailed 5-digit codes (guest sender proof, registration step 2, verified recipients): stored hashed and salted
 * with a TTL, a bounded number of checks per code, sends rate-limited per address and per
 * client address (spec §4 Verification, architecture §6).
 */
import { generateVerificationCode } from '../domain/slug';
import { TEXTS } from '../domain/texts';
import type { CodePurpose } from '../data/keys';
import { deleteEmailCode, getEmailCode, hitRateWindow, putEmailCode } from '../data/verification';
import { HttpError, forbidden, tooManyRequests } from '../lib/errors';
import { assertMayTry, recordFailure, recordSuccess, type FailurePolicy } from './failure-throttle';
import { hashCode, newSalt, safeEqual } from '../lib/secrets';
import { mailRecipientCode, mailSenderCode } from './mail';

export const CODE_VALID_MINUTES = 15;
/** Codes mailed to an address an hour, from one client, and from every client together. */
export const CODES_PER_ADDRESS_AND_CLIENT = { limit: 5, windowSeconds: 3600 };
export const CODES_PER_ADDRESS = { limit: 20, windowSeconds: 3600 };
export const CODES_PER_IP = { limit: 20, windowSeconds: 3600 };
/**
 * Wrong codes: five free per (address, client), then the client waits 1, 2, 4 … minutes; 20 in a
 * code's lifetime on one address from every client together, past which only clients without
 * failures may try. A stranger guessing wrong no longer burns the owner's code.
 */
export const CODE_FAILURES: Omit<FailurePolicy, 'scope'> = {
  freeFailures: 5,
  firstDelaySeconds: 60,
  maxDelaySeconds: CODE_VALID_MINUTES * 60,
  ceiling: { limit: 20, windowSeconds: CODE_VALID_MINUTES * 60 },
};
const codeFailures = (purpose: CodePurpose): FailurePolicy => ({ scope: `code-${purpose}`, ...CODE_FAILURES });
const CODE_WAIT = 'Too many tries. Try again in {minutes} minutes.';

/** Fixed-window limits in one place: 429 with Retry-After and the minutes in the message. */
export async function limitRate(
  rules: readonly (readonly [scope: string, subject: string, rule: { limit: number; windowSeconds: number }])[],
  message: string,
  now = Date.now(),
): Promise<void> {
  for (const [scope, subject, rule] of rules) {
    const hit = await hitRateWindow(scope, subject, rule.limit, rule.windowSeconds, now);
    if (!hit.allowed)
      throw tooManyRequests(
        hit.retryAfterSeconds,
        message.replace('{minutes}', String(Math.ceil(hit.retryAfterSeconds / 60))),
      );
  }
}

export async function sendEmailCode(
  purpose: CodePurpose,
  email: string,
  lang: string | undefined,
  sourceIp: string,
  now = Date.now(),
): Promise<{ expiresAt: number }> {
  // Per (address, client) first, so one client asking for someone's codes uses up only its own share.
  await limitRate(
    [
      [`code-address-client-${purpose}`, `${email}|${sourceIp}`, CODES_PER_ADDRESS_AND_CLIENT],
      [`code-address-${purpose}`, email, CODES_PER_ADDRESS],
      [`code-ip`, sourceIp, CODES_PER_IP],
    ],
    'Too many codes requested. Try again in {minutes} minutes.',
    now,
  );
  const code = generateVerificationCode();
  const salt = newSalt();
  const expiresAt = now + CODE_VALID_MINUTES * 60_000;
  await putEmailCode({ purpose, email, codeHash: hashCode(code, salt), salt, expiresAt }, now);
  const mail = purpose === 'recipient' ? mailRecipientCode : mailSenderCode;
  if (!(await mail(email, code, CODE_VALID_MINUTES, lang))) {
    throw new HttpError(503, 'mail_unavailable', 'We could not send the code right now. Please try again.');
  }
  return { expiresAt };
}

/**
 * Throws 403 (spec text) for a wrong or expired code and 429 while this client must wait;
 * consumes a right one. Failures count per (address, client): see CODE_FAILURES.
 */
export async function checkEmailCode(
  purpose: CodePurpose,
  email: string,
  code: string,
  client: string,
  now = Date.now(),
): Promise<void> {
  const policy = codeFailures(purpose);
  const failures = await assertMayTry(policy, email, client, CODE_WAIT, now);
  const stored = await getEmailCode(purpose, email, now);
  if (!stored || stored.expiresAt <= now || !safeEqual(hashCode(code.trim(), stored.salt), stored.codeHash)) {
    await recordFailure(policy, email, client, now);
    throw forbidden('incorrect_code', TEXTS.incorrectCode);
  }
  await deleteEmailCode(purpose, email);
  if (failures > 0) await recordSuccess(policy, email, client);
}
