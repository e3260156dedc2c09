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
import { stringsFor, type MailStrings, type Plural } from './strings';
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
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

function required(value: string, what: string): string {
  if (!value) throw new Error(`Mail input ${what} is empty`);
  return value;
}

// ---- copy and formatting -------------------------------------------------------------------

const PLACEHOLDER = /\{(\w+)\}/gu;

function fillWith(template: string, vars: Readonly<Record<string, string>>, literal: (s: string) => string): string {
  let out = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const value = vars[match[1] ?? ''];
    if (value === undefined) throw new Error(`Mail copy placeholder ${match[0]} has no value`);
    out += literal(template.slice(last, match.index)) + value;
    last = match.index + match[0].length;
  }
  return out + literal(template.slice(last));
}

/** Copy with plain values, for the text part and the subject. */
function fill(template: string, vars: Readonly<Record<string, string>>): string {
  return fillWith(template, vars, (s) => s);
}

/** Copy with HTML values: the copy's own words are escaped, the values are already markup. */
function fillHtml(template: string, vars: Readonly<Record<string, Html>>): Html {
  return fillWith(template, vars, escapeHtml) as Html;
}

function plural(s: MailStrings, forms: Plural, count: number): string {
  const form = new Intl.PluralRules(s.locale).select(count) === 'one' ? forms.one : forms.other;
  return fill(form, { count: new Intl.NumberFormat(s.locale).format(count) });
}

/** formatBytes' value with the language's decimal separator (and French unit names). */
function formatSize(s: MailStrings, bytes: number): string {
  const [value = '0', unit = 'B'] = formatBytes(bytes).split(' ');
  const number = new Intl.NumberFormat(s.locale, { maximumFractionDigits: 1, useGrouping: false }).format(Number(value));
  return `${number}\u00a0${s.byteUnits?.[unit] ?? unit}`;
}

