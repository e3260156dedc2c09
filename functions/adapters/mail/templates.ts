/**
 * Product mail, rendered as subject + HTML + plain text in the reader's language. Pure: the
 * handlers gather the facts, these functions only format them, and `sendMail` sends the result.
 *
 * Everything user-supplied (names, addresses, the message, file names, titles) is cleaned of
 * control and bidi-override characters, escaped in the HTML and left plain in the text; links
 * must be http(s); subjects are a single line.
 */
import { formatBytes } from '../../domain/format';
import { EXTENSION_SECONDS } from '../../domain/expiry';
import { mailLanguageOf, type MailLanguage } from '../../domain/transfer-api';
import { copyFor, type MailCopy } from './copy';
import {
  breakable,
  button,
  codeBox,
  escapeHtml,
  heading,
  joinHtml,
  linkFallback,
  list,
  paragraph,
  quote,
  renderLayout,
  renderText,
  rows,
  safeLink,
  strong,
  type Html,
  type SafeUrl,
} from './layout';

export interface RenderedMail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

export interface WithLang {
  readonly lang: MailLanguage;
}

/** A file as listed in mail: the shape of the transfer's file entries. */
export interface MailFile {
  readonly fileName: string;
  /** bytes */
  readonly size: number;
}

/** Longer lists (files, recipients) stop here and say 'and N more'. */
export const MAX_LISTED = 20;
const SUBJECT_PART_MAX = 80;
const EXTENSION_HOURS = EXTENSION_SECONDS / 3600;
const NONE = escapeHtml('');

// ---- cleaning ------------------------------------------------------------------------------

/**
 * Bidi embeddings/overrides/isolates (U+202A–U+202E, U+2066–U+2069) can make 'invoice‮fdp.exe'
 * read as 'invoiceexe.pdf'; the directional marks and the invisible zero-width space, word
 * joiner and BOM serve no purpose in a name either. ZWJ/ZWNJ stay: emoji and several scripts need them.
 */
const INVISIBLE = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/gu;
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/gu;

/** One line of user text: invisible characters removed, controls (CR, LF, tab) become spaces. */
export function cleanInline(text: string): string {
  // Only ordinary spaces collapse: the copy's no-break spaces (French « », 48 h) must survive.
  return text.replace(INVISIBLE, '').replace(CONTROLS, ' ').replace(/ {2,}/gu, ' ').trim();
}

/** The sender's message: line breaks kept (normalised to LF), other controls removed. */
export function cleanMultiline(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/gu, '\n')
    .replace(INVISIBLE, '')
    .replace(/\t/gu, ' ')
    .replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/gu, '')
    .trim();
}

/** By code points, so an emoji or accented letter is never cut in half. */
function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

function required(value: string, what: string): string {
  if (!value) throw new Error(`Mail input ${what} is empty`);
  return value;
}

// ---- copy and formatting -------------------------------------------------------------------

/** formatBytes' value with the language's decimal separator (and French unit names). */
function formatSize(c: MailCopy, bytes: number): string {
  const [value = '0', unit = 'B'] = formatBytes(bytes).split(' ');
  const number = new Intl.NumberFormat(c.locale, { maximumFractionDigits: 1, useGrouping: false }).format(
    Number(value),
  );
  return `${number}\u00a0${c.unit(unit)}`;
}

