/**
 * The send's sender-dependent rules (functions/domain/send-rules.ts): what every create route
 * (guest, signed-in, API) applies after parsing the one body schema.
 */
import { describe, expect, it } from 'vitest';
import { CUSTOM_DATE_MARKER, CUSTOM_EXPIRY_MIN_AHEAD_MS, DEFAULT_EXPIRY_SECONDS } from '../../../functions/domain/expiry';
import { limitsFor } from '../../../functions/domain/plans';
import { checkSend, sendIssues, type SendFacts, type SendSenderFacts } from '../../../functions/domain/send-rules';
import { sendBodySchema, transferDraftSchema, type SendRequest } from '../../../functions/domain/validation';

const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);

const guest: SendSenderFacts = { kind: 'guest', verifiedEmail: 'guest@example.com' };
const user = (role: string, mates: string[] = [], name?: string): SendSenderFacts => ({
  kind: 'user',
  role,
  accountEmail: 'owner@example.com',
  ...(name ? { name } : {}),
  teamMateIds: new Set(mates),
});
const facts = (sender: SendSenderFacts, defaultSendAs: 'link' | 'email' = 'email'): SendFacts => ({ sender, now: NOW, defaultSendAs });
/** The body as the create routes hand it to the service: parsed by the static schema. */
const body = (input: SendRequest) => sendBodySchema.parse(input);
const file = (fileName: string, size = 10) => ({ fileName, size });

function refusalOf(input: SendRequest, f: SendFacts) {
  const checked = checkSend(body(input), f);
  if (checked.ok) throw new Error('expected a refusal');
  return checked.refusal;
}

