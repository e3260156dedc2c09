import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_DATE_MARKER, DEFAULT_EXPIRY_SECONDS } from '@domain/expiry';
import { GB, HOUR_MS, MINUTE_MS } from '@domain/units';
import { transferDraftSchema } from '@domain/validation';
import { draftRules, loadDraftRules } from '@/shared/send-form/draft-rules';
import {
  GUEST,
  addFiles,
  commitRecipients,
  expiryOptions,
  filesSummary,
  formIssues,
  initialForm,
  offendingField,
  removeFile,
  removeRecipient,
  selectExpiry,
  sendAnother,
  setCustomExpiry,
  setDownloadLimit,
  setMessage,
  setPassword,
  setRecording,
  setSendAs,
  setShareEveryone,
  shareableMembers,
  sharesWithEveryone,
  stepAfterSubmit,
  toDraftInput,
  toggleShare,
  typeRecipients,
  uncheckedIssues,
  verifiedAllowOf,
  withDraftCommitted,
  type SendForm,
  type SenderContext,
} from '@/shared/send-form/send-state';
import type { PickedFile } from '@/shared/upload/picked-files';

const NOW = Date.UTC(2025, 4, 1, 12);

// formIssues checks with the draft schema, which the app loads on first use (draft-rules.ts)
beforeAll(async () => {
  await loadDraftRules();
});
const PRO: SenderContext = { role: 'pro', signedIn: true, email: 'owner@corp.com' };
const FREE: SenderContext = { role: 'free', signedIn: true, email: 'me@corp.com' };

function file(fileName: string, size = 10, itemPath?: string): PickedFile {
  return itemPath ? { fileName, size, itemPath, blob: new Blob(['x']) } : { fileName, size, blob: new Blob(['x']) };
}

/** A guest form that can be sent. */
function readyGuestForm(): SendForm {
  let form = addFiles(initialForm('me@corp.com'), [file('a.pdf')], 'anon').form;
  form = commitRecipients(form, 'bob@example.com', 'anon').form;
  return form;
}

describe('files', () => {
  it('a guest loses .html, .htm and .exe files and tagged pirated videos, each with its reason', () => {
    const { form, removed } = addFiles(
      initialForm(),
      [
        file('page.html'),
        file('setup.EXE'),
        file('Movie.2024.1080p.WEBRip.mp4'),
        file('holiday.mp4'),
        file('notes.txt'),
      ],
      'anon',
    );
    expect(form.files.map((f) => f.fileName)).toEqual(['holiday.mp4', 'notes.txt']);
    expect(removed.map((r) => [r.file.fileName, r.reason])).toEqual([
      ['page.html', 'insecure'],
      ['setup.EXE', 'insecure'],
      ['Movie.2024.1080p.WEBRip.mp4', 'copyright'],
    ]);
  });

  it('a signed-in sender keeps every file type', () => {
    const { form, removed } = addFiles(initialForm(), [file('page.html'), file('setup.exe')], 'free');
    expect(form.files).toHaveLength(2);
    expect(removed).toEqual([]);
  });

  it('drops duplicates by relative path, or by name when there is no path', () => {
    let result = addFiles(initialForm(), [file('a.txt'), file('a.txt', 10, 'photos/a.txt')], 'anon');
    result = addFiles(
      result.form,
      [file('a.txt'), file('a.txt', 10, 'photos/a.txt'), file('a.txt', 10, 'docs/a.txt')],
      'anon',
    );
    expect(result.form.files.map((f) => f.itemPath ?? f.fileName)).toEqual(['a.txt', 'photos/a.txt', 'docs/a.txt']);
    expect(result.duplicates).toHaveLength(2);
  });

  it('removes a file by its relative path or name', () => {
    const form = addFiles(initialForm(), [file('a.txt'), file('a.txt', 1, 'x/a.txt')], 'anon').form;
    expect(removeFile(form, 'x/a.txt').files.map((f) => f.itemPath ?? f.fileName)).toEqual(['a.txt']);
  });

  it("measures the total against the role's upload limit", () => {
    const form = addFiles(initialForm(), [file('big.bin', 2 * GB), file('more.bin', 1 * GB + 1)], 'anon').form;
    expect(filesSummary(form, 'anon')).toEqual({ count: 2, bytes: 3 * GB + 1, limitBytes: 3 * GB, overLimit: true });
    expect(filesSummary(form, 'pro').overLimit).toBe(false);
  });
});