/** e.g. '21 November 2026 at 06:05 UTC', '21. November 2026 um 06:05 UTC'. */
function formatDate(c: MailCopy, epochMs: number): string {
  if (!Number.isFinite(epochMs)) throw new RangeError('Mail date must be epoch milliseconds');
  return new Intl.DateTimeFormat(c.locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(epochMs);
}

/**
 * The download's country: an ISO 3166 alpha-2 code (CloudFront-Viewer-Country, GeoIP) is shown
 * by its name in the reader's language; a longer value is taken as a name already. Missing,
 * 'Unknown' and the unknown codes XX/ZZ read as an unknown location.
 */
function placeName(c: MailCopy, country: string | undefined): string {
  const value = cleanInline(country ?? '');
  const unknown = c.text('downloadNotice.unknownLocation');
  if (!value || value.toLowerCase() === 'unknown') return unknown;
  if (!/^[A-Za-z]{2}$/u.test(value)) return value;
  const code = value.toUpperCase();
  if (code === 'XX' || code === 'ZZ') return unknown;
  const name = new Intl.DisplayNames(c.locale, { type: 'region' }).of(code);
  return name && name !== code ? name : unknown;
}

function overflow<T>(items: readonly T[]): { shown: readonly T[]; rest: number } {
  return items.length > MAX_LISTED
    ? { shown: items.slice(0, MAX_LISTED), rest: items.length - MAX_LISTED }
    : { shown: items, rest: 0 };
}

interface FileListing {
  /** '3 files · 1.2 GB' */
  readonly summary: string;
  /** the names with sizes, after the link so a long list does not push the button down */
  readonly listHtml: Html;
  readonly listText: string;
}

/** The summary and the first MAX_LISTED names with sizes, then 'and N more'. */
function fileListing(c: MailCopy, files: readonly MailFile[]): FileListing {
  const total = files.reduce((sum, f) => sum + (Number.isFinite(f.size) && f.size > 0 ? f.size : 0), 0);
  const summary = c.text('filesSummary', { files: c.text('fileCount', {}, files.length), size: formatSize(c, total) });
  const { shown, rest } = overflow(files.map((f) => ({ name: cleanInline(f.fileName), size: formatSize(c, f.size) })));
  const more = rest > 0 ? c.text('andMore', {}, rest) : '';
  const listHtml = joinHtml([
    rows(shown.map((f) => [escapeHtml(f.name), escapeHtml(f.size)] as const)),
    more ? paragraph(escapeHtml(more), { muted: true, small: true }) : NONE,
  ]);
  const listText = [...shown.map((f) => `- ${f.name} (${f.size})`), ...(more ? [more] : [])].join('\n');
  return { summary, listHtml, listText };
}

function linkBlocks(c: MailCopy, label: string, link: SafeUrl): { html: Html; text: string } {
  return {
    html: joinHtml([button(link, escapeHtml(label)), linkFallback(c.html('orCopyLink'), link)]),
    text: `${label}${c.colon}\n${link}`,
  };
}

function subjectLine(text: string): string {
  // cleanInline turns any CR/LF that reached the copy into spaces: a header is one line.
  return cleanInline(text);
}

function mail(
  lang: MailLanguage,
  subject: string,
  preheader: string,
  body: Html,
  text: readonly (string | false | undefined)[],
  footer: string,
): RenderedMail {
  return {
    subject,
    html: renderLayout({ lang: mailLanguageOf(lang), title: subject, preheader, body, footer }),
    text: renderText(text, footer),
  };
}

// ---- 1. the transfer, to each recipient ----------------------------------------------------

export interface TransferMailInput {
  readonly senderEmail: string;
  readonly senderName?: string;
  /** up to 280 characters; line breaks are kept; empty for none */
  readonly message?: string;
  readonly files: readonly MailFile[];
  /** the recipient's download link */
  readonly downloadLink: string;
  /** epoch ms */
  readonly expiryDate: number;
  readonly passwordProtected: boolean;
  /** end-to-end encrypted under a passphrase: the mail says one is needed, never what it is */
  readonly passphraseNeeded?: boolean;
  /**
   * A guest's send: only the address is proven, so the subject names the address, never the
   * name the guest typed ('SendBridge Security' must not read as the product speaking).
   */
  readonly guest?: boolean;
}

/** What a transfer mail and its reminder both say: sender, files, until when, link, subject, heading. */
function transferParts(
  c: MailCopy,
  input: Omit<TransferMailInput, 'message'>,
  kind: 'transfer' | 'reminder' | 'newVersion',
) {
  const link = safeLink(input.downloadLink);
  const name = cleanInline(input.senderName ?? '');
  const email = cleanInline(input.senderEmail);
  const sender = required(name || email, 'sender');
  const files = fileListing(c, input.files);
  const only = input.files.length === 1 ? cleanInline(input.files[0]?.fileName ?? '') : '';
  const what = only || c.text('fileCount', {}, input.files.length);
  const until = c.text('availableUntil', { date: formatDate(c, input.expiryDate) });
  const password = [
    input.passwordProtected ? c.text('transfer.password', { sender }) : '',
    input.passphraseNeeded ? c.text('transfer.passphrase', { sender }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const footer = c.text(`${kind}.footer`, { sender });
  const download = linkBlocks(c, c.text('downloadButton'), link);

  const subjectSender = input.guest ? required(email, 'sender email') : sender;
  const subject = subjectLine(
    c.text(`${kind}.subject`, {
      sender: truncate(subjectSender, SUBJECT_PART_MAX),
      what: truncate(what, SUBJECT_PART_MAX),
    }),
  );
  const headingText = c.text(`${kind}.heading`, { sender, what });
  const headingHtml = heading(
    c.html(`${kind}.heading`, { sender: breakable(escapeHtml(sender)), what: breakable(escapeHtml(what)) }),
  );
  return { name, email, files, until, password, footer, download, subject, headingText, headingHtml };
}

export function transferMail(input: TransferMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const { name, email, files, until, password, footer, download, subject, headingText, headingHtml } = transferParts(
    c,
    input,
    'transfer',
  );
  const message = cleanMultiline(input.message ?? '');
  const showEmail = Boolean(name && email);

  const body = joinHtml([
    headingHtml,
    showEmail ? paragraph(breakable(escapeHtml(email)), { muted: true }) : NONE,
    message ? quote(message) : NONE,
    paragraph(strong(escapeHtml(files.summary))),
    download.html,
    paragraph(escapeHtml(until)),
    password ? paragraph(strong(escapeHtml(password))) : NONE,
    files.listHtml,
  ]);
  const text = [
    showEmail ? `${headingText}\n${email}` : headingText,
    // Quoted line by line, as mail quotes: the sender's words never read as ours.
    message &&
      `${c.text('transfer.messageLabel')}${c.colon}\n${message
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}`,
    download.text,
    password ? `${until}\n${password}` : until,
    `${files.summary}\n${files.listText}`,
  ];
  return mail(input.lang, subject, files.summary, body, text, footer);
}

// ---- 1b. reminder to a recipient who has not downloaded --------------------------------------

/**
 * The sender's Remind action, and the scheduled reminder 24 hours before expiry: the
 * recipient's own link again, with when it stops working. The sender's message is not repeated.
 */
export function transferReminderMail(input: Omit<TransferMailInput, 'message'> & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const { files, until, password, footer, download, subject, headingText, headingHtml } = transferParts(
    c,
    input,
    'reminder',
  );

  const body = joinHtml([
    headingHtml,
    paragraph(c.html('reminder.intro')),
    paragraph(strong(escapeHtml(until))),
    download.html,
    password ? paragraph(strong(escapeHtml(password))) : NONE,
    paragraph(strong(escapeHtml(files.summary))),
    files.listHtml,
  ]);
  const text = [
    `${headingText}\n${c.text('reminder.intro')}`,
    until,
    download.text,
    password,
    `${files.summary}\n${files.listText}`,
  ];
  return mail(input.lang, subject, until, body, text, footer);
}

// ---- 1c. a new version of a file ---------------------------------------------------------------

/**
 * The sender sent a new version of a file and asked to tell the recipients: their own link
 * again, naming the file (`files` holds the new version alone), with when it stops working.
 */
export function newVersionMail(input: Omit<TransferMailInput, 'message'> & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const { files, until, password, footer, download, subject, headingText, headingHtml } = transferParts(
    c,
    input,
    'newVersion',
  );
  const body = joinHtml([
    headingHtml,
    paragraph(c.html('newVersion.intro')),
    download.html,
    paragraph(strong(escapeHtml(until))),
    password ? paragraph(strong(escapeHtml(password))) : NONE,
    files.listHtml,
  ]);
  const text = [`${headingText}\n${c.text('newVersion.intro')}`, download.text, until, password, files.listText];
  return mail(input.lang, subject, until, body, text, footer);
}

// ---- 2. confirmation to the sender ---------------------------------------------------------

export interface TransferSentMailInput {
  /** the addresses the transfer was mailed to */
  readonly recipients: readonly string[];
  readonly files: readonly MailFile[];
  readonly downloadLink: string;
  /** epoch ms */
  readonly expiryDate: number;
}

export function transferSentMail(input: TransferSentMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.downloadLink);
  const recipients = input.recipients.map(cleanInline).filter(Boolean);
  const first = required(recipients[0] ?? '', 'recipients');
  const files = fileListing(c, input.files);
  const until = c.text('availableUntil', { date: formatDate(c, input.expiryDate) });
  const open = linkBlocks(c, c.text('transferSent.button'), link);
  const { shown, rest } = overflow(recipients);
  const more = rest > 0 ? c.text('andMore', {}, rest) : '';

  const subject = subjectLine(
    recipients.length === 1
      ? c.text('transferSent.subjectOne', { first: truncate(first, SUBJECT_PART_MAX) })
      : c.text('transferSent.subjectMany', {
          first: truncate(first, SUBJECT_PART_MAX),
          others: c.text('transferSent.others', {}, recipients.length - 1),
        }),
  );

  const body = joinHtml([
    heading(c.html('transferSent.heading')),
    paragraph(c.html('transferSent.sentTo')),
    list(shown.map((r) => escapeHtml(r))),
    more ? paragraph(escapeHtml(more), { muted: true, small: true }) : NONE,
    open.html,
    paragraph(escapeHtml(until)),
    paragraph(c.html('transferSent.notify')),
    paragraph(strong(escapeHtml(files.summary))),
    files.listHtml,
  ]);
  const text = [
    c.text('transferSent.heading'),
    [c.text('transferSent.sentTo'), ...shown.map((r) => `- ${r}`), ...(more ? [more] : [])].join('\n'),
    open.text,
    `${until}\n${c.text('transferSent.notify')}`,
    `${files.summary}\n${files.listText}`,
  ];
  return mail(input.lang, subject, files.summary, body, text, c.text('transferSent.footer'));
}

// ---- 3. guest sender verification code -----------------------------------------------------

export interface SenderCodeMailInput {
  /** the code to type (5 characters today) */
  readonly code: string;
  /** how long the code works */
  readonly validMinutes: number;
  /** who proves their address: a guest sender (default) or a recipient of a verified transfer */
  readonly kind?: 'sender' | 'recipient';
}

export function senderCodeMail(input: SenderCodeMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const k = input.kind === 'recipient' ? 'recipientCode' : 'senderCode';
  // The code also goes into the subject, so only plain letters and digits are accepted.
  if (!/^[A-Za-z0-9]{4,12}$/u.test(input.code)) throw new Error('Verification code must be 4-12 letters or digits');
  if (!Number.isInteger(input.validMinutes) || input.validMinutes <= 0)
    throw new RangeError('validMinutes must be a positive integer');
  const validity = c.text('senderCode.validity', {}, input.validMinutes);
  const subject = subjectLine(c.text(`${k}.subject`, { code: input.code }));

  const body = joinHtml([
    heading(c.html(`${k}.heading`)),
    paragraph(c.html(`${k}.intro`)),
    codeBox(escapeHtml(input.code)),
    paragraph(escapeHtml(validity)),
    paragraph(c.html(`${k}.ignore`), { muted: true, small: true }),
  ]);
  const text = [
    c.text(`${k}.heading`),
    c.text(`${k}.intro`),
    `    ${input.code}`,
    `${validity}\n${c.text(`${k}.ignore`)}`,
  ];
  return mail(input.lang, subject, validity, body, text, c.text(`${k}.footer`));
}

// ---- 4. download notice to the sender ------------------------------------------------------

export interface DownloadNoticeMailInput {
  /** the recipient who downloaded; absent when the link was used without a recipient id */
  readonly downloaderEmail?: string;
  /** the file downloaded; absent for the ZIP of all files */
  readonly fileName?: string;
  /** epoch ms */
  readonly downloadedAt: number;
  /** ISO 3166 alpha-2 code (preferred, shown by name in the reader's language) or a country name */
  readonly country?: string;
  /** the sender's view of the transfer */
  readonly transferLink: string;
}

export function downloadNoticeMail(input: DownloadNoticeMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.transferLink);
  const who = cleanInline(input.downloaderEmail ?? '') || c.text('downloadNotice.someone');
  const what = cleanInline(input.fileName ?? '') || c.text('downloadNotice.allFiles');
  const when = formatDate(c, input.downloadedAt);
  const where = placeName(c, input.country);
  const view = linkBlocks(c, c.text('downloadNotice.button'), link);

  const subject = subjectLine(
    c.text('downloadNotice.subject', { who: truncate(who, SUBJECT_PART_MAX), what: truncate(what, SUBJECT_PART_MAX) }),
  );
  const preheader = `${when} · ${where}`;
  const body = joinHtml([
    heading(c.html('downloadNotice.heading', { who: breakable(escapeHtml(who)), what: breakable(escapeHtml(what)) })),
    rows(
      [
        [c.html('downloadNotice.whenLabel'), escapeHtml(when)],
        [c.html('downloadNotice.whereLabel'), escapeHtml(where)],
      ],
      { labels: true },
    ),
    view.html,
  ]);
  const text = [
    c.text('downloadNotice.heading', { who, what }),
    `${c.text('downloadNotice.whenLabel')}${c.colon} ${when}\n${c.text('downloadNotice.whereLabel')}${c.colon} ${where}`,
    view.text,
  ];
  return mail(input.lang, subject, preheader, body, text, c.text('downloadNotice.footer'));
}

// ---- download limit used up, to the sender ----------------------------------------------------

export interface LimitReachedMailInput {
  /** the transfer's title (first file name or file count) */
  readonly title: string;
  readonly limit: number;
  /** the recipient whose own limit this was; absent: the transfer's limit */
  readonly recipient?: string;
  /** the sender's view of the transfer, where the limit is changed */
  readonly transferLink: string;
}

export function limitReachedMail(input: LimitReachedMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.transferLink);
  const title = cleanInline(input.title);
  // a recipient's own limit: whose, above the text
  const recipient = cleanInline(input.recipient ?? '');
  const limit = String(input.limit);
  const view = linkBlocks(c, c.text('limitReached.button'), link);
  const subject = subjectLine(c.text('limitReached.subject', { title: truncate(title, SUBJECT_PART_MAX) }));
  const bodyText = c.text('limitReached.body', { title, limit });
  const body = joinHtml([
    heading(c.html('limitReached.heading')),
    recipient ? paragraph(breakable(escapeHtml(recipient)), { muted: true }) : NONE,
    paragraph(c.html('limitReached.body', { title: breakable(escapeHtml(title)), limit: escapeHtml(limit) })),
    view.html,
  ]);
  const text = [c.text('limitReached.heading'), recipient || undefined, bodyText, view.text];
  // the same footer as the download notices: the sender sent these files
  return mail(input.lang, subject, bodyText, body, text, c.text('downloadNotice.footer'));
}

