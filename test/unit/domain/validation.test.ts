import { describe, it, expect } from 'vitest';
import type * as z from 'zod/mini';
import {
  dedupeContacts,
  emailSchema,
  feedbackSchema,
  guestCodeSchema,
  loginSchema,
  messageSchema,
  parsePastedCode,
  PROBLEM_CODES,
  problemOf,
  problemsOf,
  problemText,
  ZOD_ISSUE_CODES,
  parseRecipientInput,
  recipientListSchema,
  sanitizeCodeBox,
  sendPasswordSchema,
  signupCredentialsSchema,
  signupPasswordSchema,
  transferDraftSchema,
  verificationCodeSchema,
  type TransferDraftInput,
} from '../../../functions/domain/validation';
import { CUSTOM_DATE_MARKER } from '../../../functions/domain/expiry';

const NOW = Date.UTC(2025, 5, 1);
const GB = 1e9;

function issueCodes(result: z.core.util.SafeParseResult<unknown>): string[] {
  return result.error ? problemsOf(result.error).map((p) => p.code) : [];
}

/** The English text the API answers for the first problem. */
function firstMessage(result: z.core.util.SafeParseResult<unknown>): string | undefined {
  return result.error ? problemsOf(result.error)[0]?.message : undefined;
}

describe('email', () => {
  it('is trimmed and lower-cased', () => {
    expect(emailSchema.parse('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
  });

  it.each(['', '   ', 'ann', 'ann@', '@example.com', 'ann@@example.com', 'ann lee@example.com'])(
    'rejects %j',
    (raw) => {
      expect(emailSchema.safeParse(raw).success).toBe(false);
    },
  );

  it('rejects a missing value with the required message', () => {
    expect(firstMessage(emailSchema.safeParse(undefined))).toBe('Email is required');
    expect(issueCodes(emailSchema.safeParse(undefined))).toEqual(['email_required']);
    expect(issueCodes(emailSchema.safeParse('  '))).toEqual(['email_required']);
    expect(issueCodes(emailSchema.safeParse('ann@'))).toEqual(['invalid_email']);
  });

  it('rejects addresses longer than 254 characters', () => {
    expect(emailSchema.safeParse(`${'a'.repeat(64)}@${'b'.repeat(186)}.com`).success).toBe(false);
  });
});

describe('parseRecipientInput', () => {
  it('splits on semicolons, commas and newlines, trimming and lower-casing', () => {
    expect(parseRecipientInput(' A@x.com; b@Y.com,c@z.com\nd@w.org ')).toEqual({
      added: ['a@x.com', 'b@y.com', 'c@z.com', 'd@w.org'],
      invalid: [],
    });
  });

  it('keeps invalid entries apart, as typed', () => {
    expect(parseRecipientInput('good@x.com; not-an-email ,;also@bad')).toEqual({
      added: ['good@x.com'],
      invalid: ['not-an-email', 'also@bad'],
    });
  });

  it('ignores recipients already in the list, whatever their case', () => {
    expect(parseRecipientInput('OLD@x.com;new@x.com', ['old@x.com']).added).toEqual(['new@x.com']);
  });

  it('ignores duplicates within one paste', () => {
    expect(parseRecipientInput('a@x.com, A@X.com; a@x.com').added).toEqual(['a@x.com']);
  });

  it('returns nothing for empty or separator-only input', () => {
    expect(parseRecipientInput(' ;, \n')).toEqual({ added: [], invalid: [] });
  });
});

describe('recipient list', () => {
  const people = (n: number) => Array.from({ length: n }, (_, i) => ({ email: `p${i}@x.com` }));

  it('allows exactly the role emailTo cap and refuses one more', () => {
    expect(recipientListSchema('free').safeParse(people(6)).success).toBe(true);
    const over = recipientListSchema('free').safeParse(people(7));
    expect(over.success).toBe(false);
    expect(firstMessage(over)).toBe('You can transfer files up to 50 people with a subscription');
    expect(issueCodes(over)).toEqual(['too_many_recipients']);
    expect(recipientListSchema('teamelite').safeParse(people(300)).success).toBe(true);
    expect(recipientListSchema('teamelite').safeParse(people(301)).success).toBe(false);
  });

  it('tells paid users their own cap rather than the subscription upsell', () => {
    const over = recipientListSchema('pro').safeParse(people(51));
    expect(firstMessage(over)).toBe('You can transfer files up to 50 people with your plan');
  });

  it('counts duplicate addresses once', () => {
    const list = [...people(6), { email: 'P0@x.com' }];
    expect(recipientListSchema('free').parse(list)).toHaveLength(6);
  });
});

describe('message and passwords', () => {
  it('allows a message of 280 characters and refuses 281', () => {
    expect(messageSchema.safeParse('m'.repeat(280)).success).toBe(true);
    expect(messageSchema.safeParse('m'.repeat(281)).success).toBe(false);
  });

  it('needs a send password of at least 4 characters', () => {
    expect(sendPasswordSchema.safeParse('abcd').success).toBe(true);
    expect(sendPasswordSchema.safeParse('abc').success).toBe(false);
  });

  it('needs a signup password of at least 6 characters, with the spec message', () => {
    expect(signupPasswordSchema.safeParse('abcdef').success).toBe(true);
    const short = signupPasswordSchema.safeParse('abcde');
    expect(firstMessage(short)).toBe('Password has to be at least 6 characters');
    expect(issueCodes(short)).toEqual(['signup_password_too_short']);
  });

  it('checks login and signup credentials together', () => {
    expect(loginSchema.parse({ email: ' Me@X.com', password: 'x' })).toEqual({ email: 'me@x.com', password: 'x' });
    expect(loginSchema.safeParse({ email: 'me@x.com', password: '' }).success).toBe(false);
    expect(signupCredentialsSchema.safeParse({ email: 'me@x.com', password: '12345' }).success).toBe(false);
  });
});

describe('codes', () => {
  it('accepts exactly 5 digits as a verification code', () => {
    expect(verificationCodeSchema.parse(' 01234 ')).toBe('01234');
    for (const bad of ['1234', '123456', '12a45', '12 45', '１２３４５']) {
      expect(verificationCodeSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('accepts exactly 5 letters or digits as a guest code', () => {
    expect(guestCodeSchema.parse('a1B2c')).toBe('a1B2c');
    expect(guestCodeSchema.safeParse('abcd').success).toBe(false);
    expect(guestCodeSchema.safeParse('abc-d').success).toBe(false);
  });

  it('keeps one digit per code box and clears non-digits', () => {
    expect(sanitizeCodeBox('7')).toBe('7');
    expect(sanitizeCodeBox('x')).toBe('');
    expect(sanitizeCodeBox('37')).toBe('7');
  });

  it('accepts a paste only when it is exactly 5 digits', () => {
    expect(parsePastedCode(' 98765\n')).toBe('98765');
    expect(parsePastedCode('9876')).toBeNull();
    expect(parsePastedCode('98 765')).toBeNull();
  });
});

describe('contacts and feedback', () => {
  it('dedupes contacts by email case-insensitively and drops those without one', () => {
    const out = dedupeContacts([
      { email: 'A@x.com', name: 'A' },
      { email: 'a@X.com' },
      { email: '' },
      { name: 'no mail' },
    ]);
    expect(out).toEqual([{ email: 'A@x.com', name: 'A' }]);
  });

  it('needs a non-empty feedback message', () => {
    expect(feedbackSchema.safeParse({ message: '  ' }).success).toBe(false);
    expect(feedbackSchema.safeParse({ message: 'Great', rating: 'Fantastic' }).success).toBe(true);
    expect(feedbackSchema.safeParse({ message: 'Great', rating: 'Meh' }).success).toBe(false);
  });
});

describe('transfer draft', () => {
  const file = (fileName: string, size = 1000, itemPath?: string) => ({
    fileName,
    size,
    ...(itemPath ? { itemPath } : {}),
  });
  const emailDraft: TransferDraftInput = {
    sendAs: 'email',
    senderEmail: ' Sender@Example.com ',
    emailTo: [{ email: 'to@example.com' }],
    fileObjects: [file('a.txt')],
  };
  const parse = (
    role: string,
    input: TransferDraftInput,
    extra: { existingBytes?: number; existingFileCount?: number } = {},
  ) => transferDraftSchema({ role, now: NOW, ...extra }).safeParse(input);

  it('accepts a minimal email send and fills the defaults', () => {
    const result = parse('free', emailDraft);
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({
      senderEmail: 'sender@example.com',
      expirySeconds: 604800,
      expiryDate: NOW + 604800 * 1000,
      region: 'hongkong',
      message: '',
    });
  });

  it('defaults to sending by email', () => {
    const { sendAs: _omit, ...rest } = emailDraft;
    expect(parse('free', rest).data?.sendAs).toBe('email');
  });

  it('needs recipients and a valid sender email when sending by email', () => {
    expect(issueCodes(parse('free', { ...emailDraft, emailTo: [] }))).toContain('email_to_required');
    expect(issueCodes(parse('free', { ...emailDraft, senderEmail: '' }))).toContain('sender_email_required');
    expect(issueCodes(parse('free', { ...emailDraft, senderEmail: 'nope' }))).toContain('invalid_email');
  });

  it('needs neither recipients nor sender email for a link', () => {
    const result = parse('pro', { sendAs: 'link', fileObjects: [file('a.txt')], senderEmail: '' });
    expect(result.success).toBe(true);
    expect(result.data?.senderEmail).toBeUndefined();
  });

  it('refuses link mode to guests with the premium message', () => {
    const result = parse('anon', { sendAs: 'link', fileObjects: [file('a.txt')] });
    expect(firstMessage(result)).toBe('Hey, right now links are reserved for premium accounts.');
  });

  it('needs at least one file, recorded video or voice memo', () => {
    expect(issueCodes(parse('free', { ...emailDraft, fileObjects: [] }))).toEqual(['no_files']);
    expect(parse('free', { ...emailDraft, fileObjects: [], voiceMemo: [file('memo.webm')] }).success).toBe(true);
    expect(parse('free', { ...emailDraft, fileObjects: [], recordedVideos: [file('1700000000.webm')] }).success).toBe(
      true,
    );
  });

  it('caps recipients at the role emailTo', () => {
    const seven = Array.from({ length: 7 }, (_, i) => ({ email: `p${i}@x.com` }));
    expect(issueCodes(parse('free', { ...emailDraft, emailTo: seven }))).toEqual(['too_many_recipients']);
    expect(parse('personal', { ...emailDraft, emailTo: seven }).success).toBe(true);
  });

  it('allows a total of exactly the upload limit, existing files included, and not a byte more', () => {
    expect(parse('free', { ...emailDraft, fileObjects: [file('big.bin', 3 * GB)] }).success).toBe(true);
    expect(issueCodes(parse('free', { ...emailDraft, fileObjects: [file('big.bin', 3 * GB + 1)] }))).toEqual([
      'transfer_too_large',
    ]);
    expect(
      issueCodes(parse('free', { ...emailDraft, fileObjects: [file('b.bin', 2 * GB)] }, { existingBytes: GB + 1 })),
    ).toEqual(['transfer_too_large']);
  });

  it('allows exactly the plan file count, existing files included, and not one more', () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => file(`f${i}.txt`));
    expect(parse('free', { ...emailDraft, fileObjects: files(50) }).success).toBe(true);
    expect(issueCodes(parse('free', { ...emailDraft, fileObjects: files(51) }))).toEqual(['too_many_files']);
    expect(issueCodes(parse('free', { ...emailDraft, fileObjects: files(45) }, { existingFileCount: 6 }))).toEqual([
      'too_many_files',
    ]);
  });

  it('drops duplicate files before counting them', () => {
    const result = parse('free', {
      ...emailDraft,
      fileObjects: [file('a.txt', 1, 'x/a.txt'), file('a.txt', 1, 'x/a.txt'), file('a.txt', 1, 'y/a.txt')],
    });
    expect(result.data?.fileObjects.map((f) => f.itemPath)).toEqual(['x/a.txt', 'y/a.txt']);
  });

  it('refuses a message over 280 characters and a send password under 4', () => {
    expect(parse('free', { ...emailDraft, message: 'm'.repeat(281) }).success).toBe(false);
    expect(issueCodes(parse('free', { ...emailDraft, password: 'abc' }))).toEqual(['password_too_short']);
    expect(parse('free', { ...emailDraft, password: '' }).data?.password).toBeUndefined();
    expect(parse('free', { ...emailDraft, password: 'abcd' }).data?.password).toBe('abcd');
  });

  it('accepts only expiry presets the role may pick', () => {
    expect(issueCodes(parse('free', { ...emailDraft, expirySeconds: 2629746 }))).toEqual(['expiry_not_allowed']);
    expect(parse('pro', { ...emailDraft, expirySeconds: 31536000 }).data?.expiryDate).toBe(NOW + 31536000 * 1000);
    expect(issueCodes(parse('pro', { ...emailDraft, expirySeconds: 1234 }))).toEqual(['expiry_not_allowed']);
  });

  it('takes a custom date within 30 minutes to 1 year when the marker is chosen', () => {
    const custom = { ...emailDraft, expirySeconds: CUSTOM_DATE_MARKER };
    expect(parse('pro', { ...custom, customExpiryDate: NOW + 3_600_000 }).data?.expiryDate).toBe(NOW + 3_600_000);
    expect(issueCodes(parse('pro', custom))).toEqual(['custom_expiry_required']);
    expect(issueCodes(parse('pro', { ...custom, customExpiryDate: NOW + 60_000 }))).toEqual(['expiry_too_soon']);
    expect(issueCodes(parse('pro', { ...custom, customExpiryDate: NOW + 366 * 86_400_000 }))).toEqual([
      'expiry_too_late',
    ]);
    expect(issueCodes(parse('free', { ...custom, customExpiryDate: NOW + 3_600_000 }))).toEqual(['expiry_not_allowed']);
  });

  it('ignores a custom date when a preset is chosen', () => {
    expect(parse('pro', { ...emailDraft, customExpiryDate: NOW + 3_600_000 }).data?.customExpiryDate).toBeUndefined();
  });

  it('refuses files a guest may not upload, naming the file', () => {
    const result = parse('anon', { ...emailDraft, fileObjects: [file('ok.txt'), file('page.HTML')] });
    expect(problemsOf(result.error!)).toEqual([
      {
        code: 'file_not_allowed',
        field: 'fileObjects.1',
        message: 'Sorry, we had to remove insecure file: page.HTML. If we made a mistake please let us know below',
      },
    ]);
    expect(parse('free', { ...emailDraft, fileObjects: [file('page.html')] }).success).toBe(true);
  });

  it('refuses unknown regions and accepts the offered ones', () => {
    expect(parse('pro', { ...emailDraft, region: 'frankfurt' }).data?.region).toBe('frankfurt');
    expect(parse('pro', { ...emailDraft, region: 'mars' as never }).success).toBe(false);
  });
});

describe('problems: codes, not English', () => {
  const known = new Set<string>([...PROBLEM_CODES, ...ZOD_ISSUE_CODES]);
  const samples: [string, z.core.util.SafeParseResult<unknown>][] = [
    ['email missing', emailSchema.safeParse(undefined)],
    ['email invalid', emailSchema.safeParse('x@')],
    ['email too long', emailSchema.safeParse(`${'a'.repeat(250)}@b.com`)],
    ['message', messageSchema.safeParse('x'.repeat(281))],
    ['send password', sendPasswordSchema.safeParse('abc')],
    ['signup password missing', signupPasswordSchema.safeParse(undefined)],
    ['code', verificationCodeSchema.safeParse('12a45')],
    ['guest code', guestCodeSchema.safeParse('12')],
    ['login', loginSchema.safeParse({ email: '', password: '' })],
    ['feedback', feedbackSchema.safeParse({ message: ' ', rating: 'Meh' })],
    ['signup', signupCredentialsSchema.safeParse({ email: 'a', password: 1 })],
    [
      'draft',
      transferDraftSchema({ role: 'anon', now: NOW }).safeParse({
        sendAs: 'link',
        emailTo: [{ email: 'bad' }],
        message: 'x'.repeat(300),
        region: 'mars',
        fileObjects: [{ fileName: '', size: -1 }],
      }),
    ],
  ];

  it.each(samples)('%s: every issue has a stable code, a field and an English message', (_name, result) => {
    expect(result.success).toBe(false);
    for (const problem of problemsOf(result.error!)) {
      expect(known.has(problem.code), problem.code).toBe(true);
      expect(problem.code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/u);
      // the message is English text, never the code itself
      expect(known.has(problem.message), problem.message).toBe(false);
      expect(problem.message).toMatch(/^[A-Z]/u);
    }
  });

  it('names the field by its path and gives the spec text of the code', () => {
    const result = loginSchema.safeParse({ email: 'ann@x.com', password: '' });
    expect(problemsOf(result.error!)).toEqual([
      { code: 'password_required', field: 'password', message: 'Password is required' },
    ]);
    const draft = transferDraftSchema({ role: 'pro', now: NOW }).safeParse({
      sendAs: 'email',
      senderEmail: 'a@x.com',
      emailTo: [{ email: 'nope' }],
      fileObjects: [{ fileName: 'a', size: 1 }],
    });
    expect(problemsOf(draft.error!)).toEqual([
      { code: 'invalid_email', field: 'emailTo.0.email', message: 'Enter a valid email address' },
    ]);
  });

  it("keeps zod's own code and message for checks without a code of ours", () => {
    const problem = problemOf(feedbackSchema.safeParse({ message: 'hi', rating: 'Meh' }).error!.issues[0]!);
    expect(problem.code).toBe('invalid_value');
    expect(problem.field).toBe('rating');
    expect(problem.message).not.toBe('');
  });

  it('every code has an English text', () => {
    for (const code of PROBLEM_CODES)
      expect(problemText(code, { limit: 3, upsell: false, fileName: 'a.exe' }).trim(), code).not.toBe('');
  });
});
