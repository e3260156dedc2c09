import { describe, expect, it } from 'vitest';
import { trialEndingMail } from '../../../functions/adapters/mail/templates';
import { MAIL_LANGUAGES, type MailLanguage } from '../../../functions/domain/transfer-api';

const TRIAL_END = Date.UTC(2026, 10, 21, 6, 5);
const LINK = 'https://app.example.com/?ref=trial_ending';

function render(lang: MailLanguage, overrides: Partial<Parameters<typeof trialEndingMail>[0]> = {}) {
  return trialEndingMail({
    lang,
    planName: 'Pro',
    trialEnd: TRIAL_END,
    amount: 228,
    currency: 'usd',
    period: 'year',
    link: LINK,
    ...overrides,
  });
}

describe('trialEndingMail (trial_will_end)', () => {
  it('says in English when the trial ends, what will be charged, and links to the app', () => {
    const mail = render('en');
    expect(mail.subject).toBe('Your Pro trial ends on 21 November 2026');
    expect(mail.text).toContain(
      'Your SendBridge Pro trial ends on 21 November 2026. Your card will then be charged US$228.00 a year, and your plan continues.',
    );
    expect(mail.text).toContain('log in and open Billing');
    expect(mail.text).toContain(LINK);
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.html).toContain('Review my plan');
  });

  it('a monthly plan says a month; without a price it says only that the card is charged', () => {
    expect(render('en', { amount: 29, period: 'month' }).text).toContain('US$29.00 a month');
    const unknown = render('en', { amount: null, currency: null, period: null }).text;
    expect(unknown).toContain('Your card will then be charged, and your plan continues.');
    expect(unknown).not.toMatch(/\$/u);
  });

  it.each(MAIL_LANGUAGES)('renders in %s with its own copy, the link and no placeholder left', (lang) => {
    const mail = render(lang);
    expect(mail.html).toContain(`<html lang="${lang}"`);
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toMatch(/\{\{|\}\}/u);
      expect(part).toContain('Pro');
    }
    expect(mail.text).toContain(LINK);
    expect(mail.text).toMatch(/228/u);
    if (lang !== 'en') expect(mail.subject).not.toBe(render('en').subject);
  });

  it('refuses a link that is not http(s)', () => {
    expect(() => render('en', { link: 'javascript:alert(1)' })).toThrow();
  });
});
