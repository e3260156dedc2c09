import { describe, expect, it } from 'vitest';
import {
  downloadNoticeMail,
  extensionGrantedMail,
  extensionRequestMail,
  passwordResetMail,
  senderCodeMail,
  transferMail,
  transferSentMail,
  type MailFile,
  type RenderedMail,
} from '../../../functions/adapters/mail/templates';
import { UnsafeLinkError } from '../../../functions/adapters/mail/layout';
import { MAIL_LANGUAGES, mailLanguageOf, type MailLanguage } from '../../../functions/domain/transfer-api';

const EXPIRY = Date.UTC(2026, 10, 21, 6, 5);
const LINK = 'https://app.example.com/downloads/Ab3dE5g/Rc1pt001';
const DASH_LINK = 'https://app.example.com/dash/transfers/Ab3dE5g';
const APPROVE_LINK = 'https://app.example.com/extension/tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDE';
const FILES: MailFile[] = [
  { fileName: 'brief.pdf', size: 1_500_000 },
  { fileName: 'photos/cover.jpg', size: 3_000_000 },
  { fileName: 'cut.mov', size: 2_000_000_000 },
];
const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_MESSAGE = 'hello</table><script>alert(1)</script>';

/** Between a label and its value in the text part. */
const COLON: Record<MailLanguage, string> = {
  en: ':',
  es: ':',
  fr: '\u00a0:',
  de: ':',
  zh: '：',
  it: ':',
  ko: ':',
  ja: '：',
};

/** The expiry date as each language writes it, in UTC. */
const EXPIRY_TEXT: Record<MailLanguage, string> = {
  en: '21 November 2026 at 06:05 UTC',
  es: '21 de noviembre de 2026 a las 06:05 UTC',
  fr: '21 novembre 2026 à 06:05 UTC',
  de: '21. November 2026 um 06:05 UTC',
  zh: '2026年11月21日 UTC 06:05',
  it: '21 novembre 2026 alle ore 06:05 UTC',
  ko: '2026년 11월 21일 AM 06:05 UTC',
  ja: '2026年11月21日 06:05 UTC',
};

function transfer(lang: MailLanguage, overrides: Partial<Parameters<typeof transferMail>[0]> = {}): RenderedMail {
  return transferMail({
    lang,
    senderEmail: 'alice@example.com',
    senderName: 'Alice Martin',
    message: 'Here are the files.\nSee you Monday.',
    files: FILES,
    downloadLink: LINK,
    expiryDate: EXPIRY,
    passwordProtected: false,
    ...overrides,
  });
}

function expectWellFormed(mail: RenderedMail, lang: MailLanguage): void {
  expect(mail.subject).not.toMatch(/[\r\n]/u);
  expect(mail.subject.length).toBeGreaterThan(0);
  expect(mail.html).toMatch(/^<!DOCTYPE html>/u);
  expect(mail.html).toContain(`<html lang="${lang}"`);
  expect(mail.html).toContain('<meta charset="utf-8">');
  expect(mail.html).toContain('max-width:600px');
  expect(mail.html).toContain('SendBridge');
  expect(mail.html).not.toContain('<img');
  // every table the layout opens is closed: user text cannot have broken the structure
  expect(mail.html.split('<table').length).toBe(mail.html.split('</table>').length);
  // the text part carries no layout markup
  expect(mail.text).not.toMatch(/<(table|td|p|a|br|strong|span)\b/u);
}

