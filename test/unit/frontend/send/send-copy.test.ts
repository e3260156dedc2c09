import { createInstance, type i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_DATE_MARKER, EXPIRY_PRESETS } from '@domain/expiry';
import { TEXTS, removedFileText, sentToText } from '@domain/texts';
import { timeRemainingText } from '@domain/time-remaining';
import { tooManyRecipientsText } from '@domain/validation';
import { CATALOGUE, FALLBACK_NS } from '../../../helpers/catalogues';
import { loadDraftRules } from '@/shared/send-form/draft-rules';
import { expiryKey, issueText } from '@/shared/send-form/labels';
import { PHASE_KEYS, remainingText, warningToast } from '@/shared/upload/progress-text';
import {
  GUEST,
  addFiles,
  commitRecipients,
  formIssues,
  initialForm,
  selectExpiry,
  setCustomExpiry,
  setPassword,
  setSendAs,
  type SendForm,
  type SenderContext,
} from '@/shared/send-form/send-state';
import type { PickedFile } from '@/shared/upload/picked-files';

// The English copy of the send screens is the spec's (functions/domain/texts.ts and friends):
// these tests render en.json through i18next and compare.
let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.init({
    lng: 'en',
    resources: { en: CATALOGUE.en },
    fallbackNS: FALLBACK_NS,
    interpolation: { escapeValue: false },
  });
  // formIssues checks with the draft schema, which the app loads on first use
  await loadDraftRules();
});
// Keys here are built at run time; the typed t() only takes literal keys.
const t = (key: string, options?: Record<string, unknown>): string =>
  (i18n.t as (k: string, o?: Record<string, unknown>) => string)(key, options);

const NOW = Date.UTC(2025, 4, 1, 12);
const file = (fileName: string, size = 10): PickedFile => ({ fileName, size, blob: new Blob(['x']) });

