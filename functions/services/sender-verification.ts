/**
 * Guest sender verification (spec §4 Verification): a code mailed when the step opens; a right
 * code yields a sender token (stored hashed) for the sends of the next hours.
 */
import type { SenderTokenResponse, VerifySenderResponse } from '../domain/transfer-api';
import { getProofToken, putProofToken } from '../data/verification';
import { forbidden } from '../lib/errors';
import { hashToken, newToken } from '../lib/secrets';
import { checkEmailCode, sendEmailCode } from './email-codes';

export const SENDER_TOKEN_HOURS = 12;

export function sendSenderCode(
  email: string,
  lang: string | undefined,
  sourceIp: string,
  now = Date.now(),
): Promise<VerifySenderResponse> {
  return sendEmailCode('sender', email, lang, sourceIp, now);
}

export async function checkSenderCode(
  email: string,
  code: string,
  client: string,
  now = Date.now(),
): Promise<SenderTokenResponse> {
  await checkEmailCode('sender', email, code, client, now);
  const senderToken = newToken();
  const expiresAt = now + SENDER_TOKEN_HOURS * 3_600_000;
  await putProofToken('sender', hashToken(senderToken), { email }, expiresAt, now);
  return { senderToken, email, expiresAt };
}

/** The proven address behind a sender token, or 403. */
export async function requireSenderToken(token: string | undefined, now = Date.now()): Promise<string> {
  const email =
    token && /^[A-Za-z0-9_-]{43}$/u.test(token)
      ? (await getProofToken('sender', hashToken(token), now))?.email
      : undefined;
  if (!email) throw forbidden('sender_not_verified', 'Verify your email address before sending.');
  return email;
}