// ---- 5. extension request to the sender ----------------------------------------------------

export interface ExtensionRequestMailInput {
  /** the recipient asking for more time */
  readonly requesterEmail: string;
  /** the transfer's title (first file name or file count) */
  readonly title: string;
  /** epoch ms when the transfer expired */
  readonly expiredAt: number;
  /** {APP_ORIGIN}/extension/{token}: approving extends the transfer */
  readonly approveLink: string;
}

export function extensionRequestMail(input: ExtensionRequestMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.approveLink);
  const requester = required(cleanInline(input.requesterEmail), 'requesterEmail');
  const title = required(cleanInline(input.title), 'title');
  const hours = String(EXTENSION_HOURS);
  const date = formatDate(c, input.expiredAt);
  const approveInfo = c.text('extensionRequest.approveInfo', { hours });
  const approve = linkBlocks(c, c.text('extensionRequest.button', { hours }), link);

  const subject = subjectLine(
    c.text('extensionRequest.subject', {
      requester: truncate(requester, SUBJECT_PART_MAX),
      title: truncate(title, SUBJECT_PART_MAX),
    }),
  );
  const bodyText = c.text('extensionRequest.body', { requester, title, date });
  const body = joinHtml([
    heading(c.html('extensionRequest.heading')),
    paragraph(
      c.html('extensionRequest.body', {
        requester: strong(breakable(escapeHtml(requester))),
        title: breakable(escapeHtml(title)),
        date: escapeHtml(date),
      }),
    ),
    paragraph(escapeHtml(approveInfo)),
    approve.html,
    paragraph(c.html('extensionRequest.ignore'), { muted: true, small: true }),
  ]);
  const text = [
    c.text('extensionRequest.heading'),
    bodyText,
    approveInfo,
    approve.text,
    c.text('extensionRequest.ignore'),
  ];
  return mail(input.lang, subject, bodyText, body, text, c.text('extensionRequest.footer'));
}

