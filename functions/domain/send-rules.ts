/**
 * The rules of a send that depend on who sends it (spec §5, §6): the plan's recipients, files,
 * size and expiry choices, what a guest may send (links, file types, the verified address),
 * whom a team member may share with. Pure and without zod: the create routes parse the body
 * with the static `sendBodySchema` (validation.ts), the service gathers the sender's facts and
 * calls `checkSend`; the send form's `transferDraftSchema` runs `sendIssues` over the same body.
 */
import { CUSTOM_DATE_MARKER, checkCustomExpiry, expiryDateFor, isExpiryAllowed } from './expiry';
import { dedupeFiles, fileEntriesOf, fileRuleViolations, totalSize, type FileEntry } from './file-filters';
import { SEND_PASSWORD_MIN_LENGTH, normaliseEmail, type SendAs } from './input-rules';
import { cipherSizeOf, passphraseParamsValid, type E2eTransferParams } from './e2e-params';
import { limitsFor } from './plans';
import type { Recording } from './previews';

/** Problems of a send the rules report (each a ProblemCode of validation.ts, with its English text there). */
export type SendIssueCode =
  | 'too_many_recipients'
  | 'email_to_required'
  | 'sender_email_required'
  | 'invalid_email'
  | 'links_reserved'
  | 'no_files'
  | 'too_many_files'
  | 'transfer_too_large'
  | 'file_not_allowed'
  | 'expiry_not_allowed'
  | 'custom_expiry_required'
  | 'expiry_too_soon'
  | 'expiry_too_late'
  | 'password_too_short'
  | 'encryption_needs_account'
  | 'encryption_passphrase_required'
  | 'invalid_encryption';

/** Values an issue's text needs. */
export interface SendIssueParams {
  readonly limit?: number;
  /** too_many_recipients: guests and free users get the spec's upsell wording */
  readonly upsell?: boolean;
  readonly fileName?: string;
}

export interface SendIssue {
  /** where in the body, as zod paths are: `['emailTo']`, `['voiceMemo', 0]` */
  readonly path: readonly (string | number)[];
  readonly code: SendIssueCode;
  readonly params: SendIssueParams;
}

export interface SendRecipient {
  readonly email: string;
  readonly name?: string | undefined;
  readonly company?: string | undefined;
}

/**
 * A send's body once the static schema has checked it: types and lengths, e-mail addresses of
 * recipients, file entries normalised, recipients and files without duplicates. Nothing here
 * depends on the sender yet; an empty `senderEmail` or `password` means none.
 */
export interface SendBody {
  readonly sendAs?: SendAs | undefined;
  readonly senderEmail?: string | undefined;
  readonly senderName?: string | undefined;
  readonly message: string;
  readonly emailTo: readonly SendRecipient[];
  readonly password?: string | undefined;
  readonly expirySeconds: number;
  readonly customExpiryDate?: number | undefined;
  readonly fileObjects: readonly FileEntry[];
  readonly recordedVideos: readonly FileEntry[];
  readonly voiceMemo: readonly FileEntry[];
  readonly shareWith: readonly string[];
  readonly verifiedRecipients?: VerifiedRecipients | undefined;
  readonly e2e?: E2eTransferParams | undefined;
}

/** "Verified recipients": addresses (besides an email send's recipients) and a domain that may download. */
export interface VerifiedRecipients {
  readonly addresses: readonly string[];
  readonly domain?: string | undefined;
}

/** The body with its way of sending decided (the caller's default when the body names none). */
export type SendDraft = SendBody & { readonly sendAs: SendAs };

/** What the plan rules need: the sender's role (anon for a guest) and the time of the send. */
export interface PlanFacts {
  readonly role: string;
  /** epoch ms, for the custom expiry bounds */
  readonly now: number;
  /** bytes and files already in the transfer, counted against the plan */
  readonly existingBytes?: number;
  readonly existingFileCount?: number;
}

/** too_many_recipients: the plan's cap, and whether the spec's upsell wording applies. */
export function tooManyRecipientsParams(role: string): SendIssueParams {
  const plan = limitsFor(role);
  return { limit: plan.emailTo, upsell: plan.role === 'anon' || plan.role === 'free' };
}

/**
 * Every problem of a draft for a sender of `facts.role`, in the order the form shows them
 * (the first one speaks for a refused request). Empty when the plan allows the send.
 */
