/**
 * The quick-send form as pure data and transitions (spec §2, §4, §5, §6). Components hold a
 * `SendForm` in state and call these; validity comes from the same draft schema the API
 * applies (conventions 4), so the button and the server never disagree about a send. That schema
 * (with zod) loads on first use (draft-rules.ts); everything else here is plain code.
 */
import {
  CUSTOM_DATE_MARKER,
  DEFAULT_EXPIRY_SECONDS,
  EXPIRY_PRESETS,
  canPickCustomExpiry,
  isExpiryAllowed,
} from '@domain/expiry';
import {
  dedupeFiles,
  fileKey,
  filterFilesForRole,
  totalSize,
  type FileEntry,
  type RemovalReason,
} from '@domain/file-filters';
import { E2E_PASSPHRASE_MIN_CHARS, MESSAGE_MAX_LENGTH, parseRecipientInput, type SendAs } from '@domain/input-rules';
import { limitsFor } from '@domain/plans';
import { TEXTS } from '@domain/texts';
import type { IssueCode, TransferDraftInput } from '@domain/validation';
import { draftRules, type DraftRules } from './draft-rules';
import type { PickedFile, RecordingKind } from '@/shared/upload/picked-files';

export interface SendForm {
  readonly files: readonly PickedFile[];
  readonly message: string;
  /** Guests type it; signed-in senders send as their account email. */
  readonly senderEmail: string;
  readonly recipients: readonly string[];
  /** Text in the recipient box not yet turned into a chip. */
  readonly recipientDraft: string;
  /** The last commit left text that is not an email address (label turns 'Invalid Email To Address'). */
  readonly recipientInvalid: boolean;
  readonly sendAs: SendAs;
  readonly expirySeconds: number;
  /** Epoch ms, only while expirySeconds is the Custom Date marker. */
  readonly customExpiryDate: number | null;
  readonly password: string;
  /** Team member ids (shareWithId) the transfer is shared with. */
  readonly shareWith: readonly string[];
  /** An email send: mail the recipients at the start, so they download files as they arrive (off by default). */
  readonly mailNow?: boolean;
  /** "Verified recipients": downloading needs a code mailed to an allowed address (decision 0076). */
  readonly verified?: boolean;
  /** with `verified`: more addresses, and `@domain`s, that may download (comma or space separated) */
  readonly verifiedAllow?: string;
  /** At most this many whole downloads of the transfer (1-100); absent: no limit. */
  readonly downloadLimit?: number;
  /** "Request a review": recipients comment and approve (signed-in senders only). */
  readonly review?: boolean;
  /**
   * "End-to-end encrypted" (signed-in senders only; docs/e2e-format.md): a link send carries the
   * key in the link's fragment, an email send derives it from `e2ePassphrase`.
   */
  readonly e2e?: boolean;
  /** an encrypted email send: the passphrase recipients are told another way, typed twice */
  readonly e2ePassphrase?: string;
  readonly e2ePassphraseConfirm?: string;
}

/** The shortest passphrase an encrypted email send takes (it alone stands between the files and anyone). */
export const E2E_PASSPHRASE_MIN_LENGTH = E2E_PASSPHRASE_MIN_CHARS;

/** How an encrypted send's key travels, or null for a plain send (a guest's form never encrypts). */
export function e2eModeOf(form: SendForm, sender: SenderContext): 'link' | 'passphrase' | null {
  if (!form.e2e || !sender.signedIn) return null;
  return form.sendAs === 'link' ? 'link' : 'passphrase';
}

/**
 * The addresses and the domain of the "verified recipients" box: `@acme.com` (or a bare
 * `acme.com`) is the domain (the last one given), anything with an `@` inside an address.
 */
export function verifiedAllowOf(text: string): { addresses: string[]; domain?: string } {
  const addresses: string[] = [];
  let domain: string | undefined;
  for (const token of text.split(/[\s,;]+/u).map((s) => s.trim().toLowerCase())) {
    if (token === '') continue;
    if (token.startsWith('@') || !token.includes('@')) domain = token.replace(/^@/u, '');
    else addresses.push(token);
  }
  return { addresses: [...new Set(addresses)], ...(domain ? { domain } : {}) };
}

/** Who is sending: a guest (role anon) or a signed-in account. */
export interface SenderContext {
  readonly role: string;
  readonly signedIn: boolean;
  /** The account email of a signed-in sender. */
  readonly email?: string;
}

export const GUEST: SenderContext = { role: 'anon', signedIn: false };

