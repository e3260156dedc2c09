import { describe, expect, it } from 'vitest';
import { DEFAULT_TRANSFER_SETTINGS } from '@domain/auth-api';
import { settingsBody, settingsFormOf } from '@/features/settings/settings-form';
import { GUEST, initialForm, sendAnother } from '@/shared/send-form/send-state';
import { sendDefaultsOf } from '@/shared/send-form/send-defaults';

const defaults = settingsFormOf({});

describe('/dash/settings form', () => {
  it('starts from the defaults, and saves them back as they are', () => {
    expect(defaults).toMatchObject({
      expirySeconds: 604800,
      sendAs: 'email',
      message: '',
      downloadEmails: true,
      expiryReminders: true,
      uploadEmails: true,
      dueDays: '',
      maxMb: '',
    });
    const out = settingsBody(defaults, 'free');
    expect(out).toEqual({
      ok: true,
      body: { transferSettings: DEFAULT_TRANSFER_SETTINGS, requestSettings: { emailOnUpload: true } },
    });
  });

  it('turns the text fields into the request defaults: MB to bytes, extensions cleaned and deduplicated', () => {
    const out = settingsBody(
      {
        ...defaults,
        dueDays: '14',
        maxMb: '2.5',
        allowedTypes: 'PDF, .jpg; pdf  png',
        maxFiles: '20',
        requestMessage: 'Invoices please',
        uploadEmails: false,
      },
      'pro',
    );
    expect(out).toEqual({
      ok: true,
      body: {
        transferSettings: DEFAULT_TRANSFER_SETTINGS,
        requestSettings: {
          defaultMessage: 'Invoices please',
          defaultDueDays: 14,
          defaultRules: { maxBytes: 2_500_000, allowedTypes: ['pdf', 'jpg', 'png'], maxFiles: 20 },
          emailOnUpload: false,
        },
      },
    });
    if (!out.ok) throw new Error('refused');
    const back = settingsFormOf({ requestSettings: out.body.requestSettings });
    expect(back).toMatchObject({
      dueDays: '14',
      maxMb: '2.5',
      allowedTypes: 'pdf, jpg, png',
      maxFiles: '20',
      requestMessage: 'Invoices please',
      uploadEmails: false,
    });
  });

  it('says which fields break the rules of the plan and the schemas', () => {
    const out = settingsBody(
      {
        ...defaults,
        expirySeconds: 2629746,
        dueDays: '0',
        maxMb: '4000',
        maxFiles: '51',
        allowedTypes: 'p.d.f',
        message: 'x'.repeat(281),
      },
      'free',
    );
    expect(out).toEqual({
      ok: false,
      problems: {
        expirySeconds: 'expiry',
        dueDays: 'dueDays',
        maxMb: 'maxMb',
        maxFiles: 'maxFiles',
        allowedTypes: 'types',
        message: 'message',
      },
    });
    expect(settingsBody({ ...defaults, expirySeconds: 2629746, maxFiles: '250' }, 'pro').ok).toBe(true);
    expect(settingsBody({ ...defaults, maxFiles: '2x' }, 'pro')).toEqual({
      ok: false,
      problems: { maxFiles: 'whole' },
    });
  });
});

describe('quick send starts from the saved transfer defaults', () => {
  const pro = { role: 'pro', signedIn: true, email: 'p@example.com' };
  it('prefills expiry, send mode and message', () => {
    const d = sendDefaultsOf({ defaultExpirySeconds: 2629746, defaultSendAs: 'link', defaultMessage: 'Hi' }, pro);
    expect(d).toEqual({ expirySeconds: 2629746, sendAs: 'link', message: 'Hi' });
    // The quick send spreads them over the initial form (quick-send.tsx); they are the form's own fields.
    expect({ ...initialForm(''), ...d }).toMatchObject({
      expirySeconds: 2629746,
      sendAs: 'link',
      message: 'Hi',
      files: [],
      recipients: [],
    });
    expect(Object.keys(d).every((k) => k in initialForm(''))).toBe(true);
    // 'Send Another?' resets the form (spec §4); the defaults are for the first form of a visit.
    expect(sendAnother({ ...initialForm(''), ...d })).toMatchObject({
      expirySeconds: 604800,
      sendAs: 'email',
      message: '',
    });
  });

  it('falls back where the plan or the sender no longer allows the saved value', () => {
    expect(
      sendDefaultsOf({ defaultExpirySeconds: 2629746, defaultSendAs: 'link' }, { role: 'free', signedIn: true }),
    ).toEqual({ expirySeconds: 604800, sendAs: 'link', message: '' });
    expect(sendDefaultsOf({ defaultSendAs: 'link' }, GUEST).sendAs).toBe('email');
    expect(sendDefaultsOf(undefined, pro)).toEqual({ expirySeconds: 604800, sendAs: 'email', message: '' });
  });
});