export function sendIssues(d: SendDraft, facts: PlanFacts): SendIssue[] {
  const limits = limitsFor(facts.role);
  const issues: SendIssue[] = [];
  const add = (path: readonly (string | number)[], code: SendIssueCode, params: SendIssueParams = {}) => {
    issues.push({ path, code, params });
  };

  if (facts.role === 'anon' && d.sendAs === 'link') add(['sendAs'], 'links_reserved');

  const senderEmail = d.senderEmail ?? '';
  if (d.sendAs === 'email' && senderEmail === '') {
    add(['senderEmail'], 'sender_email_required');
  } else if (senderEmail !== '' && normaliseEmail(senderEmail) === null) {
    add(['senderEmail'], 'invalid_email');
  }

  if (d.sendAs === 'email' && d.emailTo.length === 0) add(['emailTo'], 'email_to_required');
  if (d.emailTo.length > limits.emailTo) add(['emailTo'], 'too_many_recipients', tooManyRecipientsParams(facts.role));

  if (d.password !== undefined && d.password !== '' && d.password.length < SEND_PASSWORD_MIN_LENGTH) {
    add(['password'], 'password_too_short');
  }

  if (!isExpiryAllowed(facts.role, d.expirySeconds)) {
    add(['expirySeconds'], 'expiry_not_allowed');
  } else if (d.expirySeconds === CUSTOM_DATE_MARKER) {
    if (d.customExpiryDate === undefined) {
      add(['customExpiryDate'], 'custom_expiry_required');
    } else {
      const problem = checkCustomExpiry(d.customExpiryDate, facts.now);
      if (problem === 'too_soon') add(['customExpiryDate'], 'expiry_too_soon');
      if (problem === 'too_late') add(['customExpiryDate'], 'expiry_too_late');
    }
  }

  const all = fileEntriesOf(d).map((e) => e.file);
  if (all.length === 0) add(['fileObjects'], 'no_files');
  if (all.length + (facts.existingFileCount ?? 0) > limits.files) add(['fileObjects'], 'too_many_files');
  if (totalSize(all) + (facts.existingBytes ?? 0) > limits.uploadLimit) add(['fileObjects'], 'transfer_too_large');
  // The app removes these before sending; one arriving here bypassed the app. Recordings are
  // files like any other: a renamed one is checked too.
  for (const { field, index, file } of fileRuleViolations(facts.role, d)) {
    add([field, index], 'file_not_allowed', { fileName: file.fileName });
  }
  for (const issue of e2eIssues(d, facts.role)) add(issue.path, issue.code);
  return issues;
}

/**
 * An encrypted send (docs/e2e-format.md): only from an account (a guest's files could not be
 * scanned and nobody would answer for them), by email only with a passphrase (a mailed link has
 * no fragment to carry the key), its passphrase parameters within the format's bounds, and every
 * file sealed, its stored size the sealed size of its plaintext; a plain send has no sealed file.
 */
function e2eIssues(d: SendDraft, role: string): Pick<SendIssue, 'path' | 'code'>[] {
  const entries = fileEntriesOf(d);
  if (!d.e2e) {
    return entries
      .filter(({ file }) => file.e2e)
      .map(({ field, index }) => ({ path: [field, index], code: 'invalid_encryption' }));
  }
  if (role === 'anon') return [{ path: ['e2e'], code: 'encryption_needs_account' }];
  const out: Pick<SendIssue, 'path' | 'code'>[] = [];
  if (d.e2e.mode === 'link' && d.sendAs === 'email')
    out.push({ path: ['e2e'], code: 'encryption_passphrase_required' });
  const kdfFits =
    d.e2e.mode === 'passphrase' ? d.e2e.kdf !== undefined && passphraseParamsValid(d.e2e.kdf) : !d.e2e.kdf;
  if (!kdfFits) out.push({ path: ['e2e', 'kdf'], code: 'invalid_encryption' });
  for (const { field, index, file } of entries) {
    if (!file.e2e || cipherSizeOf(file.e2e.plainSize) !== file.size)
      out.push({ path: [field, index], code: 'invalid_encryption' });
  }
  return out;
}

/** Who sends, as far as the rules care. */
export type SendSenderFacts =
  | {
      readonly kind: 'guest';
      /** the address the guest proved with a mailed code (their sender token) */
      readonly verifiedEmail: string;
    }
  | {
      readonly kind: 'user';
      /** the account's plan role (a team member's is the team's) */
      readonly role: string;
      readonly accountEmail: string;
      readonly name?: string | undefined;
      /** the ids the user may share a send with (their team mates); empty without a team */
      readonly teamMateIds: ReadonlySet<string>;
    };

export interface SendFacts {
  readonly sender: SendSenderFacts;
  readonly now: number;
  /** the way of sending when the body names none: the app's form sends by email, the API a link */
  readonly defaultSendAs: SendAs;
}

/** A file of a checked send; recordings keep their kind, so the download page labels and plays them. */
export type SendFile = FileEntry & { readonly recording?: Recording };

/** A send the rules allow, with every value the transfer record needs decided. */
export interface CheckedSend {
  readonly role: string;
  readonly sendAs: SendAs;
  readonly senderEmail: string;
  readonly senderName?: string;
  readonly message: string;
  /** the recipients as given (duplicates dropped) */
  readonly emailTo: readonly SendRecipient[];
  readonly password?: string;
  readonly expirySeconds: number;
  /** only with the custom date marker */
  readonly customExpiryDate?: number;
  /** epoch ms; a preset's counts again from the completion */
  readonly expiryDate: number;
  /** every file, recordings labelled, in the body's order: fileObjects, recordedVideos, voiceMemo */
  readonly files: readonly SendFile[];
  readonly totalBytes: number;
  /** team mates' ids, each once */
  readonly shareWith: readonly string[];
  readonly verifiedRecipients?: VerifiedRecipients;
  readonly e2e?: E2eTransferParams;
}

