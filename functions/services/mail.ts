/**
 * Product mail sent by the transfer loop. A mail that fails is logged and reported to the
 * caller; it never undoes the action that caused it (a download stays counted, a send stays sent).
 */
import { mailLanguageOf, type MailLanguage } from '../domain/transfer-api';
import { senderReviewPath } from '../domain/review';
import { sendMail } from '../adapters/mailer';
import type {
  RenderedMail,
  RequestUploadMailInput,
  ReviewActivityMailInput,
  TeamInviteMailInput,
  TrialEndingMailInput,
} from '../adapters/mail/templates';
import type { FileRecord, TransferRecipient, TransferRecord } from '../data/transfers';
import { languagesOf } from '../data/users';
import { errorFields, log } from '../lib/log';
import { config } from '../lib/env';
import { mapLimited } from '../lib/concurrency';
import { linkOriginOf, senderFromOf } from './link-origin';

const MAIL_CONCURRENCY = 10;

/**
 * The templates (and with them i18next and the mail catalogues), loaded on the first mail: a
 * dynamic import, so a bundle whose routes import this module but never mail (GET /me, the
 * dashboard, the ZIP job...) does not carry them (docs/decisions/, "Lambda bundles").
 */
type Templates = typeof import('../adapters/mail/templates');
const templates = (): Promise<Templates> => import('../adapters/mail/templates');

async function deliver(
  to: string,
  mail: RenderedMail,
  kind: string,
  replyTo?: string,
  from?: string,
): Promise<boolean> {
  try {
    await sendMail({ to: [to], ...mail, ...(replyTo ? { replyTo } : {}), ...(from ? { from } : {}), tags: { kind } });
    return true;
  } catch (err) {
    log.error('mail not sent', { kind, ...errorFields(err) });
    return false;
  }
}

function recipientLink(origin: string, slug: string, recipientId: string): string {
  return `${origin}/downloads/${slug}/${recipientId}`;
}

/** Recipients with an account get mail in their own language; a failed lookup falls back to the sender's. */
async function recipientLanguages(emails: readonly string[]): Promise<Map<string, string>> {
  try {
    return await languagesOf(emails);
  } catch (err) {
    log.warn('recipient languages not read', errorFields(err));
    return new Map();
  }
}

/** Each of `recipients` gets their own link in a mail rendered by `render`; returns the addresses that failed. */
async function mailRecipients(
  t: TransferRecord,
  recipients: readonly TransferRecipient[],
  kind: string,
  render: (lang: MailLanguage, downloadLink: string) => RenderedMail,
): Promise<string[]> {
  // links on the sender's verified custom domain, From their verified sender domain.
  const [recipientLang, origin, from] = await Promise.all([
    recipientLanguages(recipients.map((r) => r.email)),
    linkOriginOf(t),
    senderFromOf(t),
  ]);
  // Up to 300 recipients (teamelite) must be mailed within API Gateway's 30 s.
  const results = await mapLimited(recipients, MAIL_CONCURRENCY, async (r) => {
    const ok = await deliver(
      r.email,
      render(mailLanguageOf(recipientLang.get(r.email) ?? t.lang), recipientLink(origin, t.slug, r.recipientId)),
      kind,
      t.senderEmail,
      from,
    );
    return ok ? null : r.email;
  });
  return results.filter((r): r is string => r !== null);
}

/** A file as a mail lists it: an end-to-end encrypted one by the size its recipient gets, not the sealed one. */
function mailFileOf(f: FileRecord) {
  return { fileName: f.fileName, size: f.e2e?.plainSize ?? f.size };
}

function transferMailFor(m: Templates, t: TransferRecord, files: readonly FileRecord[]) {
  const mailFiles = files.map(mailFileOf);
  return (lang: MailLanguage, downloadLink: string) =>
    m.transferMail({
      lang,
      senderEmail: t.senderEmail,
      ...(t.senderName ? { senderName: t.senderName } : {}),
      message: t.message,
      files: mailFiles,
      downloadLink,
      expiryDate: t.expiryDate,
      passwordProtected: Boolean(t.passwordHash),
      passphraseNeeded: t.e2e?.mode === 'passphrase',
      guest: t.anon,
    });
}

/** The transfer mail again, to some of its recipients (POST /transfers/emailSend); returns the addresses that failed. */
export async function mailTransferAgain(
  t: TransferRecord,
  files: readonly FileRecord[],
  recipients: readonly TransferRecipient[],
): Promise<string[]> {
  return mailRecipients(t, recipients, 'transfer-resend', transferMailFor(await templates(), t, files));
}

/** "A new version of <file> is ready" to every recipient, with their own link; returns the addresses that failed. */
export async function mailNewVersion(t: TransferRecord, file: FileRecord): Promise<string[]> {
  const m = await templates();
  const mailFiles = [mailFileOf(file)];
  return mailRecipients(t, t.recipients, 'new-version', (lang, downloadLink) =>
    m.newVersionMail({
      lang,
      senderEmail: t.senderEmail,
      ...(t.senderName ? { senderName: t.senderName } : {}),
      files: mailFiles,
      downloadLink,
      expiryDate: t.expiryDate,
      passwordProtected: Boolean(t.passwordHash),
      passphraseNeeded: t.e2e?.mode === 'passphrase',
      guest: t.anon,
    }),
  );
}