describe('transferMail', () => {
  const expected: Record<MailLanguage, { subject: string; button: string; size: string; footer: string }> = {
    en: {
      subject: 'Alice Martin sent you 3 files via SendBridge',
      button: 'Download files',
      size: '3 files · 2\u00a0GB',
      footer: 'You received this email because Alice Martin sent you files with SendBridge.',
    },
    es: {
      subject: 'Alice Martin te ha enviado 3 archivos con SendBridge',
      button: 'Descargar archivos',
      size: '3 archivos · 2\u00a0GB',
      footer: 'Recibes este correo porque Alice Martin te ha enviado archivos con SendBridge.',
    },
    fr: {
      subject: 'Alice Martin vous a envoyé 3 fichiers via SendBridge',
      button: 'Télécharger les fichiers',
      size: '3 fichiers · 2\u00a0Go',
      footer: 'Vous recevez cet e-mail car Alice Martin vous a envoyé des fichiers avec SendBridge.',
    },
    de: {
      subject: 'Alice Martin hat Ihnen 3 Dateien über SendBridge geschickt',
      button: 'Dateien herunterladen',
      size: '3 Dateien · 2\u00a0GB',
      footer: 'Sie erhalten diese E-Mail, weil Alice Martin Ihnen über SendBridge Dateien geschickt hat.',
    },
    zh: {
      subject: 'Alice Martin 通过 SendBridge 向你发送了 3 个文件',
      button: '下载文件',
      size: '3 个文件 · 2\u00a0GB',
      footer: '你收到这封邮件，是因为 Alice Martin 通过 SendBridge 向你发送了文件。',
    },
    it: {
      subject: 'Alice Martin ti ha inviato 3 file con SendBridge',
      button: 'Scarica i file',
      size: '3 file · 2\u00a0GB',
      footer: 'Ricevi questa email perché Alice Martin ti ha inviato dei file con SendBridge.',
    },
    ko: {
      subject: 'Alice Martin님이 SendBridge로 파일 3개을(를) 보냈습니다',
      button: '파일 다운로드',
      size: '파일 3개 · 2\u00a0GB',
      footer: 'Alice Martin님이 SendBridge로 파일을 보냈기 때문에 이 이메일을 받으셨습니다.',
    },
    ja: {
      subject: 'Alice Martin さんが SendBridge で 3 件のファイル を送信しました',
      button: 'ファイルをダウンロード',
      size: '3 件のファイル · 2\u00a0GB',
      footer: 'Alice Martin さんが SendBridge でファイルを送信したため、このメールをお送りしています。',
    },
  };

  it.each(MAIL_LANGUAGES)('renders every part in %s', (lang) => {
    const mail = transfer(lang);
    const e = expected[lang];
    expectWellFormed(mail, lang);
    expect(mail.subject).toBe(e.subject);
    expectBoth(
      mail,
      'alice@example.com',
      e.button,
      e.size,
      EXPIRY_TEXT[lang],
      e.footer,
      ...FILES.map((f) => f.fileName),
    );
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.html).toContain('Here are the files.<br>See you Monday.');
    expect(mail.text).toContain(LINK);
    expect(mail.text).toContain('> Here are the files.\n> See you Monday.');
  });

  it('writes sizes with the language decimal separator and units', () => {
    const one = [{ fileName: 'a.bin', size: 1_500_000 }];
    expect(transfer('en', { files: one }).text).toContain('a.bin (1.5\u00a0MB)');
    expect(transfer('de', { files: one }).text).toContain('a.bin (1,5\u00a0MB)');
    expect(transfer('es', { files: one }).text).toContain('a.bin (1,5\u00a0MB)');
    expect(transfer('fr', { files: one }).text).toContain('a.bin (1,5\u00a0Mo)');
  });

  it('names the single file in the subject', () => {
    const mail = transfer('en', { files: [{ fileName: 'quarterly report.xlsx', size: 42_000 }] });
    expect(mail.subject).toBe('Alice Martin sent you quarterly report.xlsx via SendBridge');
    expect(mail.text).toContain('1 file · 42\u00a0KB');
  });

  it('uses the sender email when there is no name and does not repeat it', () => {
    const mail = transfer('en', { senderName: '' });
    expect(mail.subject).toBe('alice@example.com sent you 3 files via SendBridge');
    expect(mail.text.startsWith('alice@example.com sent you 3 files\n\n')).toBe(true);
  });

  it('says the link needs a password from the sender only when protected', () => {
    const words: Record<MailLanguage, string> = {
      en: 'This transfer is password protected. Alice Martin will share the password with you.',
      es: 'Este envío está protegido con contraseña. Alice Martin te la facilitará por separado.',
      fr: 'Ce transfert est protégé par un mot de passe\u00a0: Alice Martin vous le communiquera.',
      de: 'Diese Übertragung ist passwortgeschützt. Das Passwort erhalten Sie separat von Alice Martin.',
      zh: '此传输受密码保护。Alice Martin 会将密码告诉你。',
      it: 'Questo trasferimento è protetto da password. Alice Martin ti comunicherà la password.',
      ko: '이 전송은 비밀번호로 보호되어 있습니다. 비밀번호는 Alice Martin님이 알려 드립니다.',
      ja: 'この転送はパスワードで保護されています。パスワードは Alice Martin さんからお知らせします。',
    };
    for (const lang of MAIL_LANGUAGES) {
      const locked = transfer(lang, { passwordProtected: true });
      expectBoth(locked, words[lang]);
      expect(transfer(lang).text).not.toContain(words[lang]);
    }
  });

  it('says an end-to-end encrypted transfer needs a passphrase given another way, and never carries one', () => {
    for (const lang of MAIL_LANGUAGES) {
      const sealed = transfer(lang, { passphraseNeeded: true });
      const plain = transfer(lang);
      // the sentence is there in both parts, and names the sender who gives the passphrase
      const extra = sealed.text.split('\n').filter((line) => !plain.text.split('\n').includes(line));
      expect(extra.join(' '), lang).toContain('Alice Martin');
      expect(sealed.html, lang).toContain(extra.join(' ').replace(/'/gu, '&#39;').slice(0, 20));
    }
    expectBoth(
      transfer('en', { passphraseNeeded: true }),
      'This transfer is end-to-end encrypted: to open it you need the passphrase Alice Martin gives you another way, never by email.',
    );
  });

  it('leaves out the message block when the message is empty or blank', () => {
    for (const message of ['', '  \n ', undefined]) {
      const mail = transfer('en', { message });
      expect(mail.text).not.toContain('Message:');
      expect(mail.html).not.toContain('border-left:4px');
    }
    expect(transfer('en').text).toContain('Message:\n> Here are the files.');
  });

  it('keeps line breaks of a CRLF message as single breaks', () => {
    const mail = transfer('en', { message: 'one\r\ntwo\rthree' });
    expect(mail.text).toContain('> one\n> two\n> three');
    expect(mail.html).toContain('one<br>two<br>three');
  });

  it("names a guest's verified address in the subject, never the name the guest typed", () => {
    const mail = transfer('en', { senderName: 'SendBridge Security Team', guest: true });
    expect(mail.subject).toBe('alice@example.com sent you 3 files via SendBridge');
    expect(mail.text).toContain('alice@example.com');
    expect(transfer('en', { senderName: 'Alice Martin' }).subject).toBe('Alice Martin sent you 3 files via SendBridge');
  });

  it('quotes the message in the text part line by line', () => {
    expect(transfer('en').text).toContain('Message:\n> Here are the files.\n> See you Monday.');
  });

  it('escapes a hostile sender name and message in html and keeps them plain in text', () => {
    const mail = transfer('en', { senderName: HOSTILE_NAME, message: HOSTILE_MESSAGE });
    expectWellFormed(mail, 'en');
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('</table><script>');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('hello&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // the title and hidden preheader are escaped too
    expect(mail.html).toContain('<title>&lt;img src=x onerror=alert(1)&gt; sent you 3 files via SendBridge</title>');
    expect(mail.subject).toBe(`${HOSTILE_NAME} sent you 3 files via SendBridge`);
    expect(mail.text.startsWith(`${HOSTILE_NAME} sent you 3 files`)).toBe(true);
    expect(mail.text).toContain(HOSTILE_MESSAGE);
  });

  it('escapes hostile file names', () => {
    const mail = transfer('en', { files: [{ fileName: '"><svg onload=alert(1)>.pdf', size: 10 }] });
    expect(mail.html).not.toContain('<svg');
    expect(mail.html).toContain('&quot;&gt;&lt;svg onload=alert(1)&gt;.pdf');
    expect(mail.text).toContain('"><svg onload=alert(1)>.pdf');
  });

  it('strips CR/LF from values that reach the subject', () => {
    const mail = transfer('en', {
      senderName: 'Alice\r\nBcc: victim@example.com',
      files: [{ fileName: 'a\nb.txt', size: 1 }],
    });
    expect(mail.subject).toBe('Alice Bcc: victim@example.com sent you a b.txt via SendBridge');
    expect(mail.html).not.toMatch(/Alice\r?\nBcc/u);
  });

  it('removes bidi override and isolate characters from names everywhere', () => {
    const spoof = 'invoice\u202Efdp.exe';
    const mail = transfer('en', {
      senderName: 'Bob\u2066\u2069 \u202BAdmin\u202C',
      files: [{ fileName: spoof, size: 1 }],
    });
    for (const part of [mail.subject, mail.html, mail.text]) {
      expect(part).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
      expect(part).toContain('invoicefdp.exe');
      expect(part).toContain('Bob Admin');
    }
  });

  it("lists 20 files and says 'and N more' for the rest", () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      fileName: `file-${String(i).padStart(2, '0')}.raw`,
      size: 1000,
    }));
    const more: Record<MailLanguage, string> = {
      en: 'and 5 more',
      es: 'y 5 más',
      fr: 'et 5 autres',
      de: 'und 5 weitere',
      zh: '另外 5 个',
      it: 'e altri 5',
      ko: '외 5개',
      ja: 'ほか 5 件',
    };
    const counts: Record<MailLanguage, string> = {
      en: '25 files',
      es: '25 archivos',
      fr: '25 fichiers',
      de: '25 Dateien',
      zh: '25 个文件',
      it: '25 file',
      ko: '파일 25개',
      ja: '25 件のファイル',
    };
    for (const lang of MAIL_LANGUAGES) {
      const mail = transfer(lang, { files: many });
      for (const part of [mail.html, mail.text]) {
        expect(part).toContain('file-19.raw');
        expect(part).not.toContain('file-20.raw');
        expect(part).toContain(more[lang]);
        expect(part).toContain(counts[lang]);
      }
    }
    expect(transfer('en', { files: many.slice(0, 20) }).text).not.toContain('more');
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://files.example.com/x',
    '/w/Ab3dE5g',
    'not a url',
    'https://user:pw@example.com/',
  ])('rejects the link %j', (downloadLink) => {
    expect(() => transfer('en', { downloadLink })).toThrow(UnsafeLinkError);
  });

  it('escapes ampersands in the link attribute and keeps them raw in text', () => {
    const link = 'https://app.example.com/d/Ab3dE5g?a=1&b="2"';
    const mail = transfer('en', { downloadLink: link });
    expect(mail.html).toContain('href="https://app.example.com/d/Ab3dE5g?a=1&amp;b=%222%22"');
    expect(mail.text).toContain('https://app.example.com/d/Ab3dE5g?a=1&b=%222%22');
  });

  it('falls back to English for a language without mail copy', () => {
    const mail = transfer(mailLanguageOf('pt-BR'));
    expect(mail.subject).toBe('Alice Martin sent you 3 files via SendBridge');
    expect(mail.html).toContain('<html lang="en"');
    expect(transfer(mailLanguageOf('de-AT')).subject).toBe(
      'Alice Martin hat Ihnen 3 Dateien über SendBridge geschickt',
    );
    // a raw value that bypassed mailLanguageOf still gets English rather than a crash
    expect(transfer('pt' as MailLanguage).subject).toBe('Alice Martin sent you 3 files via SendBridge');
  });

  it('rejects a date that is not epoch milliseconds', () => {
    expect(() => transfer('en', { expiryDate: Number.NaN })).toThrow(RangeError);
  });
});