// ---- 6. extension granted, to the requester ------------------------------------------------

export interface ExtensionGrantedMailInput {
  readonly title: string;
  /** the new expiry, epoch ms */
  readonly expiryDate: number;
  readonly downloadLink: string;
  /** who approved; the copy says 'the sender' without it */
  readonly senderName?: string;
}

export function extensionGrantedMail(input: ExtensionGrantedMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.downloadLink);
  const title = required(cleanInline(input.title), 'title');
  const sender = cleanInline(input.senderName ?? '');
  const hours = String(EXTENSION_HOURS);
  const date = formatDate(c, input.expiryDate);
  const headingText = c.text('extensionGranted.heading', { hours });
  const download = linkBlocks(c, c.text('downloadButton'), link);

  const subject = subjectLine(c.text('extensionGranted.subject', { hours, title: truncate(title, SUBJECT_PART_MAX) }));
  const template = sender ? 'extensionGranted.bodyWithSender' : 'extensionGranted.body';
  const bodyText = sender ? c.text(template, { sender, title, date }) : c.text(template, { title, date });
  const body = joinHtml([
    heading(escapeHtml(headingText)),
    paragraph(
      c.html(template, {
        ...(sender ? { sender: strong(breakable(escapeHtml(sender))) } : {}),
        title: breakable(escapeHtml(title)),
        date: strong(escapeHtml(date)),
      }),
    ),
    download.html,
  ]);
  const text = [headingText, bodyText, download.text];
  return mail(input.lang, subject, bodyText, body, text, c.text('extensionGranted.footer'));
}

