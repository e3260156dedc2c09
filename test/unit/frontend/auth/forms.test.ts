import { describe, expect, it } from 'vitest';
import { signupSchema } from '@domain/auth-api';
import { ApiError } from '@/lib/api';
import { authErrorText } from '@/features/auth/auth-errors';
import {
  emailProblem,
  loginProblems,
  nameProblem,
  newPasswordProblem,
  normalisedEmail,
} from '@/features/auth/field-problems';
import { browserFingerprint, nameFromEmail, signupBody, type BrowserContext } from '@/features/auth/signup-payload';
import { accountMenuItems, initialsOf } from '@/lib/session/user-display';

describe('field problems (spec §5)', () => {
  it('registration email: required and valid', () => {
    expect(emailProblem('')).toBe('emailRequired');
    expect(emailProblem('   ')).toBe('emailRequired');
    expect(emailProblem('jane@')).toBe('invalidEmail');
    expect(emailProblem('Jane@Example.com ')).toBeNull();
    expect(normalisedEmail(' Jane@Example.COM ')).toBe('jane@example.com');
  });

  it('sign-up password: required, at least 6 characters', () => {
    expect(newPasswordProblem('')).toBe('passwordRequired');
    expect(newPasswordProblem('12345')).toBe('passwordTooShort');
    expect(newPasswordProblem('123456')).toBeNull();
  });

  it('login: email required and valid, password required (any length)', () => {
    expect(loginProblems({ email: '', password: '' })).toEqual({
      email: 'emailRequired',
      password: 'passwordRequired',
    });
    expect(loginProblems({ email: 'nope', password: 'x' })).toEqual({ email: 'invalidEmail', password: null });
    expect(loginProblems({ email: 'jane@example.com', password: '' })).toEqual({
      email: null,
      password: 'passwordRequired',
    });
    expect(loginProblems({ email: 'jane@example.com', password: 'x' })).toEqual({ email: null, password: null });
  });

  it('full name: required', () => {
    expect(nameProblem('  ')).toBe('nameRequired');
    expect(nameProblem('Jane')).toBeNull();
  });
});

describe('what a failed call says (spec §8)', () => {
  it('maps the statuses named by the screen to the spec texts', () => {
    expect(authErrorText(new ApiError(401, 'auth_failed', 'Auth Failed'), { 401: 'authFailed' })).toEqual({
      key: 'authFailed',
    });
    expect(authErrorText(new ApiError(409, 'email_taken', 'x'), { 409: 'emailTaken' })).toEqual({ key: 'emailTaken' });
    expect(authErrorText(new ApiError(403, 'incorrect_code', 'x'), { 403: 'incorrectCode' })).toEqual({
      key: 'incorrectCode',
    });
  });

  it('no answer, a server fault or a non-API error is connection trouble', () => {
    expect(authErrorText(new ApiError(0, 'network_error', 'Failed to fetch'), { 401: 'authFailed' })).toEqual({
      key: 'connectionTrouble',
    });
    expect(authErrorText(new ApiError(503, 'http_503', 'Unavailable'))).toEqual({ key: 'connectionTrouble' });
    expect(authErrorText(new TypeError('boom'))).toEqual({ key: 'connectionTrouble' });
  });

  it('another refusal is told by its code, never by the English message', () => {
    expect(
      authErrorText(
        new ApiError(429, 'rate_limited', 'Too many requests, try again later.', { retryAfterSeconds: 90 }),
      ),
    ).toEqual({
      text: { key: 'errors.rateLimited', params: { count: 2 } },
    });
    expect(authErrorText(new ApiError(410, 'reset_expired', 'English for API users'))).toEqual({
      text: { key: 'auth.errors.resetLinkInvalid' },
    });
    expect(authErrorText(new ApiError(418, 'brand_new', 'Anything'))).toEqual({ text: { key: 'errors.generic' } });
  });
});

const BROWSER: BrowserContext = {
  navigator: {
    language: 'de-DE',
    userAgent: 'UA/1.0',
    vendor: 'Google Inc.',
    platform: 'MacIntel',
    userAgentData: { platform: 'macOS' },
  },
  timeZone: 'Europe/Berlin',
  referrer: 'https://search.example/?q=send+big+files',
};