export function initialForm(senderEmail = ''): SendForm {
  return {
    files: [],
    message: '',
    senderEmail,
    recipients: [],
    recipientDraft: '',
    recipientInvalid: false,
    sendAs: 'email',
    expirySeconds: DEFAULT_EXPIRY_SECONDS,
    customExpiryDate: null,
    password: '',
    shareWith: [],
  };
}

// ---- files -----------------------------------------------------------------------------------

export interface AddFilesResult {
  readonly form: SendForm;
  /** Guest uploads the spec removes (.html, .htm, .exe, likely pirated videos). */
  readonly removed: readonly { file: PickedFile; reason: RemovalReason }[];
  /** Already in the list, by relative path or name. */
  readonly duplicates: readonly PickedFile[];
}

export function addFiles(form: SendForm, incoming: readonly PickedFile[], role: string): AddFilesResult {
  const filtered = filterFilesForRole(role, incoming);
  const { kept, duplicates } = dedupeFiles(filtered.kept, form.files);
  return {
    form: kept.length ? { ...form, files: [...form.files, ...kept] } : form,
    removed: filtered.removed,
    duplicates,
  };
}

/**
 * Puts a recording in the file list, replacing the previous one of its kind (spec §4: a new
 * recording clears the old one); null just clears it.
 */
export function setRecording(
  form: SendForm,
  kind: RecordingKind,
  recording: { fileName: string; blob: Blob } | null,
): SendForm {
  const others = form.files.filter((f) => f.recording !== kind);
  if (!recording) return others.length === form.files.length ? form : { ...form, files: others };
  return {
    ...form,
    files: [
      ...others,
      { fileName: recording.fileName, size: recording.blob.size, blob: recording.blob, recording: kind },
    ],
  };
}

export function removeFile(form: SendForm, key: string): SendForm {
  return { ...form, files: form.files.filter((f) => fileKey(f) !== key) };
}

export interface FilesSummary {
  readonly count: number;
  readonly bytes: number;
  readonly limitBytes: number;
  readonly overLimit: boolean;
}

export function filesSummary(form: SendForm, role: string): FilesSummary {
  const bytes = totalSize(form.files);
  const limitBytes = limitsFor(role).uploadLimit;
  return { count: form.files.length, bytes, limitBytes, overLimit: bytes > limitBytes };
}

// ---- message and sender ------------------------------------------------------------------------

export function setMessage(form: SendForm, message: string): SendForm {
  return { ...form, message: message.slice(0, MESSAGE_MAX_LENGTH) };
}

export function setSenderEmail(form: SendForm, senderEmail: string): SendForm {
  return { ...form, senderEmail };
}

// ---- recipients ------------------------------------------------------------------------------

export interface RecipientCommit {
  readonly form: SendForm;
  /** Valid addresses were left out because the plan's recipient cap is reached. */
  readonly overLimit: boolean;
}

/**
 * Turns `raw` into chips: valid addresses are added lower-cased (duplicates ignored) up to the
 * role's emailTo cap; invalid text stays in the box and flips the label to invalid.
 */
export function commitRecipients(form: SendForm, raw: string, role: string): RecipientCommit {
  const { added, invalid } = parseRecipientInput(raw, form.recipients);
  const room = Math.max(0, limitsFor(role).emailTo - form.recipients.length);
  const fitting = added.slice(0, room);
  return {
    form: {
      ...form,
      recipients: [...form.recipients, ...fitting],
      recipientDraft: invalid.join(', '),
      recipientInvalid: invalid.length > 0,
    },
    overLimit: fitting.length < added.length,
  };
}

/**
 * Typing into the recipient box: a ',' or ';' commits what is before it (spec §5: Enter,
 * comma or blur adds; ';' separates pasted lists). The text after the last separator stays.
 */
export function typeRecipients(form: SendForm, text: string, role: string): RecipientCommit {
  const cut = Math.max(text.lastIndexOf(','), text.lastIndexOf(';'));
  if (cut < 0) return { form: { ...form, recipientDraft: text, recipientInvalid: false }, overLimit: false };
  const committed = commitRecipients(form, text.slice(0, cut), role);
  const rest = text.slice(cut + 1).trimStart();
  const draft = [committed.form.recipientDraft, rest].filter((s) => s !== '').join(', ');
  return { form: { ...committed.form, recipientDraft: draft }, overLimit: committed.overLimit };
}

/**
 * The form as it would be once the text still in the recipient box is committed (blur does
 * that): an address typed but not yet turned into a chip counts, so the send is not blocked
 * on a chip the sender cannot see is missing.
 */