// ---- 7. password reset link ----------------------------------------------------------------

export interface PasswordResetMailInput {
  /** {APP_ORIGIN}/updatepassword?t=<token> */
  readonly resetLink: string;
  /** minutes the link works */
  readonly validMinutes: number;
}

export function passwordResetMail(input: PasswordResetMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.resetLink);
  if (!Number.isInteger(input.validMinutes) || input.validMinutes <= 0)
    throw new RangeError('validMinutes must be a positive integer');
  const validity = c.text('passwordReset.validity', {}, input.validMinutes);
  const reset = linkBlocks(c, c.text('passwordReset.button'), link);
  const subject = subjectLine(c.text('passwordReset.subject'));

  const body = joinHtml([
    heading(c.html('passwordReset.heading')),
    paragraph(c.html('passwordReset.intro')),
    reset.html,
    paragraph(escapeHtml(validity)),
    paragraph(c.html('passwordReset.ignore'), { muted: true, small: true }),
  ]);
  const text = [
    c.text('passwordReset.heading'),
    c.text('passwordReset.intro'),
    reset.text,
    `${validity}\n${c.text('passwordReset.ignore')}`,
  ];
  return mail(input.lang, subject, c.text('passwordReset.intro'), body, text, c.text('passwordReset.footer'));
}