describe('transferSentMail', () => {
  const sent = (lang: MailLanguage, recipients = ['bob@example.com', 'carol@example.com', 'dan@example.com']) =>
    transferSentMail({ lang, recipients, files: FILES, downloadLink: LINK, expiryDate: EXPIRY });

  const expected: Record<MailLanguage, { subject: string; notify: string; one: string }> = {
    en: {
      subject: 'Your files were sent to bob@example.com and 2 others',
      notify: "We'll let you know when your files get downloaded.",
      one: 'Your files were sent to bob@example.com',
    },
    es: {
      subject: 'Tus archivos se han enviado a bob@example.com y 2 personas más',
      notify: 'Te avisaremos cuando se descarguen tus archivos.',
      one: 'Tus archivos se han enviado a bob@example.com',
    },
    fr: {
      subject: 'Vos fichiers ont été envoyés à bob@example.com et 2 autres destinataires',
      notify: 'Nous vous préviendrons dès que vos fichiers seront téléchargés.',
      one: 'Vos fichiers ont été envoyés à bob@example.com',
    },
    de: {
      subject: 'Ihre Dateien wurden an bob@example.com und 2 weitere Empfänger gesendet',
      notify: 'Wir sagen Ihnen Bescheid, sobald Ihre Dateien heruntergeladen werden.',
      one: 'Ihre Dateien wurden an bob@example.com gesendet',
    },
    zh: {
      subject: '你的文件已发送给 bob@example.com 和另外 2 人',
      notify: '文件被下载时，我们会通知你。',
      one: '你的文件已发送给 bob@example.com',
    },
    it: {
      subject: 'I tuoi file sono stati inviati a bob@example.com e ad altre 2 persone',
      notify: 'Ti avviseremo quando i tuoi file verranno scaricati.',
      one: 'I tuoi file sono stati inviati a bob@example.com',
    },
    ko: {
      subject: '파일을 bob@example.com님 외 2명에게 보냈습니다',
      notify: '파일이 다운로드되면 알려 드리겠습니다.',
      one: '파일을 bob@example.com님에게 보냈습니다',
    },
    ja: {
      subject: 'ファイルを bob@example.com ほか 2 名に送信しました',
      notify: 'ファイルがダウンロードされたらお知らせします。',
      one: 'ファイルを bob@example.com に送信しました',
    },
  };

  it.each(MAIL_LANGUAGES)('confirms the send in %s', (lang) => {
    const mail = sent(lang);
    expectWellFormed(mail, lang);
    expect(mail.subject).toBe(expected[lang].subject);
    expect(sent(lang, ['bob@example.com']).subject).toBe(expected[lang].one);
    expectBoth(
      mail,
      'bob@example.com',
      'carol@example.com',
      'dan@example.com',
      'cut.mov',
      EXPIRY_TEXT[lang],
      expected[lang].notify,
    );
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.text).toContain(LINK);
  });

  it("shortens a long recipient list with 'and N more'", () => {
    const recipients = Array.from({ length: 25 }, (_, i) => `r${i}@example.com`);
    const mail = sent('en', recipients);
    expect(mail.subject).toBe('Your files were sent to r0@example.com and 24 others');
    expect(mail.text).toContain('- r19@example.com\nand 5 more');
    expect(mail.html).not.toContain('r20@example.com');
  });

  it('escapes a hostile recipient address', () => {
    const mail = sent('en', [`${HOSTILE_NAME}@example.com`]);
    expect(mail.html).not.toContain('<img');
    expect(mail.text).toContain(`${HOSTILE_NAME}@example.com`);
  });

  it('refuses to confirm a send with no recipients', () => {
    expect(() => sent('en', [])).toThrow(/recipients/u);
  });

  it('rejects a non-http link', () => {
    expect(() =>
      transferSentMail({
        lang: 'en',
        recipients: ['b@example.com'],
        files: FILES,
        downloadLink: 'javascript:void(0)',
        expiryDate: EXPIRY,
      }),
    ).toThrow(UnsafeLinkError);
  });
});