describe('recipients', () => {
  it('adds valid addresses lower-cased and once; invalid text stays in the box and flips the label', () => {
    const { form, overLimit } = commitRecipients(
      initialForm(),
      'Bob@Example.com; bob@example.com, nope ann@x.org',
      'anon',
    );
    expect(form.recipients).toEqual(['bob@example.com', 'ann@x.org']);
    expect(form.recipientDraft).toBe('nope');
    expect(form.recipientInvalid).toBe(true);
    expect(overLimit).toBe(false);
    const again = commitRecipients(form, 'BOB@example.com', 'anon');
    expect(again.form.recipients).toEqual(['bob@example.com', 'ann@x.org']);
    expect(again.form.recipientInvalid).toBe(false);
  });

  it("stops at the role's recipient cap and says so", () => {
    const seven = Array.from({ length: 7 }, (_, i) => `p${i}@x.org`).join(',');
    const guest = commitRecipients(initialForm(), seven, 'anon');
    expect(guest.form.recipients).toHaveLength(6);
    expect(guest.overLimit).toBe(true);
    const full = commitRecipients(guest.form, 'late@x.org', 'anon');
    expect(full.form.recipients).toHaveLength(6);
    expect(full.overLimit).toBe(true);
    const pro = commitRecipients(initialForm(), seven, 'pro');
    expect(pro.form.recipients).toHaveLength(7);
    expect(pro.overLimit).toBe(false);
  });

  it('typing a comma or semicolon commits what is before it and keeps the rest', () => {
    let form = typeRecipients(initialForm(), 'bob@x.org', 'anon').form;
    expect(form.recipients).toEqual([]);
    expect(form.recipientDraft).toBe('bob@x.org');
    form = typeRecipients(form, 'bob@x.org,', 'anon').form;
    expect(form.recipients).toEqual(['bob@x.org']);
    expect(form.recipientDraft).toBe('');
    form = typeRecipients(form, 'ann@x.org; car', 'anon').form;
    expect(form.recipients).toEqual(['bob@x.org', 'ann@x.org']);
    expect(form.recipientDraft).toBe('car');
    expect(form.recipientInvalid).toBe(false);
  });

  it('an invalid entry before a comma stays, ahead of the text still being typed', () => {
    const { form } = typeRecipients(initialForm(), 'oops, ann', 'anon');
    expect(form.recipients).toEqual([]);
    expect(form.recipientDraft).toBe('oops, ann');
    expect(form.recipientInvalid).toBe(true);
  });

  it('committing the text left in the box is a no-op when there is none', () => {
    const form = commitRecipients(initialForm(), 'a@x.org', 'anon').form;
    expect(withDraftCommitted(form, 'anon')).toBe(form);
    expect(withDraftCommitted({ ...form, recipientDraft: 'b@x.org' }, 'anon').recipients).toEqual([
      'a@x.org',
      'b@x.org',
    ]);
  });

  it('removes a chip', () => {
    const form = commitRecipients(initialForm(), 'a@x.org b@x.org', 'anon').form;
    expect(removeRecipient(form, 'a@x.org').recipients).toEqual(['b@x.org']);
  });
});

