/**
 * The input rules of spec §5 that need no schema: lengths, the ways to send, and the e-mail
 * address check, as plain data and functions without zod. The send form needs them on its first
 * render and on every keystroke (recipient chips), before zod has loaded; validation.ts builds
 * its schemas on them and re-exports them, so handlers and forms still import one module.
 */

export const MESSAGE_MAX_LENGTH = 280;
export const SEND_PASSWORD_MIN_LENGTH = 4;
export const SIGNUP_PASSWORD_MIN_LENGTH = 6;
/** Cognito's own ceiling for passwords. */
export const PASSWORD_MAX_LENGTH = 256;
/** RFC 5321 path limit. */
export const EMAIL_MAX_LENGTH = 254;

export const SEND_AS = ['link', 'email'] as const;
export type SendAs = (typeof SEND_AS)[number];

/**
 * The address pattern `z.email()` applies (zod's `regexes.email`), copied so that this module
 * needs no zod; a unit test fails if zod's pattern changes (test/unit/domain/input-rules.test.ts).
 */
// biome-ignore lint/complexity/noUselessEscapeInRegex: the same source as zod's, escapes included, so the test can compare them
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/**
 * The address as validation.ts's `emailSchema` gives it (trimmed, lower-cased), or null where
 * that schema refuses it: the same steps in the same order (trim, 1 to EMAIL_MAX_LENGTH
 * characters counted as zod counts them, lower-case, then the pattern). A unit test runs both
 * over thousands of addresses and requires the same answer.
 */
export function normaliseEmail(raw: string): string | null {
  const trimmed = raw.trim();
  if (trimmed.length === 0) return null;
  // zod's maxLength counts code points once the UTF-16 length is over the maximum
  if (trimmed.length > EMAIL_MAX_LENGTH && [...trimmed].length > EMAIL_MAX_LENGTH) return null;
  const lower = trimmed.toLowerCase();
  return EMAIL_PATTERN.test(lower) ? lower : null;
}

export function isValidEmail(value: string): boolean {
  return normaliseEmail(value) !== null;
}

/**
 * Recipients typed or pasted into the emailTo field: split on ';', ',' and whitespace
 * (which no unquoted address contains), lower-cased, duplicates of `existing` or of one
 * another dropped. Invalid entries come back as typed (trimmed) so the field can keep them.
 */
export function parseRecipientInput(
  raw: string,
  existing: readonly string[] = [],
): { added: string[]; invalid: string[] } {
  const seen = new Set(existing.map((e) => e.trim().toLowerCase()));
  const added: string[] = [];
  const invalid: string[] = [];
  for (const token of raw.split(/[;,\s]+/u)) {
    if (token === '') continue;
    const email = normaliseEmail(token);
    if (email === null) {
      invalid.push(token);
      continue;
    }
    if (seen.has(email)) continue;
    seen.add(email);
    added.push(email);
  }
  return { added, invalid };
}

/** The shortest end-to-end encryption passphrase a sender may choose (characters): the app and the CLI refuse shorter ones alike. */
export const E2E_PASSPHRASE_MIN_CHARS = 12;