describe('senderCodeMail', () => {
  const expected: Record<MailLanguage, { subject: string; validity: string }> = {
    en: { subject: '48213 is your SendBridge verification code', validity: 'The code is valid for 15 minutes.' },
    es: {
      subject: '48213 es tu código de verificación de SendBridge',
      validity: 'El código es válido durante 15 minutos.',
    },
    fr: { subject: '48213 est votre code de vérification SendBridge', validity: 'Ce code est valable 15 minutes.' },
    de: { subject: '48213 ist Ihr SendBridge-Bestätigungscode', validity: 'Der Code ist 15 Minuten lang gültig.' },
    zh: { subject: '48213 是你的 SendBridge 验证码', validity: '验证码在 15 分钟内有效。' },
    it: { subject: '48213 è il tuo codice di verifica SendBridge', validity: 'Il codice è valido per 15 minuti.' },
    ko: { subject: 'SendBridge 인증 코드: 48213', validity: '코드는 15분 동안 유효합니다.' },
    ja: { subject: 'SendBridge の確認コード：48213', validity: 'このコードの有効期限は 15 分です。' },
  };

  it.each(MAIL_LANGUAGES)('shows the code and how long it lasts in %s', (lang) => {
    const mail = senderCodeMail({ lang, code: '48213', validMinutes: 15 });
    expectWellFormed(mail, lang);
    expect(mail.subject).toBe(expected[lang].subject);
    expectBoth(mail, '48213', expected[lang].validity);
  });

  it('uses the singular for one minute', () => {
    expect(senderCodeMail({ lang: 'en', code: '48213', validMinutes: 1 }).text).toContain('valid for 1 minute.');
    expect(senderCodeMail({ lang: 'de', code: '48213', validMinutes: 1 }).text).toContain('1 Minute lang');
  });

  it('rejects a code that is not letters and digits, and a bad validity', () => {
    expect(() => senderCodeMail({ lang: 'en', code: '12\r\n345', validMinutes: 15 })).toThrow();
    expect(() => senderCodeMail({ lang: 'en', code: '<b>1</b>', validMinutes: 15 })).toThrow();
    expect(() => senderCodeMail({ lang: 'en', code: '48213', validMinutes: 0 })).toThrow(RangeError);
  });
});

