import { describe, expect, it } from 'vitest';
import { requestUploadMail } from '../../../functions/adapters/mail/templates';
import { MAIL_LANGUAGES, type MailLanguage } from '../../../functions/domain/transfer-api';

const EXPIRY = Date.UTC(2026, 10, 21, 6, 5);
const LINK = 'https://app.example.com/dash/requests/Ab3dE5gH';

function render(lang: MailLanguage, overrides: Partial<Parameters<typeof requestUploadMail>[0]> = {}) {
  return requestUploadMail({
    lang,
    requestTitle: 'Signed contract',
    senderName: 'Vera Visitor',
    senderEmail: 'vera@example.com',
    message: 'Here it is.\nThanks!',
    files: [
      { fileName: 'contract.pdf', size: 1_500_000 },
      { fileName: 'photo.jpg', size: 2_000 },
    ],
    expiryDate: EXPIRY,
    requestLink: LINK,
    ...overrides,
  });
}

describe('requestUploadMail', () => {
  it('renders in English: the verified address in the subject, name, message, files and link in the body', () => {
    const mail = render('en');
    expect(mail.subject).toBe('vera@example.com uploaded 2 files to “Signed contract”');
    expect(mail.text).toContain('Vera Visitor uploaded 2 files to “Signed contract”');
    expect(mail.text).toContain('> Here it is.\n> Thanks!');
    expect(mail.text).toContain('contract.pdf');
    expect(mail.text).toContain(LINK);
    expect(mail.text).toContain('The files are available until 21 November 2026 at 06:05 UTC.');
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.html).toContain('View uploads');
  });

  it.each(MAIL_LANGUAGES)('renders in %s with its own copy and no placeholder left', (lang) => {
    const mail = render(lang);
    expect(mail.html).toContain(`<html lang="${lang}"`);
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toMatch(/\{\{|\}\}/u);
      expect(part).toContain('Signed contract');
    }
    if (lang !== 'en') expect(mail.subject).not.toBe(render('en').subject);
  });

  it("escapes the visitor's text and keeps the subject on one line; the typed name never reaches the subject", () => {
    const mail = render('en', {
      senderName: 'SendBridge Security <b>',
      requestTitle: 'Q3\r\nBcc: x@evil.test',
      message: '<script>alert(1)</script>',
      files: [{ fileName: 'a<img src=x>.pdf', size: 1 }],
    });
    expect(mail.subject).not.toMatch(/[\r\n]/u);
    expect(mail.subject).not.toContain('SendBridge Security');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img src=x>');
    expect(mail.html).toContain('&lt;script&gt;');
  });

  it('refuses a link that is not http(s)', () => {
    expect(() => render('en', { requestLink: 'javascript:alert(1)' })).toThrow();
  });
});