/** A reminder with their own link to recipients who have not downloaded; returns the addresses that failed. */
export async function mailTransferReminder(
  t: TransferRecord,
  files: readonly FileRecord[],
  recipients: readonly TransferRecipient[],
  kind: 'reminder' | 'reminder-scheduled',
): Promise<string[]> {
  const m = await templates();
  const mailFiles = files.map(mailFileOf);
  return mailRecipients(t, recipients, kind, (lang, downloadLink) =>
    m.transferReminderMail({
      lang,
      senderEmail: t.senderEmail,
      ...(t.senderName ? { senderName: t.senderName } : {}),
      files: mailFiles,
      downloadLink,
      expiryDate: t.expiryDate,
      passwordProtected: Boolean(t.passwordHash),
      passphraseNeeded: t.e2e?.mode === 'passphrase',
      guest: t.anon,
    }),
  );
}

/**
 * Mails each recipient their link and the sender a confirmation; returns the recipients that
 * failed. Recipients mailed at the start of the upload (`recipientsMailedAt`) are not mailed again.
 */
export async function mailTransferSent(t: TransferRecord, files: readonly FileRecord[]): Promise<string[]> {
  const m = await templates();
  const lang = mailLanguageOf(t.lang);
  const mailFiles = files.map(mailFileOf);
  const failed =
    t.recipientsMailedAt === undefined
      ? await mailRecipients(t, t.recipients, 'transfer', transferMailFor(m, t, files))
      : [];
  await deliver(
    t.senderEmail,
    m.transferSentMail({
      lang,
      recipients: t.recipients.map((r) => r.email),
      files: mailFiles,
      downloadLink: `${await linkOriginOf(t)}/w/${t.slug}`,
      expiryDate: t.expiryDate,
    }),
    'transfer-sent',
  );
  return failed;
}

export async function mailSenderCode(
  email: string,
  code: string,
  validMinutes: number,
  lang: string | undefined,
): Promise<boolean> {
  return deliver(
    email,
    (await templates()).senderCodeMail({ lang: mailLanguageOf(lang), code, validMinutes }),
    'sender-code',
  );
}

/** The code a recipient of a verified transfer types on its download page. */
export async function mailRecipientCode(
  email: string,
  code: string,
  validMinutes: number,
  lang: string | undefined,
): Promise<boolean> {
  return deliver(
    email,
    (await templates()).senderCodeMail({ lang: mailLanguageOf(lang), code, validMinutes, kind: 'recipient' }),
    'recipient-code',
  );
}

export async function mailDownloadNotice(
  t: TransferRecord,
  d: { downloaderEmail?: string; fileName?: string; downloadedAt: number; countryCode: string },
): Promise<boolean> {
  return deliver(
    t.senderEmail,
    (await templates()).downloadNoticeMail({
      lang: mailLanguageOf(t.lang),
      ...(d.downloaderEmail ? { downloaderEmail: d.downloaderEmail } : {}),
      ...(d.fileName ? { fileName: d.fileName } : {}),
      downloadedAt: d.downloadedAt,
      ...(d.countryCode !== 'XX' ? { country: d.countryCode } : {}),
      transferLink: `${await linkOriginOf(t)}/w/${t.slug}`,
    }),
    'download-notice',
  );
}

/** The sender's notice that a download limit of their transfer is used up (services/deliveries.ts, once per limit). */
export async function mailLimitReached(
  t: TransferRecord,
  d: { title: string; limit: number; recipient?: string },
): Promise<boolean> {
  return deliver(
    t.senderEmail,
    (await templates()).limitReachedMail({
      lang: mailLanguageOf(t.lang),
      title: d.title,
      limit: d.limit,
      ...(d.recipient ? { recipient: d.recipient } : {}),
      transferLink: `${await linkOriginOf(t)}/w/${t.slug}`,
    }),
    'download-limit',
  );
}

export async function mailExtensionRequest(
  t: TransferRecord,
  requesterEmail: string,
  title: string,
  approveLink: string,
): Promise<boolean> {
  return deliver(
    t.senderEmail,
    (await templates()).extensionRequestMail({
      lang: mailLanguageOf(t.lang),
      requesterEmail,
      title,
      expiredAt: t.expiryDate,
      approveLink,
    }),
    'extension-request',
    requesterEmail,
  );
}

export async function mailExtensionGranted(
  to: string,
  lang: string,
  v: { title: string; expiryDate: number; slug: string; senderName?: string },
): Promise<boolean> {
  return deliver(
    to,
    (await templates()).extensionGrantedMail({
      lang: mailLanguageOf(lang),
      title: v.title,
      expiryDate: v.expiryDate,
      downloadLink: `${config().appOrigin}/downloads/${v.slug}`,
      ...(v.senderName ? { senderName: v.senderName } : {}),
    }),
    'extension-granted',
  );
}

