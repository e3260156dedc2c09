/**
 * The send's sender-dependent rules (functions/domain/send-rules.ts): what every create route
 * (guest, signed-in, API) applies after parsing the one body schema.
 */
import { describe, expect, it } from 'vitest';
import {
  CUSTOM_DATE_MARKER,
  CUSTOM_EXPIRY_MIN_AHEAD_MS,
  DEFAULT_EXPIRY_SECONDS,
} from '../../../functions/domain/expiry';
import { limitsFor } from '../../../functions/domain/plans';
import {
  checkAddFiles,
  checkSend,
  sendIssues,
  type SendFacts,
  type SendSenderFacts,
} from '../../../functions/domain/send-rules';
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
const facts = (sender: SendSenderFacts, defaultSendAs: 'link' | 'email' = 'email'): SendFacts => ({
  sender,
  now: NOW,
  defaultSendAs,
});
const DAY = 86_400_000;
const toAda = { email: 'to@example.com' };
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
    const input: SendRequest = { sendAs: 'email', emailTo: [toAda], fileObjects: [file('a.txt')] };
    const email = sendOf(input, facts(user('pro'), 'link'));
    expect(email.sendAs).toBe('email');
  });

  it('keeps links from guests (spec §5)', () => {
    const link: SendRequest = { sendAs: 'link', senderEmail: 'guest@example.com', fileObjects: [file('a.txt')] };
    expect(codesOf(link, facts(guest))).toEqual(['links_reserved']);
  });
});

describe('the sender address', () => {
  const emailSend: SendRequest = { sendAs: 'email', emailTo: [toAda], fileObjects: [file('a.txt')] };
  const free = facts(user('free'));

  it("is a signed-in sender's account address unless the body names one", () => {
    expect(sendOf(emailSend, free).senderEmail).toBe('owner@example.com');
    expect(sendOf({ ...emailSend, senderEmail: '' }, free).senderEmail).toBe('owner@example.com');
    expect(sendOf({ ...emailSend, senderEmail: ' Other@Example.com ' }, free).senderEmail).toBe('other@example.com');
    expect(codesOf({ ...emailSend, senderEmail: 'not-an-address' }, free)).toEqual(['invalid_email']);
  });

  it("must be a guest's verified address: another is 403 sender_not_verified, none is a draft problem", () => {
    const verified = sendOf({ ...emailSend, senderEmail: 'Guest@example.com' }, facts(guest));
    expect(verified.senderEmail).toBe('guest@example.com');
    const other = refusalOf({ ...emailSend, senderEmail: 'someone@example.com' }, facts(guest));
    expect(other).toEqual({ code: 'sender_not_verified' });
    expect(codesOf(emailSend, facts(guest))).toEqual(['sender_email_required']);
  });

  it("names a signed-in sender by the body's name, else the account's", () => {
    expect(sendOf(emailSend, facts(user('pro', [], 'Ada'))).senderName).toBe('Ada');
    expect(sendOf({ ...emailSend, senderName: ' Grace ' }, facts(user('pro', [], 'Ada'))).senderName).toBe('Grace');
    expect(sendOf({ ...emailSend, senderEmail: 'guest@example.com' }, facts(guest)).senderName).toBeUndefined();
  });
});

