import { describe, expect, it } from 'vitest';
import {
  REGISTRATION_STORAGE_KEY,
  guardStep,
  loadRegistration,
  parsePlan,
  parseStep,
  saveRegistration,
} from '@/features/auth/register-steps';

const TOKEN = 'a'.repeat(43);

describe('register step guards (spec §2, §4)', () => {
  it('the step comes from the query; anything but 2 or 3 is step 1', () => {
    expect(parseStep('2')).toBe(2);
    expect(parseStep('3')).toBe(3);
    for (const raw of [null, '', '1', '0', '4', 'two', '2.5', '-3']) expect(parseStep(raw), String(raw)).toBe(1);
  });

  it('step 1 without a verified email stays on step 1', () => {
    expect(guardStep(1, null)).toBe(1);
    expect(guardStep(1, { email: 'jane@example.com' })).toBe(1);
  });

  it('step 2 or more without an email returns to step 1', () => {
    expect(guardStep(2, null)).toBe(1);
    expect(guardStep(3, null)).toBe(1);
    expect(guardStep(3, { email: '', registrationToken: TOKEN })).toBe(1);
  });

  it('step 3 without a verified email returns to step 2', () => {
    expect(guardStep(3, { email: 'jane@example.com' })).toBe(2);
  });

  it('a verified email at step 1 goes straight to step 3', () => {
    expect(guardStep(1, { email: 'jane@example.com', registrationToken: TOKEN })).toBe(3);
  });

  it('allowed steps are kept', () => {
    expect(guardStep(2, { email: 'jane@example.com' })).toBe(2);
    expect(guardStep(2, { email: 'jane@example.com', registrationToken: TOKEN })).toBe(2);
    expect(guardStep(3, { email: 'jane@example.com', registrationToken: TOKEN })).toBe(3);
  });
});

describe('chosen plan', () => {
  it('takes a plan one can sign up for, case-insensitively', () => {
    expect(parsePlan('pro')).toBe('pro');
    expect(parsePlan('Business')).toBe('business');
    expect(parsePlan('teamelite')).toBe('teamelite');
  });

  it('falls back to free when missing, unknown, anon or the premium package', () => {
    for (const raw of [null, '', 'gold', 'anon', 'premium']) expect(parsePlan(raw), String(raw)).toBe('free');
  });
});

describe('registration kept in sessionStorage', () => {
  const memory = () => {
    const data = new Map<string, string>();
    return {
      data,
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
  };

  it('round-trips the email and the proof, and forgets them on null', () => {
    const storage = memory();
    saveRegistration(storage, { email: 'jane@example.com', registrationToken: TOKEN });
    expect(loadRegistration(storage)).toEqual({ email: 'jane@example.com', registrationToken: TOKEN });

    saveRegistration(storage, { email: 'jane@example.com' });
    expect(loadRegistration(storage)).toEqual({ email: 'jane@example.com' });

    saveRegistration(storage, null);
    expect(storage.data.has(REGISTRATION_STORAGE_KEY)).toBe(false);
    expect(loadRegistration(storage)).toBeNull();
  });

  it('ignores damaged or foreign values', () => {
    const storage = memory();
    for (const raw of ['not json', '{}', '{"email":""}', '{"email":42}', '[]']) {
      storage.data.set(REGISTRATION_STORAGE_KEY, raw);
      expect(loadRegistration(storage), raw).toBeNull();
    }
    storage.data.set(REGISTRATION_STORAGE_KEY, '{"email":"jane@example.com","registrationToken":7}');
    expect(loadRegistration(storage)).toEqual({ email: 'jane@example.com' });
  });

  it('works without storage at all', () => {
    expect(loadRegistration(null)).toBeNull();
    expect(() => saveRegistration(null, { email: 'jane@example.com' })).not.toThrow();
  });
});