// ---- 8. someone uploaded to the requester's file request -------------------------

export interface RequestUploadMailInput {
  /** the request's title */
  readonly requestTitle: string;
  /** the visitor's name and verified address */
  readonly senderName: string;
  readonly senderEmail: string;
  /** the visitor's message; empty for none */
  readonly message?: string;
  readonly files: readonly MailFile[];
  /** when the uploaded files are deleted, epoch ms */
  readonly expiryDate: number;
  /** {APP_ORIGIN}/dash/requests/{id} */
  readonly requestLink: string;
}

export function requestUploadMail(input: RequestUploadMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.requestLink);
  const name = cleanInline(input.senderName);
  const email = required(cleanInline(input.senderEmail), 'senderEmail');
  const sender = name || email;
  const title = required(cleanInline(input.requestTitle), 'requestTitle');
  const files = fileListing(c, input.files);
  const what = c.text('fileCount', {}, input.files.length);
  const message = cleanMultiline(input.message ?? '');
  const until = c.text('availableUntil', { date: formatDate(c, input.expiryDate) });
  const view = linkBlocks(c, c.text('requestUpload.button'), link);

  // The visitor proved only the address: the subject names it, never the typed name.
  const subject = subjectLine(
    c.text('requestUpload.subject', {
      sender: truncate(email, SUBJECT_PART_MAX),
      what,
      title: truncate(title, SUBJECT_PART_MAX),
    }),
  );
  const headingText = c.text('requestUpload.heading', { sender, what, title });
  const showEmail = Boolean(name);
  const body = joinHtml([
    heading(
      c.html('requestUpload.heading', {
        sender: breakable(escapeHtml(sender)),
        what: escapeHtml(what),
        title: breakable(escapeHtml(title)),
      }),
    ),
    showEmail ? paragraph(breakable(escapeHtml(email)), { muted: true }) : NONE,
    message ? quote(message) : NONE,
    paragraph(strong(escapeHtml(files.summary))),
    view.html,
    paragraph(escapeHtml(until)),
    files.listHtml,
  ]);
  const text = [
    showEmail ? `${headingText}\n${email}` : headingText,
    message &&
      `${c.text('requestUpload.messageLabel')}${c.colon}\n${message
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}`,
    view.text,
    until,
    `${files.summary}\n${files.listText}`,
  ];
  return mail(input.lang, subject, files.summary, body, text, c.text('requestUpload.footer'));
}

// ---- 9. the trial ends in 3 days (customer.subscription.trial_will_end) -----------

export interface TrialEndingMailInput {
  /** the plan's display name (Pro, Business…) */
  readonly planName: string;
  /** epoch ms */
  readonly trialEnd: number;
  /** what the first charge will be, major units; null when unknown */
  readonly amount: number | null;
  readonly currency: string | null;
  readonly period: 'month' | 'year' | null;
  /** {APP_ORIGIN}/?ref=trial_ending (spec §2: goes to Login) */
  readonly link: string;
}

/** e.g. '21 November 2026', '21. November 2026' (UTC, the day the provider charges). */
function formatDay(c: MailCopy, epochMs: number): string {
  if (!Number.isFinite(epochMs)) throw new RangeError('Mail date must be epoch milliseconds');
  return new Intl.DateTimeFormat(c.locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(
    epochMs,
  );
}

export function trialEndingMail(input: TrialEndingMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.link);
  const plan = required(cleanInline(input.planName), 'planName');
  const date = formatDay(c, input.trialEnd);
  const price =
    input.amount !== null && input.currency && input.period
      ? new Intl.NumberFormat(c.locale, { style: 'currency', currency: input.currency.toUpperCase() }).format(
          input.amount,
        )
      : null;
  const key =
    price === null
      ? 'trialEnding.bodyNoPrice'
      : input.period === 'year'
        ? 'trialEnding.bodyYear'
        : 'trialEnding.bodyMonth';
  const vars = { plan, date, ...(price === null ? {} : { price }) };
  const bodyText = c.text(key, vars);
  const review = linkBlocks(c, c.text('trialEnding.button'), link);
  const subject = subjectLine(c.text('trialEnding.subject', { plan, date }));
  const body = joinHtml([
    heading(c.html('trialEnding.heading')),
    paragraph(
      c.html(key, {
        plan: strong(escapeHtml(plan)),
        date: strong(escapeHtml(date)),
        ...(price === null ? {} : { price: strong(escapeHtml(price)) }),
      }),
    ),
    paragraph(c.html('trialEnding.change')),
    review.html,
  ]);
  const text = [c.text('trialEnding.heading'), bodyText, c.text('trialEnding.change'), review.text];
  return mail(input.lang, subject, bodyText, body, text, c.text('trialEnding.footer'));
}