describe('downloadNoticeMail', () => {
  const AT = Date.UTC(2026, 0, 2, 9, 30);
  const notice = (lang: MailLanguage, overrides: Partial<Parameters<typeof downloadNoticeMail>[0]> = {}) =>
    downloadNoticeMail({
      lang,
      downloaderEmail: 'bob@example.com',
      fileName: 'cut.mov',
      downloadedAt: AT,
      country: 'DE',
      transferLink: DASH_LINK,
      ...overrides,
    });

  const expected: Record<
    MailLanguage,
    { subject: string; when: string; country: string; someoneAll: string; unknown: string }
  > = {
    en: {
      subject: 'bob@example.com downloaded cut.mov',
      when: '2 January 2026 at 09:30 UTC',
      country: 'Germany',
      someoneAll: 'Someone downloaded all files (ZIP)',
      unknown: 'An unknown location',
    },
    es: {
      subject: 'bob@example.com ha descargado cut.mov',
      when: '2 de enero de 2026 a las 09:30 UTC',
      country: 'Alemania',
      someoneAll: 'Alguien ha descargado todos los archivos (ZIP)',
      unknown: 'Ubicación desconocida',
    },
    fr: {
      subject: 'bob@example.com a téléchargé cut.mov',
      when: '2 janvier 2026 à 09:30 UTC',
      country: 'Allemagne',
      someoneAll: 'Quelqu’un a téléchargé tous les fichiers (ZIP)',
      unknown: 'Lieu inconnu',
    },
    de: {
      subject: 'bob@example.com hat cut.mov heruntergeladen',
      when: '2. Januar 2026 um 09:30 UTC',
      country: 'Deutschland',
      someoneAll: 'Jemand hat alle Dateien (ZIP) heruntergeladen',
      unknown: 'Unbekannter Ort',
    },
    zh: {
      subject: 'bob@example.com 下载了 cut.mov',
      when: '2026年1月2日 UTC 09:30',
      country: '德国',
      someoneAll: '有人 下载了 全部文件（ZIP）',
      unknown: '未知地点',
    },
    it: {
      subject: 'bob@example.com ha scaricato cut.mov',
      when: '2 gennaio 2026 alle ore 09:30 UTC',
      country: 'Germania',
      someoneAll: 'Qualcuno ha scaricato tutti i file (ZIP)',
      unknown: 'Luogo sconosciuto',
    },
    ko: {
      subject: 'bob@example.com님이 cut.mov을(를) 다운로드했습니다',
      when: '2026년 1월 2일 AM 09:30 UTC',
      country: '독일',
      someoneAll: '익명의 사용자님이 모든 파일(ZIP)을(를) 다운로드했습니다',
      unknown: '알 수 없는 위치',
    },
    ja: {
      subject: 'bob@example.com が cut.mov をダウンロードしました',
      when: '2026年1月2日 09:30 UTC',
      country: 'ドイツ',
      someoneAll: '誰か が すべてのファイル（ZIP） をダウンロードしました',
      unknown: '不明な場所',
    },
  };

  it.each(MAIL_LANGUAGES)('says who downloaded what, when and where in %s', (lang) => {
    const mail = notice(lang);
    const e = expected[lang];
    expectWellFormed(mail, lang);
    expect(mail.subject).toBe(e.subject);
    expectBoth(mail, 'bob@example.com', 'cut.mov', e.when, e.country);
    expect(mail.html).toContain(`href="${DASH_LINK}"`);
    expect(mail.text).toContain(DASH_LINK);
  });

  it.each(MAIL_LANGUAGES)("falls back to 'Someone', all files and an unknown location in %s", (lang) => {
    const mail = notice(lang, { downloaderEmail: undefined, fileName: undefined, country: undefined });
    expect(mail.subject).toBe(expected[lang].someoneAll);
    expect(mail.text).toContain(expected[lang].unknown);
    expect(mail.html).toContain(escapeForTest(expected[lang].unknown));
  });

  it('treats Unknown and the unknown country codes as an unknown location and keeps a country name', () => {
    for (const country of ['Unknown', 'XX', 'ZZ', '', 'QQ'])
      expect(notice('en', { country }).text).toContain('Where: An unknown location');
    expect(notice('en', { country: 'Switzerland' }).text).toContain('Where: Switzerland');
    expect(notice('en', { country: 'hk' }).text).toContain('Where: Hong Kong');
  });

  it('escapes a hostile file name and downloader', () => {
    const mail = notice('en', {
      fileName: HOSTILE_NAME,
      downloaderEmail: `${HOSTILE_NAME}@x.com`,
      country: '<b>DE</b>',
    });
    expectWellFormed(mail, 'en');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.subject).toBe(`${HOSTILE_NAME}@x.com downloaded ${HOSTILE_NAME}`);
  });

  it('rejects a non-http transfer link', () => {
    expect(() => notice('en', { transferLink: 'vbscript:msgbox(1)' })).toThrow(UnsafeLinkError);
  });
});

