/** Random public ids and codes. Uses Web Crypto so the same code runs in Node 20 and browsers. */
import * as z from 'zod/mini';
import { SLUG_PATTERN } from './id-patterns';

export const SLUG_LENGTH = 7;
/** URL-safe and without look-alikes (0 O o, 1 l I) so a link read aloud or retyped survives. */
export const SLUG_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz';

/**
 * Parsing accepts any 7 ASCII letters or digits, not only our alphabet: a mistyped link then
 * reaches the lookup and gets the spec's 404 text instead of a validation error. The message
 * is the stable problem code (validation.ts problemOf).
 */
export const slugSchema = z.string().check(z.regex(SLUG_PATTERN, 'invalid_link'));

export const VERIFICATION_CODE_LENGTH = 5;
const DIGITS = '0123456789';

/**
 * Uniform random string. Bytes at or above the largest multiple of the alphabet size are
 * rejected and redrawn, so no character is likelier than another (no modulo bias).
 */
export function randomString(length: number, alphabet: string): string {
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`bad length ${length}`);
  if (alphabet.length < 2 || alphabet.length > 256) throw new RangeError('alphabet must have 2 to 256 characters');
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  // getRandomValues fills at most 65,536 bytes per call.
  const buf = new Uint8Array(Math.min(65_536, Math.max(16, length * 2)));
  while (out.length < length) {
    globalThis.crypto.getRandomValues(buf);
    for (const byte of buf) {
      if (byte >= limit) continue;
      out += alphabet.charAt(byte % alphabet.length);
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateSlug(): string {
  return randomString(SLUG_LENGTH, SLUG_ALPHABET);
}

/** The 5-digit code mailed for registration and guest-sender verification. */
export function generateVerificationCode(): string {
  return randomString(VERIFICATION_CODE_LENGTH, DIGITS);
}