// ---- 10. a team admin invites an address ------------------------------------------

export interface TeamInviteMailInput {
  /** the admin's name (or address when no name is set) and address */
  readonly adminName: string;
  readonly adminEmail: string;
  readonly company?: string;
  /** {APP_ORIGIN}/invite/{token} */
  readonly link: string;
  readonly validDays: number;
}

export function teamInviteMail(input: TeamInviteMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.link);
  const email = required(cleanInline(input.adminEmail), 'adminEmail');
  const admin = cleanInline(input.adminName) || email;
  const company = cleanInline(input.company ?? '');
  if (!Number.isInteger(input.validDays) || input.validDays <= 0)
    throw new RangeError('validDays must be a positive integer');
  const companyText = company ? c.text('teamInvite.companySuffix', { company }) : '';
  const validity = c.text('teamInvite.validity', {}, input.validDays);
  const accept = linkBlocks(c, c.text('teamInvite.button'), link);
  const subject = subjectLine(c.text('teamInvite.subject', { admin: truncate(admin, SUBJECT_PART_MAX) }));
  const intro = c.text('teamInvite.intro', { admin, email, company: companyText });
  const body = joinHtml([
    heading(c.html('teamInvite.heading', { admin: breakable(escapeHtml(admin)) })),
    paragraph(
      c.html('teamInvite.intro', {
        admin: strong(escapeHtml(admin)),
        email: breakable(escapeHtml(email)),
        company: company ? c.html('teamInvite.companySuffix', { company: escapeHtml(company) }) : ('' as Html),
      }),
    ),
    accept.html,
    paragraph(escapeHtml(validity)),
    paragraph(c.html('teamInvite.ignore'), { muted: true, small: true }),
  ]);
  const text = [
    c.text('teamInvite.heading', { admin }),
    intro,
    accept.text,
    `${validity}\n${c.text('teamInvite.ignore')}`,
  ];
  return mail(input.lang, subject, intro, body, text, c.text('teamInvite.footer'));
}

// ---- a file of the sender's transfer was found infected and removed ------------------

export interface ScanFailedMailInput {
  readonly fileName: string;
  /** the scanner's name of what it found */
  readonly finding: string;
  /** the sender's view of the transfer */
  readonly transferLink: string;
}

export function scanFailedMail(input: ScanFailedMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.transferLink);
  const file = required(cleanInline(input.fileName), 'fileName');
  const finding = cleanInline(input.finding) || '?';
  const view = linkBlocks(c, c.text('scanFailed.button'), link);
  const subject = subjectLine(c.text('scanFailed.subject', { file: truncate(file, SUBJECT_PART_MAX) }));
  const intro = c.text('scanFailed.intro', { file, finding });
  const body = joinHtml([
    heading(c.html('scanFailed.heading', { file: breakable(escapeHtml(file)) })),
    paragraph(c.html('scanFailed.intro', { file: strong(escapeHtml(file)), finding: escapeHtml(finding) })),
    paragraph(c.html('scanFailed.advice')),
    view.html,
  ]);
  const text = [c.text('scanFailed.heading', { file }), intro, c.text('scanFailed.advice'), view.text];
  return mail(input.lang, subject, intro, body, text, c.text('scanFailed.footer'));
}

// ---- a transfer shared while uploading, withdrawn (its completion mail is the transfer mail) ----

export interface LiveWithdrawnMailInput {
  readonly title: string;
  /** the sender's name, or their address: the footer is the transfer mail's */
  readonly sender: string;
}

/** To the waiting and the already mailed when the sender cancels an upload shared at its start. */
export function liveWithdrawnMail(input: LiveWithdrawnMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const title = required(cleanInline(input.title), 'title');
  const headingText = c.text('liveWithdrawn.heading');
  const subject = subjectLine(c.text('liveWithdrawn.subject', { title: truncate(title, SUBJECT_PART_MAX) }));
  const bodyText = c.text('liveWithdrawn.body', { title });
  const body = joinHtml([
    heading(escapeHtml(headingText)),
    paragraph(c.html('liveWithdrawn.body', { title: breakable(escapeHtml(title)) })),
  ]);
  const sender = required(cleanInline(input.sender), 'sender');
  return mail(input.lang, subject, bodyText, body, [headingText, bodyText], c.text('transfer.footer', { sender }));
}

// ---- an abuse report reaches the operator -------------------------------------------

export interface AbuseReportMailInput {
  readonly slug: string;
  readonly reason: string;
  readonly reporterEmail?: string;
  readonly details?: string;
  readonly reportId: string;
  readonly downloadLink: string;
}