/**
 * Why a send is refused: problems of the draft (400, the first one's code), a share with
 * someone outside the sender's team (400 share_not_team), or a guest naming an address they
 * did not verify (403 sender_not_verified). Checked in that order.
 */
export type SendRefusal =
  | { readonly code: 'invalid_send'; readonly issues: readonly SendIssue[] }
  | { readonly code: 'share_not_team' }
  | { readonly code: 'sender_not_verified' };

export type SendCheck =
  | { readonly ok: true; readonly send: CheckedSend }
  | { readonly ok: false; readonly refusal: SendRefusal };

/** The role the plan rules apply to a sender. */
export function roleOfSender(sender: SendSenderFacts): string {
  return sender.kind === 'guest' ? 'anon' : sender.role;
}

/**
 * Every rule of a send for this sender, or why it is refused. A signed-in sender's address is
 * their account's unless the body names one; a guest's must be the address they verified.
 */
export function checkSend(body: SendBody, facts: SendFacts): SendCheck {
  const { sender, now } = facts;
  const role = roleOfSender(sender);
  const namedSender = body.senderEmail === '' ? undefined : body.senderEmail;
  const draft: SendDraft = {
    ...body,
    sendAs: body.sendAs ?? facts.defaultSendAs,
    senderEmail: sender.kind === 'user' ? (namedSender ?? sender.accountEmail) : namedSender,
  };
  const issues = sendIssues(draft, { role, now });
  if (issues.length > 0) return refuse({ code: 'invalid_send', issues });

  const shareWith = [...new Set(body.shareWith)];
  if (shareWith.length > 0) {
    // only the sender's own team mates (a guest has none)
    const strangers = sender.kind === 'guest' || shareWith.some((id) => !sender.teamMateIds.has(id));
    if (strangers) return refuse({ code: 'share_not_team' });
  }
  const senderEmail = draft.senderEmail ?? '';
  if (sender.kind === 'guest' && senderEmail !== sender.verifiedEmail) return refuse({ code: 'sender_not_verified' });

  const senderName = body.senderName || (sender.kind === 'user' ? sender.name : undefined);
  const customExpiryDate = draft.expirySeconds === CUSTOM_DATE_MARKER ? draft.customExpiryDate : undefined;
  const files = fileEntriesOf(draft).map(({ field, file }): SendFile => {
    if (field === 'recordedVideos') return { ...file, recording: 'video' };
    return field === 'voiceMemo' ? { ...file, recording: 'voice' } : file;
  });
  return {
    ok: true,
    send: {
      role,
      sendAs: draft.sendAs,
      senderEmail,
      ...(senderName ? { senderName } : {}),
      message: draft.message,
      emailTo: draft.emailTo,
      ...(draft.password ? { password: draft.password } : {}),
      expirySeconds: draft.expirySeconds,
      ...(customExpiryDate !== undefined ? { customExpiryDate } : {}),
      expiryDate: expiryDateFor(draft.expirySeconds, now, customExpiryDate),
      files,
      totalBytes: totalSize(files),
      shareWith,
      ...(body.verifiedRecipients ? { verifiedRecipients: body.verifiedRecipients } : {}),
      ...(body.e2e ? { e2e: body.e2e } : {}),
    },
  };
}

function refuse(refusal: SendRefusal): SendCheck {
  return { ok: false, refusal };
}

/**
 * Why files cannot be added to a sent transfer: a guest's blocked file (with where it sits),
 * nothing new (every file is already in it), or the plan's files or bytes with what is there.
 */
export type AddFilesRefusal =
  | { readonly code: 'file_not_allowed'; readonly issue: SendIssue }
  | { readonly code: 'no_new_files' }
  | { readonly code: 'too_many_files' }
  | { readonly code: 'transfer_too_large' };

export type AddFilesCheck =
  | { readonly ok: true; readonly files: readonly FileEntry[] }
  | { readonly ok: false; readonly refusal: AddFilesRefusal };

/** The files a sender of `role` may add to a transfer holding `existing`: the new ones, within the plan. */
export function checkAddFiles(
  files: readonly FileEntry[],
  existing: readonly FileEntry[],
  role: string,
): AddFilesCheck {
  const { kept } = dedupeFiles(files, existing);
  // Only accounts add files today; the rule still runs over the call, as on every path.
  const blocked = fileRuleViolations(role, { fileObjects: kept })[0];
  if (blocked) {
    const params = { fileName: blocked.file.fileName };
    const issue: SendIssue = { path: ['fileObjects', blocked.index], code: 'file_not_allowed', params };
    return { ok: false, refusal: { code: 'file_not_allowed', issue } };
  }
  if (kept.length === 0) return { ok: false, refusal: { code: 'no_new_files' } };
  const limits = limitsFor(role);
  if (existing.length + kept.length > limits.files) return { ok: false, refusal: { code: 'too_many_files' } };
  const bytes = totalSize(existing) + totalSize(kept);
  if (bytes > limits.uploadLimit) return { ok: false, refusal: { code: 'transfer_too_large' } };
  return { ok: true, files: kept };
}