describe('sign-up request (spec §3)', () => {
  it('carries the proof, the fields, lang, referrer, the chosen plan as role and the fingerprint', () => {
    const body = signupBody(
      {
        registrationToken: 'a'.repeat(43),
        email: 'jane@example.com',
        fullName: ' Jane Doe ',
        password: 'secret1',
        company: ' Acme ',
        role: 'pro',
        lang: 'de',
      },
      BROWSER,
    );

    expect(body).toEqual({
      registrationToken: 'a'.repeat(43),
      email: 'jane@example.com',
      fullName: 'Jane Doe',
      password: 'secret1',
      company: 'Acme',
      lang: 'de',
      referrer: 'https://search.example/?q=send+big+files',
      role: 'pro',
      fingerprint: {
        language: 'de-DE',
        userAgent: 'UA/1.0',
        browserVendor: 'Google Inc.',
        platform: 'macOS',
        timezone: 'Europe/Berlin',
      },
    });
    expect(signupSchema.safeParse(body).success).toBe(true);
  });

  it('leaves out an empty company and referrer', () => {
    const body = signupBody(
      {
        registrationToken: 'a'.repeat(43),
        email: 'jane@example.com',
        fullName: 'Jane',
        password: 'secret1',
        company: '  ',
        role: 'free',
        lang: 'en',
      },
      { ...BROWSER, referrer: '' },
    );
    expect(body).not.toHaveProperty('company');
    expect(body).not.toHaveProperty('referrer');
  });

  it('cuts an oversized browser context to the schema limits, so it always validates', () => {
    const huge: BrowserContext = {
      navigator: {
        language: 'x'.repeat(500),
        userAgent: 'u'.repeat(5000),
        vendor: 'v'.repeat(500),
        platform: 'p'.repeat(500),
      },
      timeZone: 't'.repeat(500),
      referrer: `https://r.example/${'r'.repeat(5000)}`,
    };
    const body = signupBody(
      {
        registrationToken: 'a'.repeat(43),
        email: 'jane@example.com',
        fullName: 'Jane',
        password: 'secret1',
        role: 'free',
        lang: 'en',
      },
      huge,
    );
    expect(signupSchema.safeParse(body).success).toBe(true);
    expect(browserFingerprint(huge).platform).toHaveLength(256);
  });

  it('the modal derives the required name from the address', () => {
    expect(nameFromEmail('jane.doe@example.com')).toBe('Jane Doe');
    expect(nameFromEmail('j_smith+files@example.com')).toBe('J Smith Files');
    expect(nameFromEmail('ops@example.com')).toBe('Ops');
    expect(nameFromEmail('...@example.com')).toBe('...@example.com');
  });
});

describe('account menu (spec §2)', () => {
  it('hides Domain, Teams and Billing from team members', () => {
    expect(accountMenuItems({ isTeamMember: false })).toEqual([
      'profile',
      'domain',
      'teams',
      'billing',
      'customize',
      'webhooks',
      'apiKeys',
    ]);
    expect(accountMenuItems({ isTeamMember: true })).toEqual(['profile', 'customize']);
    expect(accountMenuItems({ isTeamMember: true, apiKeysAllowed: false })).toEqual(['profile', 'customize']);
    expect(accountMenuItems({ isTeamMember: true, apiKeysAllowed: true })).toEqual(['profile', 'customize', 'apiKeys']);
  });

  it('shows Webhooks to a team member only once their admin allowed them', () => {
    expect(accountMenuItems({ isTeamMember: true, webhooksAllowed: false })).not.toContain('webhooks');
    expect(accountMenuItems({ isTeamMember: true, webhooksAllowed: true })).toEqual([
      'profile',
      'customize',
      'webhooks',
    ]);
    expect(accountMenuItems({ isTeamMember: false, webhooksAllowed: false })).toContain('webhooks');
  });

  it('the avatar falls back to initials: first and last name, else the email', () => {
    expect(initialsOf({ fullName: 'Jane Q. Doe', email: 'jane@example.com' })).toBe('JD');
    expect(initialsOf({ fullName: 'jane', email: 'jane@example.com' })).toBe('J');
    expect(initialsOf({ fullName: '  ', email: 'ops@example.com' })).toBe('O');
  });
});