describe('extensionRequestMail', () => {
  const EXPIRED = Date.UTC(2026, 2, 1, 12, 0);
  const request = (lang: MailLanguage, overrides: Partial<Parameters<typeof extensionRequestMail>[0]> = {}) =>
    extensionRequestMail({
      lang,
      requesterEmail: 'bob@example.com',
      title: 'cut.mov',
      expiredAt: EXPIRED,
      approveLink: APPROVE_LINK,
      ...overrides,
    });

  const expected: Record<MailLanguage, { subject: string; expired: string; approve: string; button: string }> = {
    en: {
      subject: 'bob@example.com is asking for more time to download “cut.mov”',
      expired: 'which expired on 1 March 2026 at 12:00 UTC',
      approve: 'If you approve, the download link will work again for 48 hours.',
      button: 'Extend by 48 hours',
    },
    es: {
      subject: 'bob@example.com pide más tiempo para descargar «cut.mov»',
      expired: 'que caducó el 1 de marzo de 2026 a las 12:00 UTC',
      approve: 'Si lo apruebas, el enlace de descarga volverá a funcionar durante 48 horas.',
      button: 'Ampliar 48 horas',
    },
    fr: {
      subject: 'bob@example.com demande plus de temps pour télécharger «\u00a0cut.mov\u00a0»',
      expired: 'qui a expiré le 1 mars 2026 à 12:00 UTC',
      approve: 'Si vous acceptez, le lien de téléchargement fonctionnera de nouveau pendant 48\u00a0heures.',
      button: 'Prolonger de 48\u00a0heures',
    },
    de: {
      subject: 'bob@example.com bittet um mehr Zeit für den Download von „cut.mov“',
      expired: 'Die Übertragung ist am 1. März 2026 um 12:00 UTC abgelaufen.',
      approve: 'Wenn Sie zustimmen, funktioniert der Download-Link wieder für 48 Stunden.',
      button: 'Um 48 Stunden verlängern',
    },
    zh: {
      subject: 'bob@example.com 请求延长“cut.mov”的下载时间',
      expired: '该传输已于 2026年3月1日 UTC 12:00 过期',
      approve: '如果你同意，下载链接将重新生效 48 小时。',
      button: '延长 48 小时',
    },
    it: {
      subject: 'bob@example.com chiede più tempo per scaricare «cut.mov»',
      expired: 'scaduto il 1 marzo 2026 alle ore 12:00 UTC',
      approve: 'Se approvi, il link per il download funzionerà di nuovo per 48 ore.',
      button: 'Prolunga di 48 ore',
    },
    ko: {
      subject: 'bob@example.com님이 “cut.mov” 다운로드 기간 연장을 요청했습니다',
      expired: '2026년 3월 1일 PM 12:00 UTC에 만료된',
      approve: '승인하면 다운로드 링크가 48시간 동안 다시 작동합니다.',
      button: '48시간 연장',
    },
    ja: {
      subject: 'bob@example.com さんが「cut.mov」のダウンロード期限の延長を求めています',
      expired: '2026年3月1日 12:00 UTC に期限切れになった',
      approve: '承認すると、ダウンロードリンクが 48 時間再び使えるようになります。',
      button: '48 時間延長する',
    },
  };

  it.each(MAIL_LANGUAGES)('asks the sender to approve in %s', (lang) => {
    const mail = request(lang);
    const e = expected[lang];
    expectWellFormed(mail, lang);
    expect(mail.subject).toBe(e.subject);
    expectBoth(mail, e.expired, e.approve, e.button);
    expect(mail.html).toContain(`href="${APPROVE_LINK}"`);
    expect(mail.text).toContain(APPROVE_LINK);
  });

  it('escapes a hostile title and requester and keeps the subject on one line', () => {
    const mail = request('en', { title: `${HOSTILE_NAME}\r\n.pdf`, requesterEmail: `${HOSTILE_NAME}@x.com` });
    expectWellFormed(mail, 'en');
    expect(mail.html).not.toContain('<img');
    expect(mail.subject).toBe(`${HOSTILE_NAME}@x.com is asking for more time to download “${HOSTILE_NAME} .pdf”`);
  });

  it('rejects a non-http approve link', () => {
    expect(() => request('en', { approveLink: 'javascript:fetch(1)' })).toThrow(UnsafeLinkError);
  });
});