export function withDraftCommitted(form: SendForm, role: string): SendForm {
  return form.recipientDraft.trim() === '' ? form : commitRecipients(form, form.recipientDraft, role).form;
}

export function removeRecipient(form: SendForm, email: string): SendForm {
  return { ...form, recipients: form.recipients.filter((r) => r !== email) };
}

// ---- options (cog panel) ---------------------------------------------------------------------

/** Guests cannot send as a link (spec §6); the choice is ignored for them. */
export function setSendAs(form: SendForm, sendAs: SendAs, sender: SenderContext): SendForm {
  if (sendAs === 'link' && !sender.signedIn) return form;
  return { ...form, sendAs };
}

export interface ExpiryOption {
  readonly seconds: number;
  /** the spec's English label: '1 Week' ... 'Custom Date' */
  readonly label: string;
  readonly allowed: boolean;
}

/** The expiry tab's choices: the presets then Custom Date, disabled where the role may not pick them. */
export function expiryOptions(role: string): ExpiryOption[] {
  return [
    ...EXPIRY_PRESETS.map((p) => ({ seconds: p.seconds, label: p.label, allowed: isExpiryAllowed(role, p.seconds) })),
    { seconds: CUSTOM_DATE_MARKER, label: 'Custom Date', allowed: canPickCustomExpiry(role) },
  ];
}

/** Choosing a preset clears a custom date (spec §4); choices the role may not make are ignored. */
export function selectExpiry(form: SendForm, seconds: number, role: string): SendForm {
  if (!isExpiryAllowed(role, seconds)) return form;
  return {
    ...form,
    expirySeconds: seconds,
    customExpiryDate: seconds === CUSTOM_DATE_MARKER ? form.customExpiryDate : null,
  };
}

export function setCustomExpiry(form: SendForm, dateMs: number | null): SendForm {
  if (form.expirySeconds !== CUSTOM_DATE_MARKER) return form;
  return { ...form, customExpiryDate: dateMs !== null && Number.isFinite(dateMs) ? dateMs : null };
}

export function setPassword(form: SendForm, password: string): SendForm {
  return { ...form, password };
}

export interface TeamMemberOption {
  readonly shareWithId: string;
  readonly shareWithEmail: string;
  readonly shareWithFullName: string;
  readonly shareWithProfilePic: string;
}

/**
 * Team members the sender may share with: everyone but the sender. Null when the team has
 * fewer than two emails ('Looks like it's just you!').
 */
export function shareableMembers(
  members: readonly TeamMemberOption[] | undefined,
  selfEmail: string | undefined,
): TeamMemberOption[] | null {
  const self = selfEmail?.trim().toLowerCase();
  const emails = new Set((members ?? []).map((m) => m.shareWithEmail.trim().toLowerCase()));
  if (self) emails.add(self);
  if (emails.size < 2) return null;
  const seen = new Set<string>();
  return (members ?? []).filter((m) => {
    const email = m.shareWithEmail.trim().toLowerCase();
    if (email === self || seen.has(m.shareWithId)) return false;
    seen.add(m.shareWithId);
    return true;
  });
}

export function toggleShare(form: SendForm, memberId: string): SendForm {
  const on = form.shareWith.includes(memberId);
  return { ...form, shareWith: on ? form.shareWith.filter((id) => id !== memberId) : [...form.shareWith, memberId] };
}

/** The Everyone toggle: all shareable members, or none. */
export function setShareEveryone(form: SendForm, memberIds: readonly string[], on: boolean): SendForm {
  return { ...form, shareWith: on ? [...memberIds] : [] };
}

export function sharesWithEveryone(form: SendForm, memberIds: readonly string[]): boolean {
  return memberIds.length > 0 && memberIds.every((id) => form.shareWith.includes(id));
}

// ---- validity --------------------------------------------------------------------------------

export type FormField = 'files' | 'recipients' | 'senderEmail' | 'message' | 'sendAs' | 'expiry' | 'password' | 'e2e';

/** Top-to-bottom order of the form: the first offending field in it is the one that shakes. */
export const FIELD_ORDER: readonly FormField[] = [
  'files',
  'recipients',
  'senderEmail',
  'message',
  'sendAs',
  'expiry',
  'password',
  'e2e',
];

/** Which cog-panel tab holds an option field. */
export const OPTION_TAB: Partial<Record<FormField, 'link' | 'expiry' | 'password'>> = {
  sendAs: 'link',
  expiry: 'expiry',
  password: 'password',
  e2e: 'link',
};

export type FieldIssueCode =
  | IssueCode
  | 'invalid_recipient_text'
  | 'message_too_long'
  | 'e2e_passphrase_too_short'
  | 'e2e_passphrase_mismatch';