describe('the plan', () => {
  const link = (extra: Partial<SendRequest> = {}): SendRequest => ({
    sendAs: 'link',
    fileObjects: [file('a.txt')],
    ...extra,
  });
  const tooLarge = file('big.bin', limitsFor('free').uploadLimit + 1);

  it('caps recipients, with the upsell wording for free and the cap for paid plans', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ email: `r${i}@example.com` }));
    const to = (emailTo: SendRequest['emailTo']): SendRequest => ({
      sendAs: 'email',
      emailTo,
      fileObjects: [file('a.txt')],
    });
    const free = refusalOf(to(many(limitsFor('free').emailTo + 1)), facts(user('free')));
    const issue = { path: ['emailTo'], code: 'too_many_recipients', params: { limit: 6, upsell: true } };
    expect(free).toEqual({ code: 'invalid_send', issues: [issue] });
    const pro = refusalOf(to(many(51)), facts(user('pro')));
    expect(pro).toMatchObject({ issues: [{ code: 'too_many_recipients', params: { limit: 50, upsell: false } }] });
    // duplicates are dropped before counting
    expect(sendOf(to([...many(6), ...many(6)]), facts(user('free'))).emailTo).toHaveLength(6);
  });

  it('caps files and bytes per transfer, recordings included', () => {
    const files = Array.from({ length: limitsFor('free').files }, (_, i) => file(`f${i}.txt`));
    const free = facts(user('free'));
    expect(codesOf(link({ fileObjects: files, voiceMemo: [file('memo.webm')] }), free)).toEqual(['too_many_files']);
    expect(codesOf(link({ fileObjects: [tooLarge] }), free)).toEqual(['transfer_too_large']);
    expect(sendOf(link({ fileObjects: [tooLarge] }), facts(user('personal'))).totalBytes).toBe(tooLarge.size);
    expect(codesOf(link({ fileObjects: [] }), facts(user('pro')))).toEqual(['no_files']);
  });

  it('lets free and guests keep files a week only, and paid plans pick a custom date within the bounds', () => {
    const free = facts(user('free'));
    const pro = facts(user('pro'));
    const customAt = (at?: number) =>
      link({ expirySeconds: CUSTOM_DATE_MARKER, ...(at === undefined ? {} : { customExpiryDate: at }) });
    expect(codesOf(link({ expirySeconds: 2629746 }), free)).toEqual(['expiry_not_allowed']);
    expect(codesOf(customAt(NOW + 2 * CUSTOM_EXPIRY_MIN_AHEAD_MS), free)).toEqual(['expiry_not_allowed']);
    expect(codesOf(customAt(), pro)).toEqual(['custom_expiry_required']);
    expect(codesOf(customAt(NOW + 60_000), pro)).toEqual(['expiry_too_soon']);
    expect(codesOf(customAt(NOW + 400 * DAY), pro)).toEqual(['expiry_too_late']);
    const custom = sendOf(customAt(NOW + 3 * DAY), pro);
    const at = NOW + 3 * DAY;
    expect(custom).toMatchObject({ expirySeconds: CUSTOM_DATE_MARKER, customExpiryDate: at, expiryDate: at });
    const preset = sendOf(link({ customExpiryDate: NOW + 3 * DAY }), pro);
    expect(preset.customExpiryDate).toBeUndefined();
    expect(preset.expiryDate).toBe(NOW + DEFAULT_EXPIRY_SECONDS * 1000);
  });

  it('asks a password of at least the minimum length; an empty one is none', () => {
    expect(codesOf(link({ password: 'abc' }), facts(user('pro')))).toEqual(['password_too_short']);
    expect(sendOf(link({ password: '' }), facts(user('pro'))).password).toBeUndefined();
    expect(sendOf(link({ password: 'Long-enough-1' }), facts(user('pro'))).password).toBe('Long-enough-1');
  });

  it('counts what a transfer already holds (add files) against the plan', () => {
    const cap = limitsFor('free').uploadLimit;
    const draft = { ...body({ sendAs: 'link', fileObjects: [file('a.txt', 1000)] }), sendAs: 'link' as const };
    const codes = (existing: { existingBytes?: number; existingFileCount?: number }) =>
      sendIssues(draft, { role: 'free', now: NOW, ...existing }).map((i) => i.code);
    expect(codes({ existingBytes: cap - 1000 })).toEqual([]);
    expect(codes({ existingBytes: cap - 999 })).toEqual(['transfer_too_large']);
    expect(codes({ existingFileCount: 50 })).toEqual(['too_many_files']);
  });
});

describe('guests and file types', () => {
  it("refuses a guest's blocked file in any list, with where it sits", () => {
    const input: SendRequest = {
      sendAs: 'email',
      senderEmail: 'guest@example.com',
      emailTo: [toAda],
      fileObjects: [file('a.txt')],
      voiceMemo: [file('memo.exe')],
    };
    const issue = { path: ['voiceMemo', 0], code: 'file_not_allowed', params: { fileName: 'memo.exe' } };
    expect(refusalOf(input, facts(guest))).toEqual({ code: 'invalid_send', issues: [issue] });
    expect(sendOf({ sendAs: 'link', fileObjects: [file('setup.exe')] }, facts(user('free'))).files).toHaveLength(1);
  });

  it('labels recordings, so the download page plays them, and keeps the order of the lists', () => {
    const input: SendRequest = {
      sendAs: 'link',
      fileObjects: [file('a.txt', 1)],
      recordedVideos: [file('v.webm', 2)],
      voiceMemo: [file('m.webm', 3)],
    };
    const send = sendOf(input, facts(user('pro')));
    const recorded = [
      { ...file('v.webm', 2), recording: 'video' },
      { ...file('m.webm', 3), recording: 'voice' },
    ];
    expect(send.files).toEqual([file('a.txt', 1), ...recorded]);
    expect(send.totalBytes).toBe(6);
  });
});