describe('extensionGrantedMail', () => {
  const NEW_EXPIRY = Date.UTC(2026, 2, 3, 12, 0);
  const granted = (lang: MailLanguage, overrides: Partial<Parameters<typeof extensionGrantedMail>[0]> = {}) =>
    extensionGrantedMail({ lang, title: 'cut.mov', expiryDate: NEW_EXPIRY, downloadLink: LINK, ...overrides });

  const expected: Record<MailLanguage, { heading: string; until: string; bySender: string }> = {
    en: {
      heading: 'Link Extended for 48 hours',
      until: 'You can download the files until 3 March 2026 at 12:00 UTC.',
      bySender: 'Alice Martin extended the link to “cut.mov”.',
    },
    es: {
      heading: 'Enlace ampliado durante 48 horas',
      until: 'Puedes descargar los archivos hasta el 3 de marzo de 2026 a las 12:00 UTC.',
      bySender: 'Alice Martin ha ampliado el enlace de «cut.mov».',
    },
    fr: {
      heading: 'Lien prolongé de 48\u00a0heures',
      until: 'Vous pouvez télécharger les fichiers jusqu’au 3 mars 2026 à 12:00 UTC.',
      bySender: 'Alice Martin a prolongé le lien vers «\u00a0cut.mov\u00a0».',
    },
    de: {
      heading: 'Link um 48 Stunden verlängert',
      until: 'Sie können die Dateien bis zum 3. März 2026 um 12:00 UTC herunterladen.',
      bySender: 'Alice Martin hat den Link zu „cut.mov“ verlängert.',
    },
    zh: {
      heading: '链接已延长 48 小时',
      until: '你可以在 2026年3月3日 UTC 12:00 之前下载这些文件。',
      bySender: 'Alice Martin 延长了“cut.mov”的链接。',
    },
    it: {
      heading: 'Link esteso di 48 ore',
      until: 'Puoi scaricare i file fino al 3 marzo 2026 alle ore 12:00 UTC.',
      bySender: 'Alice Martin ha prolungato il link a «cut.mov».',
    },
    ko: {
      heading: '링크가 48시간 연장되었습니다',
      until: '2026년 3월 3일 PM 12:00 UTC까지 파일을 다운로드할 수 있습니다.',
      bySender: 'Alice Martin님이 “cut.mov” 링크를 연장했습니다.',
    },
    ja: {
      heading: 'リンクを 48 時間延長しました',
      until: '2026年3月3日 12:00 UTC までファイルをダウンロードできます。',
      bySender: 'Alice Martin さんが「cut.mov」のリンクを延長しました。',
    },
  };

  it.each(MAIL_LANGUAGES)('gives the new expiry and the download link in %s', (lang) => {
    const mail = granted(lang);
    const e = expected[lang];
    expectWellFormed(mail, lang);
    expect(mail.subject).toContain('48');
    expect(mail.subject).toContain('cut.mov');
    expect(mail.text).toContain(e.heading);
    expect(mail.text).toContain(e.until);
    expect(mail.html).toContain(e.heading);
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.text).toContain(LINK);
    expect(granted(lang, { senderName: 'Alice Martin' }).text).toContain(e.bySender);
  });

  it('escapes a hostile sender name and title', () => {
    const mail = granted('en', { senderName: HOSTILE_NAME, title: HOSTILE_MESSAGE });
    expectWellFormed(mail, 'en');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<script');
    expect(mail.text).toContain(`${HOSTILE_NAME} extended the link to “${HOSTILE_MESSAGE}”`);
  });

  it('rejects a non-http download link', () => {
    expect(() => granted('en', { downloadLink: 'file:///etc/passwd' })).toThrow(UnsafeLinkError);
  });
});