export interface FieldIssue {
  readonly field: FormField;
  readonly code: FieldIssueCode;
  /** the domain's English text, for logs and as the en copy */
  readonly message: string;
}

const FIELD_ISSUE_CODES: ReadonlySet<string> = new Set<FieldIssueCode>([
  'too_many_recipients',
  'email_to_required',
  'sender_email_required',
  'invalid_email',
  'links_reserved',
  'no_files',
  'too_many_files',
  'transfer_too_large',
  'file_not_allowed',
  'expiry_not_allowed',
  'custom_expiry_required',
  'expiry_too_soon',
  'expiry_too_late',
  'password_too_short',
  'invalid_recipient_text',
  'message_too_long',
  'e2e_passphrase_too_short',
  'e2e_passphrase_mismatch',
]);

function isFieldIssueCode(code: string): code is FieldIssueCode {
  return FIELD_ISSUE_CODES.has(code);
}

const FIELD_OF_PATH: Record<string, FormField> = {
  fileObjects: 'files',
  recordedVideos: 'files',
  voiceMemo: 'files',
  emailTo: 'recipients',
  senderEmail: 'senderEmail',
  message: 'message',
  sendAs: 'sendAs',
  expirySeconds: 'expiry',
  customExpiryDate: 'expiry',
  downloadLimit: 'expiry',
  password: 'password',
};

function entriesOf(files: readonly PickedFile[]): FileEntry[] {
  return files.map((f) =>
    f.itemPath ? { fileName: f.fileName, size: f.size, itemPath: f.itemPath } : { fileName: f.fileName, size: f.size },
  );
}

/** The body of POST /transfers and /me/transfers for this form. */
export function toDraftInput(typed: SendForm, sender: SenderContext): TransferDraftInput {
  const byEmail = typed.sendAs === 'email';
  const form = byEmail ? withDraftCommitted(typed, sender.role) : typed;
  const recordedVideos = form.files.filter((f) => f.recording === 'video');
  const voiceMemo = form.files.filter((f) => f.recording === 'voice');
  return {
    sendAs: form.sendAs,
    senderEmail: sender.signedIn ? sender.email : form.senderEmail.trim(),
    message: form.message,
    // Link sends mail nobody; chips typed before switching to link mode are not sent.
    emailTo: byEmail ? form.recipients.map((email) => ({ email })) : [],
    // an encrypted send's key already stands between the files and anyone: no download password
    password: form.password === '' || e2eModeOf(form, sender) ? undefined : form.password,
    expirySeconds: form.expirySeconds,
    customExpiryDate: form.expirySeconds === CUSTOM_DATE_MARKER ? (form.customExpiryDate ?? undefined) : undefined,
    fileObjects: entriesOf(form.files.filter((f) => !f.recording)),
    ...(recordedVideos.length ? { recordedVideos: entriesOf(recordedVideos) } : {}),
    ...(voiceMemo.length ? { voiceMemo: entriesOf(voiceMemo) } : {}),
    shareWith: [...form.shareWith],
    ...(byEmail && form.mailNow ? { mailNow: true } : {}),
    ...(form.verified ? { verifiedRecipients: verifiedAllowOf(form.verifiedAllow ?? '') } : {}),
    ...(form.downloadLimit !== undefined ? { downloadLimit: form.downloadLimit } : {}),
    // guests' sends have no review (nobody to tell of the comments)
    // nor encrypted ones (SendBridge cannot show the files to comment on; the option says so)
    ...(form.review && sender.signedIn && !e2eModeOf(form, sender) ? { review: true } : {}),
  };
}

/** The download limit as typed: empty is no limit; anything else is sent as a number (the server checks 1-100). */
export function setDownloadLimit(form: SendForm, typed: string): SendForm {
  const { downloadLimit: _old, ...rest } = form;
  const text = typed.trim();
  return text === '' ? rest : { ...rest, downloadLimit: Number(text) };
}

/**
 * The draft schema for a role and a time, kept while neither changes: the form checks itself on
 * every render, and `now` moves once a minute (send-form.tsx).
 */
let lastDraftSchema: {
  readonly rules: DraftRules;
  readonly role: string;
  readonly now: number;
  readonly schema: ReturnType<DraftRules['transferDraftSchema']>;
} | null = null;

function draftSchema(rules: DraftRules, role: string, now: number): ReturnType<DraftRules['transferDraftSchema']> {
  if (lastDraftSchema?.rules !== rules || lastDraftSchema.role !== role || lastDraftSchema.now !== now) {
    lastDraftSchema = { rules, role, now, schema: rules.transferDraftSchema({ role, now }) };
  }
  return lastDraftSchema.schema;
}

