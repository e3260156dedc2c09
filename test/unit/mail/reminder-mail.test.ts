import { describe, expect, it } from 'vitest';
import { transferReminderMail, type MailFile, type RenderedMail } from '../../../functions/adapters/mail/templates';
import { MAIL_LANGUAGES, type MailLanguage } from '../../../functions/domain/transfer-api';

const EXPIRY = Date.UTC(2026, 10, 21, 6, 5);
const LINK = 'https://app.example.com/downloads/Ab3dE5g/Rc1pt001';
const FILES: MailFile[] = [
  { fileName: 'brief.pdf', size: 1_500_000 },
  { fileName: 'cut.mov', size: 2_000_000_000 },
];

function reminder(
  lang: MailLanguage,
  overrides: Partial<Parameters<typeof transferReminderMail>[0]> = {},
): RenderedMail {
  return transferReminderMail({
    lang,
    senderEmail: 'alice@example.com',
    senderName: 'Alice Martin',
    files: FILES,
    downloadLink: LINK,
    expiryDate: EXPIRY,
    passwordProtected: false,
    ...overrides,
  });
}

const expected: Record<MailLanguage, { subject: string; intro: string; until: string }> = {
  en: {
    subject: 'Reminder: Alice Martin sent you 2 files',
    intro: "You haven't downloaded these files yet.",
    until: 'The files are available until 21 November 2026 at 06:05 UTC.',
  },
  zh: {
    subject: '提醒：Alice Martin 向你发送了 2 个文件',
    intro: '你还没有下载这些文件。',
    until: '文件可下载至 2026年11月21日 UTC 06:05。',
  },
  fr: {
    subject: 'Rappel : Alice Martin vous a envoyé 2 fichiers',
    intro: 'Vous n’avez pas encore téléchargé ces fichiers.',
    until: 'Les fichiers sont disponibles jusqu’au 21 novembre 2026 à 06:05 UTC.',
  },
  it: {
    subject: 'Promemoria: Alice Martin ti ha inviato 2 file',
    intro: 'Non hai ancora scaricato questi file.',
    until: 'I file sono disponibili fino al 21 novembre 2026 alle ore 06:05 UTC.',
  },
  de: {
    subject: 'Erinnerung: Alice Martin hat Ihnen 2 Dateien geschickt',
    intro: 'Sie haben diese Dateien noch nicht heruntergeladen.',
    until: 'Die Dateien sind bis zum 21. November 2026 um 06:05 UTC verfügbar.',
  },
  es: {
    subject: 'Recordatorio: Alice Martin te ha enviado 2 archivos',
    intro: 'Todavía no has descargado estos archivos.',
    until: 'Los archivos estarán disponibles hasta el 21 de noviembre de 2026 a las 06:05 UTC.',
  },
  ko: {
    subject: '알림: Alice Martin님이 파일 2개을(를) 보냈습니다',
    intro: '아직 이 파일을 다운로드하지 않으셨습니다.',
    until: '파일은 2026년 11월 21일 AM 06:05 UTC까지 다운로드할 수 있습니다.',
  },
  ja: {
    subject: 'リマインダー：Alice Martin さんが 2 件のファイル を送信しました',
    intro: 'これらのファイルはまだダウンロードされていません。',
    until: 'ファイルは 2026年11月21日 06:05 UTC までダウンロードできます。',
  },
};

describe('transferReminderMail', () => {
  it.each(MAIL_LANGUAGES)('renders subject, intro, expiry, link and files in %s', (lang) => {
    const mail = reminder(lang);
    const e = expected[lang];
    expect(mail.subject).toBe(e.subject);
    expect(mail.subject).not.toMatch(/[\r\n]/u);
    expect(mail.html).toContain(`<html lang="${lang}"`);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(e.intro.replace(/'/gu, part === mail.html ? '&#39;' : "'"));
      expect(part).toContain(e.until);
      expect(part).toContain('brief.pdf');
      expect(part).toContain('cut.mov');
    }
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.text).toContain(LINK);
    expect(mail.html.split('<table').length).toBe(mail.html.split('</table>').length);
  });

  it('names the single file, and says when the transfer needs a password', () => {
    const one = reminder('en', { files: [FILES[0]!], passwordProtected: true });
    expect(one.subject).toBe('Reminder: Alice Martin sent you brief.pdf');
    expect(one.text).toContain('This transfer is password protected. Alice Martin will share the password with you.');
    expect(reminder('en').text).not.toContain('password');
  });

  it("escapes a hostile sender name and file name, and names a guest's address rather than their name", () => {
    const mail = reminder('en', {
      senderName: '<img src=x onerror=alert(1)>',
      files: [{ fileName: '<script>x</script>.pdf', size: 1 }],
    });
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.text).toContain('<img src=x onerror=alert(1)>');
    expect(reminder('en', { guest: true, senderName: 'SendBridge Security' }).subject).toBe(
      'Reminder: alice@example.com sent you 2 files',
    );
  });

  it('rejects a link that is not http(s)', () => {
    expect(() => reminder('en', { downloadLink: 'javascript:alert(1)' })).toThrow();
  });
});
