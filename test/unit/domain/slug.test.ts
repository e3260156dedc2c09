import { describe, it, expect } from 'vitest';
import {
  SLUG_ALPHABET,
  SLUG_LENGTH,
  generateSlug,
  generateVerificationCode,
  randomString,
  slugSchema,
} from '../../../functions/domain/slug';

describe('slug', () => {
  it('is 7 characters from a URL-safe alphabet without look-alikes', () => {
    expect(SLUG_LENGTH).toBe(7);
    expect(SLUG_ALPHABET).toMatch(/^[A-Za-z0-9]+$/);
    for (const ambiguous of ['0', 'O', 'o', '1', 'l', 'I']) expect(SLUG_ALPHABET).not.toContain(ambiguous);
    expect(new Set(SLUG_ALPHABET).size).toBe(SLUG_ALPHABET.length);
  });

  it('never repeats in 10,000 draws and only uses the alphabet', () => {
    const slugs = Array.from({ length: 10_000 }, generateSlug);
    expect(new Set(slugs).size).toBe(10_000);
    for (const s of slugs) expect(s).toMatch(new RegExp(`^[${SLUG_ALPHABET}]{7}$`));
  });

  it('uses every character of the alphabet at the same rate (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (const c of randomString(560_000, SLUG_ALPHABET)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(SLUG_ALPHABET.length);
    // 10,000 expected per symbol, sd 100. Taking bytes mod 56 without rejection would give the
    // first 32 symbols +9 % and the rest -12 %; 5 % tolerance is 5 sd, so only bias fails it.
    for (const n of counts.values()) expect(Math.abs(n - 10_000)).toBeLessThan(500);
  });

  it('parses 7 letters or digits and nothing else', () => {
    expect(slugSchema.parse(generateSlug())).toHaveLength(7);
    expect(slugSchema.safeParse('abc0O1l').success).toBe(true);
    for (const bad of ['abcdef', 'abcdefgh', 'abc-def', 'abc def', '../../x'])
      expect(slugSchema.safeParse(bad).success, bad).toBe(false);
  });
});

describe('random strings', () => {
  it('draw only from the given alphabet and at the given length', () => {
    expect(randomString(0, 'ab')).toBe('');
    expect(randomString(500, 'xy')).toMatch(/^[xy]{500}$/);
  });

  it('refuse alphabets a byte cannot index fairly', () => {
    expect(() => randomString(3, 'a')).toThrow(RangeError);
    expect(() => randomString(3, 'a'.repeat(257))).toThrow(RangeError);
    expect(() => randomString(-1, 'ab')).toThrow(RangeError);
  });

  it('make 5-digit verification codes, leading zeros included', () => {
    const codes = Array.from({ length: 2000 }, generateVerificationCode);
    for (const c of codes) expect(c).toMatch(/^\d{5}$/);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
  });
});