function inFormOrder(found: ReadonlyMap<FormField, FieldIssue>): FieldIssue[] {
  return FIELD_ORDER.flatMap((field) => {
    const issue = found.get(field);
    return issue ? [issue] : [];
  });
}

/**
 * Everything that keeps the form from being sent, at most one issue per field, in form order,
 * by the draft schema: `rules` defaults to the loaded ones (draft-rules.ts, loadDraftRules first).
 */
export function formIssues(
  typed: SendForm,
  sender: SenderContext,
  now: number,
  rules: DraftRules | null = draftRules(),
): FieldIssue[] {
  if (!rules) throw new Error('formIssues needs the draft rules: call loadDraftRules() first');
  const form = typed.sendAs === 'email' ? withDraftCommitted(typed, sender.role) : typed;
  const found = new Map<FormField, FieldIssue>();
  const note = (issue: FieldIssue) => {
    if (!found.has(issue.field)) found.set(issue.field, issue);
  };
  if (form.sendAs === 'email' && form.recipientInvalid) {
    note({ field: 'recipients', code: 'invalid_recipient_text', message: TEXTS.invalidEmailTo });
  }
  for (const issue of e2eIssues(form, sender)) note(issue);
  const parsed = draftSchema(rules, sender.role, now).safeParse(toDraftInput(form, sender));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF_PATH[String(issue.path[0])];
      if (!field) continue;
      // By the issue's stable code (domain problemOf), never by its English text.
      const problem = rules.problemOf(issue);
      const code: FieldIssueCode = isFieldIssueCode(problem.code)
        ? problem.code
        : field === 'message'
          ? 'message_too_long'
          : 'invalid_email';
      note({ field, code, message: problem.message });
    }
  }
  return inFormOrder(found);
}

/** An encrypted email send's passphrase: long enough, and typed the same twice. */
export function e2eIssues(form: SendForm, sender: SenderContext): FieldIssue[] {
  if (e2eModeOf(form, sender) !== 'passphrase') return [];
  const passphrase = form.e2ePassphrase ?? '';
  if ([...passphrase].length < E2E_PASSPHRASE_MIN_LENGTH)
    return [{ field: 'e2e', code: 'e2e_passphrase_too_short', message: TEXTS.e2ePassphraseTooShort }];
  if (passphrase !== (form.e2ePassphraseConfirm ?? ''))
    return [{ field: 'e2e', code: 'e2e_passphrase_mismatch', message: TEXTS.e2ePassphraseMismatch }];
  return [];
}

/**
 * The issues known without the draft schema, for the form's renders before it has loaded: text
 * in the recipient box that is not an address, and no file. formIssues reports each of them
 * too, and for a form without files its first issue is this list's first (files lead the form
 * order), which is all the blocked submit shows; test/unit/frontend/send/send-state.test.ts
 * checks both over many forms.
 */
export function uncheckedIssues(typed: SendForm, sender: SenderContext): FieldIssue[] {
  const form = typed.sendAs === 'email' ? withDraftCommitted(typed, sender.role) : typed;
  const found = new Map<FormField, FieldIssue>();
  if (form.files.length === 0) found.set('files', { field: 'files', code: 'no_files', message: TEXTS.noFiles });
  if (form.sendAs === 'email' && form.recipientInvalid) {
    found.set('recipients', { field: 'recipients', code: 'invalid_recipient_text', message: TEXTS.invalidEmailTo });
  }
  return inFormOrder(found);
}

/** The field a click on the disabled-looking submit shakes, or null when the form can be sent. */
export function offendingField(issues: readonly FieldIssue[]): FormField | null {
  return issues[0]?.field ?? null;
}

export function issueFor(issues: readonly FieldIssue[], field: FormField): FieldIssue | undefined {
  return issues.find((i) => i.field === field);
}

// ---- steps -------------------------------------------------------------------------------------

/** Send flow of spec §4: idle form, optional email verification, uploading, done. */
export type SendStep = 'form' | 'verify' | 'uploading' | 'done';

/** Only a not-logged-in sender sending as email verifies first. */
export function stepAfterSubmit(sender: SenderContext, sendAs: SendAs): SendStep {
  return !sender.signedIn && sendAs === 'email' ? 'verify' : 'uploading';
}

/** 'Send Another?' (signed-in): the form starts over and sends as email (spec §4). */
export function sendAnother(form: SendForm): SendForm {
  return initialForm(form.senderEmail);
}