/** To the operator address (ABUSE_REPORT_TO), always in English: an operator's mail, not a user's. */
export function abuseReportMail(input: AbuseReportMailInput): RenderedMail {
  const link = safeLink(input.downloadLink);
  const reporter = cleanInline(input.reporterEmail ?? '') || '-';
  const details = (input.details ?? '').trim() || '-';
  const subject = subjectLine(`Abuse report on transfer ${input.slug}: ${input.reason}`);
  const lines: [string, string][] = [
    ['Transfer', input.slug],
    ['Reason', input.reason],
    ['Reporter', reporter],
    ['Report id', input.reportId],
  ];
  const body = joinHtml([
    heading(escapeHtml(`Abuse report: ${input.slug}`)),
    rows(
      lines.map(([k, v]) => [escapeHtml(k), breakable(escapeHtml(v))]),
      { labels: true },
    ),
    paragraph(escapeHtml(details)),
    paragraph(
      escapeHtml(`Review: npm run abuse -- show ${input.slug}; disable: npm run abuse -- disable ${input.slug}`),
      { muted: true, small: true },
    ),
    paragraph(breakable(escapeHtml(link))),
  ]);
  const text = [`Abuse report: ${input.slug}`, lines.map(([k, v]) => `${k}: ${v}`).join('\n'), details, link];
  return mail('en', subject, `${input.reason} · ${input.slug}`, body, text, 'SendBridge operator mail');
}

// ---- review activity, to the sender (batched: one per transfer per 10 minutes) -----------------

/** One comment or decision a review mail lists. */
export type ReviewMailItem =
  | {
      readonly kind: 'comment';
      /** a verified address, or a visitor's typed name */
      readonly who: string;
      readonly verified: boolean;
      readonly fileName: string;
      /** plain text (up to 2,000 characters; the mail shows the start of a long one) */
      readonly body: string;
    }
  | {
      readonly kind: 'approved' | 'changes_requested';
      readonly who: string;
      readonly verified: boolean;
      /** the file's name; absent: the whole transfer */
      readonly fileName?: string;
      readonly note?: string;
    };

export interface ReviewActivityMailInput {
  /** the transfer's title (first file name or file count) */
  readonly title: string;
  readonly comments: number;
  readonly approvals: number;
  readonly changesRequested: number;
  /** what happened, oldest first; the first MAX_LISTED are shown */
  readonly items: readonly ReviewMailItem[];
  /** the sender's view of the transfer, where the review is read */
  readonly reviewLink: string;
}

/** A review comment in a mail: the start of it, on one line. */
const REVIEW_BODY_MAX = 300;

export function reviewActivityMail(input: ReviewActivityMailInput & WithLang): RenderedMail {
  const c = copyFor(input.lang);
  const link = safeLink(input.reviewLink);
  const title = required(cleanInline(input.title), 'title');
  const counts = [
    input.comments > 0 ? c.text('review.comments', {}, input.comments) : '',
    input.approvals > 0 ? c.text('review.approvals', {}, input.approvals) : '',
    input.changesRequested > 0 ? c.text('review.changes', {}, input.changesRequested) : '',
  ].filter(Boolean);
  const summary = counts.join(' · ');
  const { shown, rest } = overflow(input.items);
  const lines = shown.map((item) => {
    const who = cleanInline(item.who) + (item.verified ? '' : ` (${c.text('review.unverified')})`);
    const subject = item.fileName ? cleanInline(item.fileName) : c.text('review.wholeTransfer');
    if (item.kind === 'comment') {
      return {
        head: `${who} · ${c.text('review.onFile', { file: subject })}`,
        text: truncate(cleanInline(item.body), REVIEW_BODY_MAX),
      };
    }
    const head = c.text(item.kind === 'approved' ? 'review.approved' : 'review.changesLine', { who, subject });
    return { head, text: item.note ? truncate(cleanInline(item.note), REVIEW_BODY_MAX) : '' };
  });
  const more = rest > 0 ? c.text('andMore', {}, rest) : '';
  const view = linkBlocks(c, c.text('review.button'), link);
  const subjectText = subjectLine(c.text('review.subject', { title: truncate(title, SUBJECT_PART_MAX) }));
  const body = joinHtml([
    heading(c.html('review.heading', { title: breakable(escapeHtml(title)) })),
    paragraph(escapeHtml(summary)),
    view.html,
    list(lines.map((l) => joinHtml([strong(escapeHtml(l.head)), l.text ? escapeHtml(`${c.colon} ${l.text}`) : NONE]))),
    more ? paragraph(escapeHtml(more), { muted: true, small: true }) : NONE,
  ]);
  const text = [
    c.text('review.heading', { title }),
    summary,
    view.text,
    lines.map((l) => (l.text ? `- ${l.head}: ${l.text}` : `- ${l.head}`)).join('\n'),
    more || undefined,
  ];
  // the download notices' footer: the sender sent these files (the mail catalogues are in every bundle that mails)
  return mail(input.lang, subjectText, summary, body, text, c.text('downloadNotice.footer'));
}