describe('options', () => {
  it('guests cannot switch to link mode; signed-in senders can', () => {
    expect(setSendAs(initialForm(), 'link', GUEST).sendAs).toBe('email');
    expect(setSendAs(initialForm(), 'link', FREE).sendAs).toBe('link');
  });

  it('free and anon may pick only 1 Week; paid roles every preset and a custom date', () => {
    const allowed = (role: string) =>
      expiryOptions(role)
        .filter((o) => o.allowed)
        .map((o) => o.label);
    expect(allowed('anon')).toEqual(['1 Week']);
    expect(allowed('free')).toEqual(['1 Week']);
    expect(allowed('pro')).toEqual(['1 Week', '1 Month', '3 Months', '1 Year', 'Custom Date']);
    expect(expiryOptions('anon').map((o) => o.seconds)).toEqual([
      604800,
      2629746,
      7889238,
      31536000,
      CUSTOM_DATE_MARKER,
    ]);
  });

  it('a preset the role may not choose is ignored', () => {
    expect(selectExpiry(initialForm(), 2629746, 'free').expirySeconds).toBe(DEFAULT_EXPIRY_SECONDS);
    expect(selectExpiry(initialForm(), CUSTOM_DATE_MARKER, 'anon').expirySeconds).toBe(DEFAULT_EXPIRY_SECONDS);
  });

  it('choosing another preset clears the custom date', () => {
    let form = selectExpiry(initialForm(), CUSTOM_DATE_MARKER, 'pro');
    form = setCustomExpiry(form, NOW + 2 * HOUR_MS);
    expect(form.customExpiryDate).toBe(NOW + 2 * HOUR_MS);
    form = selectExpiry(form, 2629746, 'pro');
    expect(form).toMatchObject({ expirySeconds: 2629746, customExpiryDate: null });
    // A date is only kept while Custom Date is the choice.
    expect(setCustomExpiry(form, NOW + HOUR_MS).customExpiryDate).toBeNull();
  });

  it('lists team members other than the sender, or none when it is just them', () => {
    const member = (id: string, email: string) => ({
      shareWithId: id,
      shareWithEmail: email,
      shareWithFullName: id,
      shareWithProfilePic: '',
    });
    expect(shareableMembers(undefined, 'me@x.org')).toBeNull();
    expect(shareableMembers([member('1', 'ME@x.org')], 'me@x.org')).toBeNull();
    const members = [member('1', 'me@x.org'), member('2', 'ann@x.org'), member('3', 'bob@x.org')];
    const others = shareableMembers(members, 'me@x.org');
    expect(others?.map((m) => m.shareWithId)).toEqual(['2', '3']);

    let form = toggleShare(initialForm(), '2');
    expect(form.shareWith).toEqual(['2']);
    expect(sharesWithEveryone(form, ['2', '3'])).toBe(false);
    form = setShareEveryone(form, ['2', '3'], true);
    expect(sharesWithEveryone(form, ['2', '3'])).toBe(true);
    expect(toggleShare(form, '2').shareWith).toEqual(['3']);
    expect(setShareEveryone(form, ['2', '3'], false).shareWith).toEqual([]);
  });

  it('keeps the message within 280 characters', () => {
    expect(setMessage(initialForm(), 'x'.repeat(300)).message).toHaveLength(280);
  });
});

