/**
 * The five one-digit code boxes (spec §5): each box keeps one digit, non-digits are cleared,
 * a paste fills all boxes only when it is exactly 5 digits, and the code is complete when every
 * box holds a digit. `focus` is the box that should take focus next.
 */
import { parsePastedCode, sanitizeCodeBox } from '@domain/validation';

export const CODE_LENGTH = 5;

export type CodeDigits = readonly string[];

export interface CodeEdit {
  readonly digits: CodeDigits;
  readonly focus: number;
}

export function emptyCode(): CodeDigits {
  return Array.from({ length: CODE_LENGTH }, () => '');
}

function last(): number {
  return CODE_LENGTH - 1;
}

/** A paste into any box: 5 digits fill them all; anything else changes nothing (null). */
export function pasteCode(text: string): CodeEdit | null {
  const code = parsePastedCode(text);
  return code === null ? null : { digits: code.split(''), focus: last() };
}

/**
 * The new value of box `index` as the browser reports it. One-time-code autofill puts the
 * whole code into one box, which counts as a paste; otherwise the box keeps the digit typed last.
 */
export function typeIntoBox(digits: CodeDigits, index: number, raw: string): CodeEdit {
  const whole = pasteCode(raw);
  if (whole) return whole;
  const digit = sanitizeCodeBox(raw);
  const next = digits.map((d, i) => (i === index ? digit : d));
  return { digits: next, focus: digit === '' ? index : Math.min(index + 1, last()) };
}

/** Backspace in an empty box clears the one before it and moves there. */
export function backspaceInBox(digits: CodeDigits, index: number): CodeEdit {
  if (digits[index] !== '' || index === 0) {
    return { digits: digits.map((d, i) => (i === index ? '' : d)), focus: index };
  }
  return { digits: digits.map((d, i) => (i === index - 1 ? '' : d)), focus: index - 1 };
}

/** The 5-digit code once every box holds a digit, else null. */
export function completeCode(digits: CodeDigits): string | null {
  const code = digits.join('');
  return digits.length === CODE_LENGTH && /^\d{5}$/u.test(code) ? code : null;
}