export async function mailPasswordReset(
  to: string,
  resetLink: string,
  validMinutes: number,
  lang: string | undefined,
): Promise<boolean> {
  return deliver(
    to,
    (await templates()).passwordResetMail({ lang: mailLanguageOf(lang), resetLink, validMinutes }),
    'password-reset',
  );
}

/** The requester hears that someone uploaded to their file request (in the requester's language). */
export async function mailRequestUpload(
  to: string,
  lang: string | undefined,
  v: RequestUploadMailInput,
): Promise<boolean> {
  return deliver(
    to,
    (await templates()).requestUploadMail({ lang: mailLanguageOf(lang), ...v }),
    'request-upload',
    v.senderEmail,
  );
}

/** The trial ends in 3 days (the provider's trial_will_end), in the user's language. */
export async function mailTrialEnding(to: string, lang: string | undefined, v: TrialEndingMailInput): Promise<boolean> {
  return deliver(to, (await templates()).trialEndingMail({ lang: mailLanguageOf(lang), ...v }), 'trial-ending');
}

/** A team admin's invitation, in the language the admin's app used (the invitee has no account yet). */
export async function mailTeamInvite(to: string, lang: string | undefined, v: TeamInviteMailInput): Promise<boolean> {
  return deliver(
    to,
    (await templates()).teamInviteMail({ lang: mailLanguageOf(lang), ...v }),
    'team-invite',
    v.adminEmail,
  );
}

/** A file of the sender's transfer was found infected and quarantined (the sender's language). */
export async function mailScanFailed(t: TransferRecord, v: { fileName: string; finding: string }): Promise<boolean> {
  return deliver(
    t.senderEmail,
    (await templates()).scanFailedMail({
      lang: mailLanguageOf(t.lang),
      fileName: v.fileName,
      finding: v.finding,
      transferLink: `${await linkOriginOf(t)}/w/${t.slug}`,
    }),
    'scan-failed',
  );
}

/** An abuse report to the operator address. */
export async function mailAbuseReport(
  to: string,
  v: import('../adapters/mail/templates').AbuseReportMailInput,
): Promise<boolean> {
  return deliver(to, (await templates()).abuseReportMail(v), 'abuse-report', v.reporterEmail);
}

/** The transfer mail at the start of an upload shared then: each recipient's own link; returns the addresses that failed. */
export async function mailTransferStarted(t: TransferRecord, files: readonly FileRecord[]): Promise<string[]> {
  return mailRecipients(t, t.recipients, 'transfer-live', transferMailFor(await templates(), t, files));
}

/** Someone waiting for a transfer, with the language they read the page in. */
export interface MailedWatcher {
  readonly email: string;
  readonly lang: string;
}

/**
 * To those who asked on the download page: the transfer mail (its files, its link on the
 * download page, until when), in the language they read the page in; returns the addresses that failed.
 */
export async function mailLiveComplete(
  t: TransferRecord,
  files: readonly FileRecord[],
  watchers: readonly MailedWatcher[],
): Promise<string[]> {
  const render = transferMailFor(await templates(), t, files);
  const [origin, from] = await Promise.all([linkOriginOf(t), senderFromOf(t)]);
  const results = await mapLimited(watchers, MAIL_CONCURRENCY, async (w) =>
    (await deliver(
      w.email,
      render(mailLanguageOf(w.lang), `${origin}/w/${t.slug}`),
      'live-complete',
      t.senderEmail,
      from,
    ))
      ? null
      : w.email,
  );
  return results.filter((r): r is string => r !== null);
}

/** "The transfer was withdrawn" to each address once; returns the addresses that failed. */
export async function mailLiveWithdrawn(
  t: TransferRecord,
  to: readonly MailedWatcher[],
  title: string,
): Promise<string[]> {
  const m = await templates();
  const from = await senderFromOf(t);
  const results = await mapLimited(to, MAIL_CONCURRENCY, async (w) =>
    (await deliver(
      w.email,
      m.liveWithdrawnMail({ lang: mailLanguageOf(w.lang), title, sender: t.senderName || t.senderEmail }),
      'live-withdrawn',
      t.senderEmail,
      from,
    ))
      ? null
      : w.email,
  );
  return results.filter((r): r is string => r !== null);
}

/** The sender's batched review mail (services/review-mail.ts): what recipients did since the last one. */
export async function mailReviewActivity(
  t: TransferRecord,
  v: Omit<ReviewActivityMailInput, 'reviewLink'>,
): Promise<boolean> {
  return deliver(
    t.senderEmail,
    (await templates()).reviewActivityMail({
      lang: mailLanguageOf(t.lang),
      ...v,
      // the dashboard is on the app's own origin (a custom link domain serves download pages only)
      reviewLink: `${config().appOrigin}${senderReviewPath(t.slug)}`,
    }),
    'review-activity',
  );
}