describe('sharing with the team', () => {
  const link = (shareWith: string[]): SendRequest => ({ sendAs: 'link', fileObjects: [file('a.txt')], shareWith });
  const admin = (mates: string[] = []) => facts(user('business', mates));

  it("shares with the sender's team mates only, each once", () => {
    const shared = sendOf(link(['mate-1', 'mate-1', 'mate-2']), admin(['mate-1', 'mate-2']));
    expect(shared.shareWith).toEqual(['mate-1', 'mate-2']);
    expect(refusalOf(link(['mate-1', 'stranger']), admin(['mate-1']))).toEqual({ code: 'share_not_team' });
    const fromGuest: SendRequest = {
      ...link(['anyone']),
      sendAs: 'email',
      senderEmail: 'guest@example.com',
      emailTo: [toAda],
    };
    expect(refusalOf(fromGuest, facts(guest))).toEqual({ code: 'share_not_team' });
  });

  it('reports the draft problems first: a refused draft is not checked for its shares or sender', () => {
    expect(refusalOf({ ...link(['stranger']), fileObjects: [] }, admin())).toMatchObject({ code: 'invalid_send' });
    const guestLink: SendRequest = { sendAs: 'link', senderEmail: 'other@example.com', fileObjects: [file('a.txt')] };
    expect(refusalOf(guestLink, facts(guest))).toMatchObject({ code: 'invalid_send' });
  });
});

describe('the send form agrees with the routes', () => {
  it('reports the same problems, in the same order, through transferDraftSchema', () => {
    const input: SendRequest = {
      sendAs: 'email',
      senderEmail: 'nope',
      emailTo: [],
      password: 'abc',
      expirySeconds: 2629746,
      fileObjects: [],
    };
    const form = transferDraftSchema({ role: 'free', now: NOW }).safeParse(input);
    expect(form.success).toBe(false);
    const formCodes = form.error!.issues.map((i) => i.message);
    const expected = ['invalid_email', 'email_to_required', 'password_too_short', 'expiry_not_allowed', 'no_files'];
    expect(formCodes).toEqual(expected);
    expect(codesOf(input, facts(user('free')))).toEqual(formCodes);
  });
});

describe('adding files to a sent transfer', () => {
  const existing = [file('a.txt', 10), file('b.txt', 20)];

  it('keeps the new files only, and refuses a call that brings none', () => {
    const added = checkAddFiles([file('a.txt', 10), file('c.txt', 5)], existing, 'pro');
    expect(added).toEqual({ ok: true, files: [file('c.txt', 5)] });
    const none = checkAddFiles([file('a.txt', 10)], existing, 'pro');
    expect(none).toEqual({ ok: false, refusal: { code: 'no_new_files' } });
  });

  it("counts what the transfer holds against the plan's files and bytes", () => {
    const many = Array.from({ length: limitsFor('free').files - existing.length }, (_, i) => file(`n${i}.txt`));
    expect(checkAddFiles(many, existing, 'free').ok).toBe(true);
    const oneMore = checkAddFiles([...many, file('one-more.txt')], existing, 'free');
    expect(oneMore).toMatchObject({ refusal: { code: 'too_many_files' } });
    const fits = file('fits.bin', limitsFor('free').uploadLimit - 30);
    expect(checkAddFiles([fits], existing, 'free').ok).toBe(true);
    const over = { ...fits, size: fits.size + 1 };
    expect(checkAddFiles([over], existing, 'free')).toMatchObject({ refusal: { code: 'transfer_too_large' } });
  });

  it("refuses a guest's blocked file with where it sits", () => {
    const refused = checkAddFiles([file('c.txt'), file('setup.exe')], existing, 'anon');
    const issue = { path: ['fileObjects', 1], code: 'file_not_allowed', params: { fileName: 'setup.exe' } };
    expect(refused).toEqual({ ok: false, refusal: { code: 'file_not_allowed', issue } });
  });
});