describe('passwordResetMail', () => {
  const RESET_LINK = 'https://app.example.com/updatepassword?t=rst_abcdefghijklmnopqrstuvwxyz0123456789';
  const reset = (lang: MailLanguage, overrides: Partial<Parameters<typeof passwordResetMail>[0]> = {}) =>
    passwordResetMail({ lang, resetLink: RESET_LINK, validMinutes: 30, ...overrides });

  const expected: Record<
    MailLanguage,
    { subject: string; button: string; validity: string; ignore: string; footer: string }
  > = {
    en: {
      subject: 'Reset your SendBridge password',
      button: 'Reset password',
      validity: 'The link works once, for 30 minutes.',
      ignore: "If you didn't ask for this, ignore this email and your password will stay the same.",
      footer: 'You received this email because a password reset was requested for this address on SendBridge.',
    },
    es: {
      subject: 'Restablece tu contraseña de SendBridge',
      button: 'Restablecer contraseña',
      validity: 'El enlace solo se puede usar una vez y funciona durante 30 minutos.',
      ignore: 'Si no lo has pedido tú, ignora este correo y tu contraseña seguirá siendo la misma.',
      footer: 'Recibes este correo porque se ha pedido restablecer la contraseña de esta dirección en SendBridge.',
    },
    fr: {
      subject: 'Réinitialisez votre mot de passe SendBridge',
      button: 'Réinitialiser le mot de passe',
      validity: 'Ce lien ne fonctionne qu’une seule fois, pendant 30 minutes.',
      ignore:
        'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail\u00a0: votre mot de passe restera inchangé.',
      footer:
        'Vous recevez cet e-mail car une réinitialisation du mot de passe a été demandée pour cette adresse sur SendBridge.',
    },
    de: {
      subject: 'Setzen Sie Ihr SendBridge-Passwort zurück',
      button: 'Passwort zurücksetzen',
      validity: 'Der Link funktioniert nur einmal und ist 30 Minuten lang gültig.',
      ignore: 'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail. Ihr Passwort bleibt unverändert.',
      footer:
        'Sie erhalten diese E-Mail, weil für diese Adresse bei SendBridge das Zurücksetzen des Passworts angefordert wurde.',
    },
    zh: {
      subject: '重置你的 SendBridge 密码',
      button: '重置密码',
      validity: '此链接仅可使用一次，30 分钟内有效。',
      ignore: '如果这不是你本人的操作，请忽略这封邮件，你的密码不会改变。',
      footer: '你收到这封邮件，是因为有人在 SendBridge 上为此地址申请了密码重置。',
    },
    it: {
      subject: 'Reimposta la tua password di SendBridge',
      button: 'Reimposta la password',
      validity: 'Il link funziona una sola volta, per 30 minuti.',
      ignore: 'Se non l’hai richiesto tu, ignora questa email: la tua password resterà invariata.',
      footer:
        'Ricevi questa email perché è stato richiesto il ripristino della password per questo indirizzo su SendBridge.',
    },
    ko: {
      subject: 'SendBridge 비밀번호 재설정',
      button: '비밀번호 재설정',
      validity: '이 링크는 한 번만, 30분 동안 사용할 수 있습니다.',
      ignore: '요청하지 않았다면 이 이메일을 무시하세요. 비밀번호는 변경되지 않습니다.',
      footer: 'SendBridge에서 이 주소의 비밀번호 재설정이 요청되었기 때문에 이 이메일을 받으셨습니다.',
    },
    ja: {
      subject: 'SendBridge のパスワードの再設定',
      button: 'パスワードを再設定',
      validity: 'このリンクは 30 分間、1 回だけ使用できます。',
      ignore: '心当たりがない場合は、このメールを無視してください。パスワードは変更されません。',
      footer: 'SendBridge でこのアドレスのパスワード再設定がリクエストされたため、このメールをお送りしています。',
    },
  };

  it.each(MAIL_LANGUAGES)('gives the reset link, how long it works and what to do if unasked in %s', (lang) => {
    const mail = reset(lang);
    const e = expected[lang];
    expectWellFormed(mail, lang);
    expect(mail.subject).toBe(e.subject);
    expectBoth(mail, e.button, e.validity, e.ignore, e.footer);
    expect(mail.html).toContain(`href="${RESET_LINK}"`);
    expect(mail.text).toContain(`${e.button}${COLON[lang]}\n${RESET_LINK}`);
  });

  it('shows the given number of minutes, singular for one', () => {
    expectBoth(reset('en', { validMinutes: 45 }), 'for 45 minutes.');
    expect(reset('en', { validMinutes: 45 }).text).not.toContain('30 minutes');
    expectBoth(reset('en', { validMinutes: 1 }), 'The link works once, for 1 minute.');
    expectBoth(reset('de', { validMinutes: 1 }), 'ist 1 Minute lang gültig.');
    expectBoth(reset('fr', { validMinutes: 90 }), 'pendant 90 minutes.');
  });

  it('escapes the ampersand of a link with more query parameters', () => {
    const mail = reset('en', { resetLink: 'https://app.example.com/updatepassword?t=abc&lang=de' });
    expect(mail.html).toContain('href="https://app.example.com/updatepassword?t=abc&amp;lang=de"');
    expect(mail.text).toContain('https://app.example.com/updatepassword?t=abc&lang=de');
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    '/updatepassword?t=abc',
    'https://user:pw@app.example.com/updatepassword?t=abc',
  ])('rejects the reset link %j', (resetLink) => {
    expect(() => reset('en', { resetLink })).toThrow(UnsafeLinkError);
  });

  it('rejects a validity that is not a positive whole number of minutes', () => {
    for (const validMinutes of [0, -5, 1.5, Number.NaN])
      expect(() => reset('en', { validMinutes })).toThrow(RangeError);
  });
});

/** The words appear in the text part as they are and in the html escaped. */
function expectBoth(mail: RenderedMail, ...texts: string[]): void {
  for (const t of texts) {
    expect(mail.text).toContain(t);
    expect(mail.html).toContain(escapeForTest(t));
  }
}

function escapeForTest(text: string): string {
  return text
    .replace(/&/gu, '&amp;')
    .replace(/</gu, '&lt;')
    .replace(/>/gu, '&gt;')
    .replace(/"/gu, '&quot;')
    .replace(/'/gu, '&#39;');
}

describe('mail copy from the i18next catalogues', () => {
  it('never reads user values as copy: placeholders and nesting in names stay literal', () => {
    const mail = transfer('en', {
      senderName: '{{what}} $t(transfer.subject)',
      files: [{ fileName: '{{sender}}.pdf', size: 1 }],
    });
    expect(mail.subject).toBe('{{what}} $t(transfer.subject) sent you {{sender}}.pdf via SendBridge');
    expect(mail.text).toContain('{{what}} $t(transfer.subject) sent you {{sender}}.pdf');
    expect(mail.html).toContain('{{what}} $t(transfer.subject)');
  });

  it("follows each language's plural rules and digit grouping", () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ fileName: `f${i}`, size: 1 }));
    // French counts 0 as singular, English does not
    expect(transfer('fr', { files: [] }).subject).toContain('0 fichier via');
    expect(transfer('en', { files: [] }).subject).toContain('0 files via');
    expect(transfer('en', { files: files(1234) }).subject).toContain('1,234 files');
    expect(transfer('de', { files: files(1234) }).subject).toContain('1.234 Dateien');
    expect(senderCodeMail({ lang: 'it', code: '48213', validMinutes: 1 }).text).toContain('valido per 1 minuto.');
    expect(senderCodeMail({ lang: 'ja', code: '48213', validMinutes: 1 }).text).toContain('有効期限は 1 分です。');
  });

  it("escapes the copy's own words in HTML", () => {
    // German quotes and French no-break spaces pass through; markup-significant characters would be escaped
    const mail = extensionRequestMail({
      lang: 'de',
      requesterEmail: 'bob@example.com',
      title: 'a&b',
      expiredAt: EXPIRY,
      approveLink: APPROVE_LINK,
    });
    expect(mail.html).toContain('„a&amp;b“');
    expect(mail.text).toContain('„a&b“');
  });
});