/** e.g. '21 November 2026 at 06:05 UTC', '21. November 2026 um 06:05 UTC'. */
function formatDate(s: MailStrings, epochMs: number): string {
  if (!Number.isFinite(epochMs)) throw new RangeError('Mail date must be epoch milliseconds');
  return new Intl.DateTimeFormat(s.locale, {
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
function placeName(s: MailStrings, country: string | undefined): string {
  const value = cleanInline(country ?? '');
  const unknown = s.downloadNotice.unknownLocation;
  if (!value || value.toLowerCase() === 'unknown') return unknown;
  if (!/^[A-Za-z]{2}$/u.test(value)) return value;
  const code = value.toUpperCase();
  if (code === 'XX' || code === 'ZZ') return unknown;
  const name = new Intl.DisplayNames(s.locale, { type: 'region' }).of(code);
  return name && name !== code ? name : unknown;
}

function overflow<T>(items: readonly T[]): { shown: readonly T[]; rest: number } {
  return items.length > MAX_LISTED ? { shown: items.slice(0, MAX_LISTED), rest: items.length - MAX_LISTED } : { shown: items, rest: 0 };
}

interface FileListing {
  /** '3 files · 1.2 GB' */
  readonly summary: string;
  /** the names with sizes, after the link so a long list does not push the button down */
  readonly listHtml: Html;
  readonly listText: string;
}

/** The summary and the first MAX_LISTED names with sizes, then 'and N more'. */
function fileListing(s: MailStrings, files: readonly MailFile[]): FileListing {
  const total = files.reduce((sum, f) => sum + (Number.isFinite(f.size) && f.size > 0 ? f.size : 0), 0);
  const summary = fill(s.filesSummary, { files: plural(s, s.fileCount, files.length), size: formatSize(s, total) });
  const { shown, rest } = overflow(files.map((f) => ({ name: cleanInline(f.fileName), size: formatSize(s, f.size) })));
  const more = rest > 0 ? plural(s, s.andMore, rest) : '';
  const listHtml = joinHtml([
    rows(shown.map((f) => [escapeHtml(f.name), escapeHtml(f.size)] as const)),
    more ? paragraph(escapeHtml(more), { muted: true, small: true }) : NONE,
  ]);
  const listText = [...shown.map((f) => `- ${f.name} (${f.size})`), ...(more ? [more] : [])].join('\n');
  return { summary, listHtml, listText };
}

function linkBlocks(s: MailStrings, label: string, link: SafeUrl): { html: Html; text: string } {
  return {
    html: joinHtml([button(link, escapeHtml(label)), linkFallback(escapeHtml(s.orCopyLink), link)]),
    text: `${label}${s.colon}\n${link}`,
  };
}

function subjectLine(text: string): string {
  // cleanInline turns any CR/LF that reached the copy into spaces: a header is one line.
  return cleanInline(text);
}

function mail(lang: MailLanguage, subject: string, preheader: string, body: Html, text: readonly (string | false | undefined)[], footer: string): RenderedMail {
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
}

export function transferMail(input: TransferMailInput & WithLang): RenderedMail {
  const s = stringsFor(input.lang);
  const link = safeLink(input.downloadLink);
  const name = cleanInline(input.senderName ?? '');
  const email = cleanInline(input.senderEmail);
  const sender = required(name || email, 'sender');
  const files = fileListing(s, input.files);
  const only = input.files.length === 1 ? cleanInline(input.files[0]?.fileName ?? '') : '';
  const what = only || plural(s, s.fileCount, input.files.length);
  const message = cleanMultiline(input.message ?? '');
  const until = fill(s.availableUntil, { date: formatDate(s, input.expiryDate) });
  const password = input.passwordProtected ? fill(s.transfer.password, { sender }) : '';
  const footer = fill(s.transfer.footer, { sender });
  const download = linkBlocks(s, s.downloadButton, link);

  const subject = subjectLine(fill(s.transfer.subject, { sender: truncate(sender, SUBJECT_PART_MAX), what: truncate(what, SUBJECT_PART_MAX) }));
  const headingText = fill(s.transfer.heading, { sender, what });
  const showEmail = Boolean(name && email);

  const body = joinHtml([
    heading(fillHtml(s.transfer.heading, { sender: breakable(escapeHtml(sender)), what: breakable(escapeHtml(what)) })),
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
    message && `${s.transfer.messageLabel}${s.colon}\n${message}`,
    download.text,
    password ? `${until}\n${password}` : until,
    `${files.summary}\n${files.listText}`,
  ];
  return mail(input.lang, subject, files.summary, body, text, footer);
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
  const s = stringsFor(input.lang);
  const link = safeLink(input.downloadLink);
  const recipients = input.recipients.map(cleanInline).filter(Boolean);
  const first = required(recipients[0] ?? '', 'recipients');
  const files = fileListing(s, input.files);
  const until = fill(s.availableUntil, { date: formatDate(s, input.expiryDate) });
  const open = linkBlocks(s, s.transferSent.button, link);
  const { shown, rest } = overflow(recipients);
  const more = rest > 0 ? plural(s, s.andMore, rest) : '';

  const subject = subjectLine(
    recipients.length === 1
      ? fill(s.transferSent.subjectOne, { first: truncate(first, SUBJECT_PART_MAX) })
      : fill(s.transferSent.subjectMany, {
          first: truncate(first, SUBJECT_PART_MAX),
          others: plural(s, s.transferSent.others, recipients.length - 1),
        }),
  );

  const body = joinHtml([
    heading(escapeHtml(s.transferSent.heading)),
    paragraph(escapeHtml(s.transferSent.sentTo)),
    list(shown.map((r) => escapeHtml(r))),
    more ? paragraph(escapeHtml(more), { muted: true, small: true }) : NONE,
    open.html,
    paragraph(escapeHtml(until)),
    paragraph(escapeHtml(s.transferSent.notify)),
    paragraph(strong(escapeHtml(files.summary))),
    files.listHtml,
  ]);
  const text = [
    s.transferSent.heading,
    [s.transferSent.sentTo, ...shown.map((r) => `- ${r}`), ...(more ? [more] : [])].join('\n'),
    open.text,
    `${until}\n${s.transferSent.notify}`,
    `${files.summary}\n${files.listText}`,
  ];
  return mail(input.lang, subject, files.summary, body, text, s.transferSent.footer);
}

// ---- 3. guest sender verification code -----------------------------------------------------

export interface SenderCodeMailInput {
  /** the code to type (5 characters today) */
  readonly code: string;
  /** how long the code works */
  readonly validMinutes: number;
}

export function senderCodeMail(input: SenderCodeMailInput & WithLang): RenderedMail {
  const s = stringsFor(input.lang);
  // The code also goes into the subject, so only plain letters and digits are accepted.
  if (!/^[A-Za-z0-9]{4,12}$/u.test(input.code)) throw new Error('Verification code must be 4-12 letters or digits');
  if (!Number.isInteger(input.validMinutes) || input.validMinutes <= 0) throw new RangeError('validMinutes must be a positive integer');
  const validity = plural(s, s.senderCode.validity, input.validMinutes);
  const subject = subjectLine(fill(s.senderCode.subject, { code: input.code }));

  const body = joinHtml([
    heading(escapeHtml(s.senderCode.heading)),
    paragraph(escapeHtml(s.senderCode.intro)),
    codeBox(escapeHtml(input.code)),
    paragraph(escapeHtml(validity)),
    paragraph(escapeHtml(s.senderCode.ignore), { muted: true, small: true }),
  ]);
  const text = [s.senderCode.heading, s.senderCode.intro, `    ${input.code}`, `${validity}\n${s.senderCode.ignore}`];
  return mail(input.lang, subject, validity, body, text, s.senderCode.footer);
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
  const s = stringsFor(input.lang);
  const link = safeLink(input.transferLink);
  const who = cleanInline(input.downloaderEmail ?? '') || s.downloadNotice.someone;
  const what = cleanInline(input.fileName ?? '') || s.downloadNotice.allFiles;
  const when = formatDate(s, input.downloadedAt);
  const where = placeName(s, input.country);
  const view = linkBlocks(s, s.downloadNotice.button, link);

  const subject = subjectLine(fill(s.downloadNotice.subject, { who: truncate(who, SUBJECT_PART_MAX), what: truncate(what, SUBJECT_PART_MAX) }));
  const preheader = `${when} · ${where}`;
  const body = joinHtml([
    heading(fillHtml(s.downloadNotice.heading, { who: breakable(escapeHtml(who)), what: breakable(escapeHtml(what)) })),
    rows(
      [
        [escapeHtml(s.downloadNotice.whenLabel), escapeHtml(when)],
        [escapeHtml(s.downloadNotice.whereLabel), escapeHtml(where)],
      ],
      { labels: true },
    ),
    view.html,
  ]);
  const text = [
    fill(s.downloadNotice.heading, { who, what }),
    `${s.downloadNotice.whenLabel}${s.colon} ${when}\n${s.downloadNotice.whereLabel}${s.colon} ${where}`,
    view.text,
  ];
  return mail(input.lang, subject, preheader, body, text, s.downloadNotice.footer);
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
  const s = stringsFor(input.lang);
  const link = safeLink(input.approveLink);
  const requester = required(cleanInline(input.requesterEmail), 'requesterEmail');
  const title = required(cleanInline(input.title), 'title');
  const hours = String(EXTENSION_HOURS);
  const date = formatDate(s, input.expiredAt);
  const approveInfo = fill(s.extensionRequest.approveInfo, { hours });
  const approve = linkBlocks(s, fill(s.extensionRequest.button, { hours }), link);

  const subject = subjectLine(
    fill(s.extensionRequest.subject, { requester: truncate(requester, SUBJECT_PART_MAX), title: truncate(title, SUBJECT_PART_MAX) }),
  );
  const bodyText = fill(s.extensionRequest.body, { requester, title, date });
  const body = joinHtml([
    heading(escapeHtml(s.extensionRequest.heading)),
    paragraph(
      fillHtml(s.extensionRequest.body, {
        requester: strong(breakable(escapeHtml(requester))),
        title: breakable(escapeHtml(title)),
        date: escapeHtml(date),
      }),
    ),
    paragraph(escapeHtml(approveInfo)),
    approve.html,
    paragraph(escapeHtml(s.extensionRequest.ignore), { muted: true, small: true }),
  ]);
  const text = [s.extensionRequest.heading, bodyText, approveInfo, approve.text, s.extensionRequest.ignore];
  return mail(input.lang, subject, bodyText, body, text, s.extensionRequest.footer);
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
  const s = stringsFor(input.lang);
  const link = safeLink(input.downloadLink);
  const title = required(cleanInline(input.title), 'title');
  const sender = cleanInline(input.senderName ?? '');
  const hours = String(EXTENSION_HOURS);
  const date = formatDate(s, input.expiryDate);
  const headingText = fill(s.extensionGranted.heading, { hours });
  const download = linkBlocks(s, s.downloadButton, link);

  const subject = subjectLine(fill(s.extensionGranted.subject, { hours, title: truncate(title, SUBJECT_PART_MAX) }));
  const template = sender ? s.extensionGranted.bodyWithSender : s.extensionGranted.body;
  const bodyText = fill(template, { sender, title, date });
  const body = joinHtml([
    heading(escapeHtml(headingText)),
    paragraph(
      fillHtml(template, {
        sender: strong(breakable(escapeHtml(sender))),
        title: breakable(escapeHtml(title)),
        date: strong(escapeHtml(date)),
      }),
    ),
    download.html,
  ]);
  const text = [headingText, bodyText, download.text];
  return mail(input.lang, subject, bodyText, body, text, s.extensionGranted.footer);
}

// ---- 7. password reset link ----------------------------------------------------------------

export interface PasswordResetMailInput {
  /** {APP_ORIGIN}/updatepassword?t=<token> */
  readonly resetLink: string;
  /** minutes the link works */
  readonly validMinutes: number;
}

export function passwordResetMail(input: PasswordResetMailInput & WithLang): RenderedMail {
  const s = stringsFor(input.lang);
  const link = safeLink(input.resetLink);
  if (!Number.isInteger(input.validMinutes) || input.validMinutes <= 0) throw new RangeError('validMinutes must be a positive integer');
  const validity = plural(s, s.passwordReset.validity, input.validMinutes);
  const reset = linkBlocks(s, s.passwordReset.button, link);
  const subject = subjectLine(s.passwordReset.subject);

  const body = joinHtml([
    heading(escapeHtml(s.passwordReset.heading)),
    paragraph(escapeHtml(s.passwordReset.intro)),
    reset.html,
    paragraph(escapeHtml(validity)),
    paragraph(escapeHtml(s.passwordReset.ignore), { muted: true, small: true }),
  ]);
  const text = [s.passwordReset.heading, s.passwordReset.intro, reset.text, `${validity}\n${s.passwordReset.ignore}`];
  return mail(input.lang, subject, s.passwordReset.intro, body, text, s.passwordReset.footer);
}