describe('send copy in English', () => {
  it("matches the spec's fixed texts", () => {
    expect(t('send.form.emailToLabel')).toBe(TEXTS.emailToLabel);
    expect(t('send.form.invalidEmailTo')).toBe(TEXTS.invalidEmailTo);
    expect(t('send.form.senderEmailHint')).toBe(TEXTS.senderEmailHint);
    expect(t('send.form.avoidVerifying')).toBe(TEXTS.avoidVerifyingAction);
    expect(t('send.link.reserved')).toBe(TEXTS.linksReserved);
    expect(t('send.sharing.justYou')).toBe(TEXTS.justYou);
    expect(t('send.verify.incorrect')).toBe(TEXTS.incorrectCode);
    expect(t('send.toast.tooManyPeople')).toBe(TEXTS.tooManyPeopleTitle);
    expect(t('send.toast.getTrial')).toBe(TEXTS.getTrialAction);
    expect(t('send.toast.insecureFile')).toBe(TEXTS.insecureFileTitle);
    expect(t('send.toast.fileRemoved')).toBe(TEXTS.copyrightFileTitle);
    expect(t('send.toast.emailSupport')).toBe(TEXTS.emailSupportAction);
    expect(t('send.toast.overTransferLimit')).toBe(TEXTS.overTransferLimitTitle);
    expect(t('send.toast.connectionTrouble')).toBe(TEXTS.connectionTrouble);
    expect(t('send.toast.removedFile', { file: 'page.html' })).toBe(removedFileText('page.html'));
  });

  it('says who the download email went to as the spec does', () => {
    expect(t('send.done.sentTo', { first: 'a@x.org' })).toBe(sentToText(['a@x.org']));
    expect(t('send.done.sentToMore', { first: 'a@x.org', more: 2 })).toBe(
      sentToText(['a@x.org', 'b@x.org', 'c@x.org']),
    );
  });

  it('names the expiry choices with the spec labels', () => {
    for (const preset of EXPIRY_PRESETS) expect(t(`send.expiry.${expiryKey(preset.seconds)}`)).toBe(preset.label);
    expect(t(`send.expiry.${expiryKey(CUSTOM_DATE_MARKER)}`)).toBe('Custom Date');
  });

  it('shows the upload phases and warnings of the spec', () => {
    expect(Object.values(PHASE_KEYS).map((key) => t(key))).toEqual([
      'Getting Ready...',
      'Warming Up...',
      'Transferring...',
      'Resuming Upload...',
      'Almost done...',
    ]);
    const text = (w: Parameters<typeof warningToast>[0]) => {
      const toast = warningToast(w);
      return [t(toast.title), 'message' in toast ? t(toast.body, { message: toast.message }) : t(toast.body)];
    };
    expect(text({ kind: 'retrying', tryNumber: 2 })).toEqual(['Slow network', 'We are retrying...']);
    expect(text({ kind: 'network', message: 'Failed to fetch' })).toEqual([
      'Retrying',
      'Network error ~ Failed to fetch',
    ]);
    expect(text({ kind: 'file-locked', fileName: 'a.psd' })).toEqual([
      'File is locked',
      'Make sure your file is not in use',
    ]);
    expect(t('send.toast.couldNotSend')).toBe('Could not send Data');
    expect([t('send.toast.connectionError'), t('send.toast.resumeWithin')]).toEqual([
      'Connection error',
      'You can resume this transfer within 7 days',
    ]);
    expect([t('send.toast.uploadCancelled'), t('send.toast.youAborted')]).toEqual([
      'Upload cancelled',
      'You aborted the upload.',
    ]);
    expect([t('send.progress.confirm'), t('send.progress.yes'), t('send.progress.no')]).toEqual([
      'Cancel this transfer?',
      'Yes',
      'No',
    ]);
    expect([t('send.done.title'), t('send.done.copied'), t('send.done.sendAnother'), t('send.done.keepFiles')]).toEqual(
      ["You're all done!", 'Link Copied!', 'Send Another?', 'Keep these files for later?'],
    );
    expect([t('send.form.submitLink'), t('send.form.submitEmail')]).toEqual(['Get Link', 'Transfer']);
  });

  it('says the time remaining exactly as the domain does, at every threshold', () => {
    const seconds = [
      null,
      -1,
      0,
      1,
      29.9,
      30,
      59,
      60,
      89,
      90,
      61 * 60,
      3599,
      3600,
      5400,
      23 * 3600,
      24 * 3600 - 1,
      86400,
      3 * 86400,
      40 * 86400,
    ];
    for (const s of seconds) {
      const r = remainingText(s === null ? null : s * 1000);
      expect('count' in r ? t(r.key, { count: r.count }) : t(r.key), String(s)).toBe(timeRemainingText(s));
    }
  });

  it("translates every validation issue to the domain's own message", () => {
    const pro: SenderContext = { role: 'pro', signedIn: true, email: 'me@x.org' };
    const ready = commitRecipients(
      addFiles(initialForm('me@x.org'), [file('a.pdf')], 'anon').form,
      'b@x.org',
      'anon',
    ).form;
    const custom = setSendAs(
      selectExpiry(addFiles(initialForm(), [file('a.pdf')], 'pro').form, CUSTOM_DATE_MARKER, 'pro'),
      'link',
      pro,
    );
    const cases: [SendForm, SenderContext][] = [
      [initialForm(), GUEST],
      [{ ...ready, senderEmail: 'bad' }, GUEST],
      [setPassword(ready, 'ab'), GUEST],
      [addFiles(ready, [file('huge.iso', 4e9)], 'anon').form, GUEST],
      [
        addFiles(
          ready,
          Array.from({ length: 60 }, (_, i) => file(`${i}.txt`)),
          'anon',
        ).form,
        GUEST,
      ],
      [commitRecipients(ready, 'nope', 'anon').form, GUEST],
      [custom, pro],
      [setCustomExpiry(custom, NOW + 60_000), pro],
      [setCustomExpiry(custom, NOW + 400 * 86_400_000), pro],
    ];
    const seen = new Set<string>();
    for (const [form, sender] of cases) {
      for (const issue of formIssues(form, sender, NOW)) {
        const { key, params } = issueText(issue, sender.role);
        expect(t(key, params), issue.code).toBe(issue.message);
        seen.add(issue.code);
      }
    }
    expect([...seen].sort()).toEqual(
      [
        'custom_expiry_required',
        'email_to_required',
        'expiry_too_late',
        'expiry_too_soon',
        'invalid_email',
        'invalid_recipient_text',
        'no_files',
        'password_too_short',
        'sender_email_required',
        'too_many_files',
        'transfer_too_large',
      ].sort(),
    );
  });

  it("words 'too many people' for the role as the domain does", () => {
    for (const role of ['anon', 'free', 'personal', 'pro', 'teamelite']) {
      const { key, params } = issueText({ code: 'too_many_recipients' }, role);
      expect(t(key, params), role).toBe(tooManyRecipientsText(role));
    }
    expect(t(issueText({ code: 'links_reserved' }, 'anon').key)).toBe(TEXTS.linksReserved);
    expect(t(issueText({ code: 'expiry_not_allowed' }, 'anon').key)).toBe(TEXTS.expiryNotAllowed);
    expect(t(issueText({ code: 'message_too_long' }, 'anon').key)).toBe(TEXTS.messageTooLong);
  });
});