function sendOf(input: SendRequest, f: SendFacts) {
  const checked = checkSend(body(input), f);
  if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.refusal)}`);
  return checked.send;
}

function codesOf(input: SendRequest, f: SendFacts): string[] {
  const refusal = refusalOf(input, f);
  return refusal.code === 'invalid_send' ? refusal.issues.map((i) => i.code) : [refusal.code];
}

describe('the way of sending', () => {
  it("is the caller's default when the body names none: the app's form mails, the API makes a link", () => {
    expect(codesOf({ fileObjects: [file('a.txt')] }, facts(user('pro')))).toEqual(['email_to_required']);
    expect(sendOf({ fileObjects: [file('a.txt')] }, facts(user('pro'), 'link')).sendAs).toBe('link');
    expect(sendOf({ sendAs: 'email', emailTo: [{ email: 'to@example.com' }], fileObjects: [file('a.txt')] }, facts(user('pro'), 'link')).sendAs).toBe('email');
  });

  it('keeps links from guests (spec §5)', () => {
    expect(codesOf({ sendAs: 'link', senderEmail: 'guest@example.com', fileObjects: [file('a.txt')] }, facts(guest))).toEqual(['links_reserved']);
  });
});

describe('the sender address', () => {
  const emailSend = { sendAs: 'email', emailTo: [{ email: 'to@example.com' }], fileObjects: [file('a.txt')] } as const;

  it("is a signed-in sender's account address unless the body names one", () => {
    expect(sendOf(emailSend, facts(user('free'))).senderEmail).toBe('owner@example.com');
    expect(sendOf({ ...emailSend, senderEmail: '' }, facts(user('free'))).senderEmail).toBe('owner@example.com');
    expect(sendOf({ ...emailSend, senderEmail: ' Other@Example.com ' }, facts(user('free'))).senderEmail).toBe('other@example.com');
    expect(codesOf({ ...emailSend, senderEmail: 'not-an-address' }, facts(user('free')))).toEqual(['invalid_email']);
  });

  it("must be a guest's verified address: another is 403 sender_not_verified, none is a draft problem", () => {
    expect(sendOf({ ...emailSend, senderEmail: 'Guest@example.com' }, facts(guest)).senderEmail).toBe('guest@example.com');
    expect(refusalOf({ ...emailSend, senderEmail: 'someone@example.com' }, facts(guest))).toEqual({ code: 'sender_not_verified' });
    expect(codesOf(emailSend, facts(guest))).toEqual(['sender_email_required']);
  });

  it("names a signed-in sender by the body's name, else the account's", () => {
    expect(sendOf(emailSend, facts(user('pro', [], 'Ada'))).senderName).toBe('Ada');
    expect(sendOf({ ...emailSend, senderName: ' Grace ' }, facts(user('pro', [], 'Ada'))).senderName).toBe('Grace');
    expect(sendOf({ ...emailSend, senderEmail: 'guest@example.com' }, facts(guest)).senderName).toBeUndefined();
  });
});

describe('the plan', () => {
  const link = (extra: Partial<SendRequest> = {}): SendRequest => ({ sendAs: 'link', fileObjects: [file('a.txt')], ...extra });

  it('caps recipients, with the upsell wording for free and the cap for paid plans', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ email: `r${i}@example.com` }));
    const free = refusalOf({ sendAs: 'email', emailTo: many(limitsFor('free').emailTo + 1), fileObjects: [file('a.txt')] }, facts(user('free')));
    expect(free).toEqual({ code: 'invalid_send', issues: [{ path: ['emailTo'], code: 'too_many_recipients', params: { limit: 6, upsell: true } }] });
    const pro = refusalOf({ sendAs: 'email', emailTo: many(51), fileObjects: [file('a.txt')] }, facts(user('pro')));
    expect(pro).toMatchObject({ issues: [{ code: 'too_many_recipients', params: { limit: 50, upsell: false } }] });
    // duplicates are dropped before counting
    expect(sendOf({ sendAs: 'email', emailTo: [...many(6), ...many(6)], fileObjects: [file('a.txt')] }, facts(user('free'))).emailTo).toHaveLength(6);
  });

  it('caps files and bytes per transfer, recordings included', () => {
    const files = Array.from({ length: limitsFor('free').files }, (_, i) => file(`f${i}.txt`));
    expect(codesOf(link({ fileObjects: files, voiceMemo: [file('memo.webm')] }), facts(user('free')))).toEqual(['too_many_files']);
    expect(codesOf(link({ fileObjects: [file('big.bin', limitsFor('free').uploadLimit + 1)] }), facts(user('free')))).toEqual(['transfer_too_large']);
    expect(sendOf(link({ fileObjects: [file('big.bin', limitsFor('free').uploadLimit + 1)] }), facts(user('personal'))).totalBytes).toBe(limitsFor('free').uploadLimit + 1);
    expect(codesOf(link({ fileObjects: [] }), facts(user('pro')))).toEqual(['no_files']);
  });

  it('lets free and guests keep files a week only, and paid plans pick a custom date within the bounds', () => {
    expect(codesOf(link({ expirySeconds: 2629746 }), facts(user('free')))).toEqual(['expiry_not_allowed']);
    expect(codesOf(link({ expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: NOW + 2 * CUSTOM_EXPIRY_MIN_AHEAD_MS }), facts(user('free')))).toEqual(['expiry_not_allowed']);
    expect(codesOf(link({ expirySeconds: CUSTOM_DATE_MARKER }), facts(user('pro')))).toEqual(['custom_expiry_required']);
    expect(codesOf(link({ expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: NOW + 60_000 }), facts(user('pro')))).toEqual(['expiry_too_soon']);
    expect(codesOf(link({ expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: NOW + 400 * 86_400_000 }), facts(user('pro')))).toEqual(['expiry_too_late']);
    const custom = sendOf(link({ expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: NOW + 3 * 86_400_000 }), facts(user('pro')));
    expect(custom).toMatchObject({ expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: NOW + 3 * 86_400_000, expiryDate: NOW + 3 * 86_400_000 });
    const preset = sendOf(link({ customExpiryDate: NOW + 3 * 86_400_000 }), facts(user('pro')));
    expect(preset.customExpiryDate).toBeUndefined();
    expect(preset.expiryDate).toBe(NOW + DEFAULT_EXPIRY_SECONDS * 1000);
  });

  it('asks a password of at least the minimum length; an empty one is none', () => {
    expect(codesOf(link({ password: 'abc' }), facts(user('pro')))).toEqual(['password_too_short']);
    expect(sendOf(link({ password: '' }), facts(user('pro'))).password).toBeUndefined();
    expect(sendOf(link({ password: 'Long-enough-1' }), facts(user('pro'))).password).toBe('Long-enough-1');
  });

  it("counts what a transfer already holds (add files) against the plan", () => {
    const cap = limitsFor('free').uploadLimit;
    const draft = { ...body({ sendAs: 'link', fileObjects: [file('a.txt', 1000)] }), sendAs: 'link' as const };
    expect(sendIssues(draft, { role: 'free', now: NOW, existingBytes: cap - 1000 }).map((i) => i.code)).toEqual([]);
    expect(sendIssues(draft, { role: 'free', now: NOW, existingBytes: cap - 999 }).map((i) => i.code)).toEqual(['transfer_too_large']);
    expect(sendIssues(draft, { role: 'free', now: NOW, existingFileCount: 50 }).map((i) => i.code)).toEqual(['too_many_files']);
  });
});

describe('guests and file types', () => {
  it("refuses a guest's blocked file in any list, with where it sits", () => {
    const refusal = refusalOf({ sendAs: 'email', senderEmail: 'guest@example.com', emailTo: [{ email: 'to@example.com' }], fileObjects: [file('a.txt')], voiceMemo: [file('memo.exe')] }, facts(guest));
    expect(refusal).toEqual({ code: 'invalid_send', issues: [{ path: ['voiceMemo', 0], code: 'file_not_allowed', params: { fileName: 'memo.exe' } }] });
    expect(sendOf({ sendAs: 'link', fileObjects: [file('setup.exe')] }, facts(user('free'))).files).toHaveLength(1);
  });

  it('labels recordings, so the download page plays them, and keeps the order of the lists', () => {
    const send = sendOf({ sendAs: 'link', fileObjects: [file('a.txt', 1)], recordedVideos: [file('v.webm', 2)], voiceMemo: [file('m.webm', 3)] }, facts(user('pro')));
    expect(send.files).toEqual([file('a.txt', 1), { ...file('v.webm', 2), recording: 'video' }, { ...file('m.webm', 3), recording: 'voice' }]);
    expect(send.totalBytes).toBe(6);
  });
});

describe('sharing with the team', () => {
  const link = (shareWith: string[]): SendRequest => ({ sendAs: 'link', fileObjects: [file('a.txt')], shareWith });

  it("shares with the sender's team mates only, each once", () => {
    expect(sendOf(link(['mate-1', 'mate-1', 'mate-2']), facts(user('business', ['mate-1', 'mate-2']))).shareWith).toEqual(['mate-1', 'mate-2']);
    expect(refusalOf(link(['mate-1', 'stranger']), facts(user('business', ['mate-1'])))).toEqual({ code: 'share_not_team' });
    expect(refusalOf({ ...link(['anyone']), sendAs: 'email', senderEmail: 'guest@example.com', emailTo: [{ email: 'to@example.com' }] }, facts(guest))).toEqual({
      code: 'share_not_team',
    });
  });

  it('reports the draft problems first: a refused draft is not checked for its shares or sender', () => {
    expect(refusalOf({ ...link(['stranger']), fileObjects: [] }, facts(user('business')))).toMatchObject({ code: 'invalid_send' });
    expect(refusalOf({ sendAs: 'link', senderEmail: 'other@example.com', fileObjects: [file('a.txt')] }, facts(guest))).toMatchObject({ code: 'invalid_send' });
  });
});

describe('the send form agrees with the routes', () => {
  it('reports the same problems, in the same order, through transferDraftSchema', () => {
    const input: SendRequest = { sendAs: 'email', senderEmail: 'nope', emailTo: [], password: 'abc', expirySeconds: 2629746, fileObjects: [] };
    const form = transferDraftSchema({ role: 'free', now: NOW }).safeParse(input);
    expect(form.success).toBe(false);
    const formCodes = form.error!.issues.map((i) => i.message);
    expect(formCodes).toEqual(['invalid_email', 'email_to_required', 'password_too_short', 'expiry_not_allowed', 'no_files']);
    expect(codesOf(input, facts(user('free')))).toEqual(formCodes);
  });
});