describe('validity and the field that shakes', () => {
  it('an empty guest form needs files first, then recipients, then the sender email', () => {
    const issues = formIssues(initialForm(), GUEST, NOW);
    expect(issues.map((i) => [i.field, i.code])).toEqual([
      ['files', 'no_files'],
      ['recipients', 'email_to_required'],
      ['senderEmail', 'sender_email_required'],
    ]);
    expect(offendingField(issues)).toBe('files');
  });

  it('once files are in, the recipients field is the one that shakes', () => {
    const form = addFiles(initialForm('me@corp.com'), [file('a.pdf')], 'anon').form;
    expect(offendingField(formIssues(form, GUEST, NOW))).toBe('recipients');
  });

  it('a ready guest form has no issues', () => {
    expect(formIssues(readyGuestForm(), GUEST, NOW)).toEqual([]);
    expect(offendingField([])).toBeNull();
  });

  it('text in the recipient box that is not an address blocks the send', () => {
    const form = commitRecipients(readyGuestForm(), 'not-an-email', 'anon').form;
    expect(formIssues(form, GUEST, NOW)).toEqual([
      { field: 'recipients', code: 'invalid_recipient_text', message: 'Invalid Email To Address' },
    ]);
  });

  it('an address typed but not yet a chip counts, as blur would commit it', () => {
    const typed = typeRecipients(
      addFiles(initialForm('me@corp.com'), [file('a.pdf')], 'anon').form,
      'Bob@Example.com',
      'anon',
    ).form;
    expect(typed.recipients).toEqual([]);
    expect(formIssues(typed, GUEST, NOW)).toEqual([]);
    expect(toDraftInput(typed, GUEST).emailTo).toEqual([{ email: 'bob@example.com' }]);
    const partial = typeRecipients(typed, 'bob@', 'anon').form;
    expect(formIssues(partial, GUEST, NOW).map((i) => [i.field, i.code])).toEqual([
      ['recipients', 'invalid_recipient_text'],
    ]);
  });

  it('an invalid sender email blocks the send', () => {
    const form: SendForm = { ...readyGuestForm(), senderEmail: 'me@' };
    expect(formIssues(form, GUEST, NOW).map((i) => [i.field, i.code])).toEqual([['senderEmail', 'invalid_email']]);
  });

  it('a password of 1 to 3 characters blocks the send; none or 4 is fine', () => {
    expect(formIssues(setPassword(readyGuestForm(), 'abc'), GUEST, NOW).map((i) => [i.field, i.code])).toEqual([
      ['password', 'password_too_short'],
    ]);
    expect(formIssues(setPassword(readyGuestForm(), 'abcd'), GUEST, NOW)).toEqual([]);
    expect(formIssues(setPassword(readyGuestForm(), ''), GUEST, NOW)).toEqual([]);
  });

  it('Custom Date needs a date between 30 minutes and 1 year ahead', () => {
    const base = addFiles(initialForm(), [file('a.pdf')], 'pro').form;
    const linkForm = setSendAs(selectExpiry(base, CUSTOM_DATE_MARKER, 'pro'), 'link', PRO);
    const codes = (form: SendForm) => formIssues(form, PRO, NOW).map((i) => [i.field, i.code]);
    expect(codes(linkForm)).toEqual([['expiry', 'custom_expiry_required']]);
    expect(codes(setCustomExpiry(linkForm, NOW + 29 * MINUTE_MS))).toEqual([['expiry', 'expiry_too_soon']]);
    expect(codes(setCustomExpiry(linkForm, NOW + 366 * 24 * HOUR_MS))).toEqual([['expiry', 'expiry_too_late']]);
    expect(codes(setCustomExpiry(linkForm, NOW + 30 * MINUTE_MS))).toEqual([]);
  });

  it('a signed-in link send needs no recipients', () => {
    const form = setSendAs(addFiles(initialForm(), [file('a.pdf')], 'free').form, 'link', FREE);
    expect(formIssues(form, FREE, NOW)).toEqual([]);
  });

  it('files over the plan limit block the send', () => {
    const form = addFiles(readyGuestForm(), [file('huge.iso', 3 * GB)], 'anon').form;
    expect(formIssues(form, GUEST, NOW).map((i) => [i.field, i.code])).toEqual([['files', 'transfer_too_large']]);
  });

  it('more files than the plan allows block the send', () => {
    const many = Array.from({ length: 50 }, (_, i) => file(`f${i}.txt`));
    const form = addFiles(readyGuestForm(), many, 'anon').form;
    expect(formIssues(form, GUEST, NOW).map((i) => i.code)).toEqual(['too_many_files']);
  });
});

describe('"verified recipients" on the send form', () => {
  it('reads addresses and one domain from the box, however they are separated', () => {
    expect(verifiedAllowOf(' Ana@Example.com, @Acme.example; bo@x.example  ana@example.com ')).toEqual({
      addresses: ['ana@example.com', 'bo@x.example'],
      domain: 'acme.example',
    });
    expect(verifiedAllowOf('acme.example')).toEqual({ addresses: [], domain: 'acme.example' });
    expect(verifiedAllowOf('')).toEqual({ addresses: [] });
  });

  it('sends the option only when ticked, and the server schema accepts it', () => {
    const form = readyGuestForm();
    expect(toDraftInput(form, GUEST).verifiedRecipients).toBeUndefined();
    const draft = toDraftInput({ ...form, verified: true, verifiedAllow: '@acme.example' }, GUEST);
    expect(draft.verifiedRecipients).toEqual({ addresses: [], domain: 'acme.example' });
    const parsed = transferDraftSchema({ role: 'anon', now: NOW }).safeParse(draft);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});

describe('the download limit on the send form', () => {
  it('sends what was typed, and nothing when the field is emptied', () => {
    const form = setDownloadLimit(readyGuestForm(), ' 3 ');
    expect(toDraftInput(form, GUEST).downloadLimit).toBe(3);
    expect(toDraftInput(setDownloadLimit(form, ''), GUEST)).not.toHaveProperty('downloadLimit');
  });

  it('is accepted from 1 to 100 whole downloads, for a guest too, and refused outside', () => {
    const schema = transferDraftSchema({ role: 'anon', now: NOW });
    for (const typed of ['1', '100']) {
      const parsed = schema.safeParse(toDraftInput(setDownloadLimit(readyGuestForm(), typed), GUEST));
      expect(parsed.success, typed).toBe(true);
    }
    for (const typed of ['0', '101', '2.5', '-1']) {
      const parsed = schema.safeParse(toDraftInput(setDownloadLimit(readyGuestForm(), typed), GUEST));
      expect(parsed.success, typed).toBe(false);
      expect(
        parsed.error?.issues.map((i) => i.path.join('.')),
        typed,
      ).toEqual(['downloadLimit']);
    }
  });
});

describe('"request a review" on the send form', () => {
  it('asks for a review only when ticked by a signed-in sender', () => {
    const form = readyGuestForm();
    expect(toDraftInput(form, PRO).review).toBeUndefined();
    expect(toDraftInput({ ...form, review: true }, PRO).review).toBe(true);
    expect(toDraftInput({ ...form, review: false }, FREE).review).toBeUndefined();
    // a guest's send has no review, whatever the form held
    expect(toDraftInput({ ...form, review: true }, GUEST).review).toBeUndefined();
  });
});

describe('the draft sent to the API', () => {
  it('is accepted by the server schema for the sender role', () => {
    const form = addFiles(readyGuestForm(), [file('b.txt', 5, 'docs/b.txt')], 'anon').form;
    const draft = toDraftInput({ ...form, message: 'hi' }, GUEST);
    expect(draft).toMatchObject({
      sendAs: 'email',
      senderEmail: 'me@corp.com',
      message: 'hi',
      emailTo: [{ email: 'bob@example.com' }],
      password: undefined,
      expirySeconds: 604800,
      fileObjects: [
        { fileName: 'a.pdf', size: 10 },
        { fileName: 'b.txt', size: 5, itemPath: 'docs/b.txt' },
      ],
    });
    expect(transferDraftSchema({ role: 'anon', now: NOW }).safeParse(draft).success).toBe(true);
  });

  it('a signed-in sender sends as their account email; link mode mails nobody', () => {
    let form = commitRecipients(addFiles(initialForm(), [file('a.pdf')], 'pro').form, 'ann@x.org', 'pro').form;
    form = setSendAs(form, 'link', PRO);
    const draft = toDraftInput(form, PRO);
    expect(draft.senderEmail).toBe('owner@corp.com');
    expect(draft.emailTo).toEqual([]);
  });

  it("sends 'mail now' only for an email send whose sender ticked it (off by default)", () => {
    const form = addFiles(readyGuestForm(), [file('b.txt', 5)], 'anon').form;
    expect(toDraftInput(form, GUEST)).not.toHaveProperty('mailNow');
    const ticked = toDraftInput({ ...form, mailNow: true }, GUEST);
    expect(ticked.mailNow).toBe(true);
    expect(transferDraftSchema({ role: 'anon', now: NOW }).safeParse(ticked).success).toBe(true);
    const link = setSendAs({ ...commitRecipients(initialForm(), 'ann@x.org', 'pro').form, mailNow: true }, 'link', PRO);
    expect(toDraftInput(link, PRO)).not.toHaveProperty('mailNow');
  });

  it('sends the custom date only while Custom Date is chosen', () => {
    const form = setCustomExpiry(selectExpiry(initialForm(), CUSTOM_DATE_MARKER, 'pro'), NOW + 2 * HOUR_MS);
    expect(toDraftInput(form, PRO)).toMatchObject({
      expirySeconds: CUSTOM_DATE_MARKER,
      customExpiryDate: NOW + 2 * HOUR_MS,
    });
    expect(toDraftInput(selectExpiry(form, 604800, 'pro'), PRO).customExpiryDate).toBeUndefined();
  });
});

describe('steps', () => {
  it('only a guest sending by email verifies first', () => {
    expect(stepAfterSubmit(GUEST, 'email')).toBe('verify');
    expect(stepAfterSubmit(FREE, 'email')).toBe('uploading');
    expect(stepAfterSubmit(FREE, 'link')).toBe('uploading');
  });

  it("'Send Another?' starts a fresh form that sends as email", () => {
    let form = setSendAs(readyGuestForm(), 'link', FREE);
    form = setPassword(setMessage(form, 'x'), 'secret');
    expect(sendAnother(form)).toEqual(initialForm('me@corp.com'));
  });
});

describe('before the draft schema has loaded', () => {
  it('formIssues does not guess without the schema', () => {
    expect(() => formIssues(readyGuestForm(), GUEST, NOW, null)).toThrow(/loadDraftRules/);
  });

  it("the empty form's first render blocks the send for the reason the schema gives first", () => {
    expect(uncheckedIssues(initialForm(), GUEST)).toEqual([
      { field: 'files', code: 'no_files', message: 'Add at least one file' },
    ]);
    expect(uncheckedIssues(initialForm(), GUEST)[0]).toEqual(formIssues(initialForm(), GUEST, NOW)[0]);
    expect(uncheckedIssues(readyGuestForm(), GUEST)).toEqual([]);
  });

  /** A small deterministic generator (mulberry32), so a failure names a reproducible form. */
  function random(seed: number): () => number {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it("every issue it knows is one the schema reports, and without files its first is the schema's first (2,000 forms)", () => {
    const next = random(10);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const senders: SenderContext[] = [GUEST, FREE, PRO, { role: 'business', signedIn: true, email: 'b@corp.com' }];
    const rules = draftRules();
    expect(rules).not.toBeNull();
    let withoutFiles = 0;
    for (let n = 0; n < 2000; n += 1) {
      const sender = pick(senders);
      let form = initialForm(pick(['', 'me@corp.com', 'me@', ' Me@Corp.com ', 'not an address']));
      const fileCount = pick([0, 0, 1, 3, 51]);
      const files = Array.from({ length: fileCount }, (_, i) =>
        file(
          pick(['a.pdf', 'page.html', 'movie.1080p.mp4', 'b.txt']).replace('.', `${i}.`),
          pick([10, 2 * GB, 200 * GB]),
        ),
      );
      form = addFiles(form, files, sender.role).form;
      if (next() < 0.3) form = setRecording(form, 'voice', { fileName: 'memo.webm', blob: new Blob(['v']) });
      if (next() < 0.5)
        form = commitRecipients(
          form,
          pick(['bob@example.com', 'a@x.com, b@y.org', 'nope', 'x@y.com; bad@', '']),
          sender.role,
        ).form;
      if (next() < 0.4)
        form = typeRecipients(form, pick(['carol@example.com', 'car', 'dave@ex.com,', 'bad@,', ' ']), sender.role).form;
      if (next() < 0.3) form = setMessage(form, 'm'.repeat(pick([0, 10, 280, 400])));
      if (next() < 0.3) form = setPassword(form, pick(['', 'ab', 'abcd', 'p'.repeat(300)]));
      if (next() < 0.3) form = setSendAs(form, pick(['link', 'email'] as const), sender);
      if (next() < 0.3)
        form = selectExpiry(form, pick([DEFAULT_EXPIRY_SECONDS, 2629746, CUSTOM_DATE_MARKER]), sender.role);
      if (next() < 0.5)
        form = setCustomExpiry(form, NOW + pick([-HOUR_MS, 10 * MINUTE_MS, 2 * HOUR_MS, 400 * 24 * HOUR_MS]));
      const checked = formIssues(form, sender, NOW, rules);
      const known = uncheckedIssues(form, sender);
      const where = JSON.stringify({
        n,
        role: sender.role,
        form: { ...form, files: form.files.map((f) => [f.fileName, f.size]) },
      });
      for (const issue of known) expect(checked, where).toContainEqual(issue);
      if (form.files.length === 0) {
        withoutFiles += 1;
        expect(known[0], where).toEqual(checked[0]);
      }
    }
    expect(withoutFiles).toBeGreaterThan(500);
  }, 30_000); // 2,000 generated forms: seconds of CPU on a loaded machine
});
