/**
 * Input rules of spec §5 as zod schemas (zod/mini's functional API: checks in `.check(…)`,
 * wrappers as functions, so bundles carry only what they use), shared by handlers and the app's forms.
 *
 * Codes, not English: every problem these schemas report carries a stable snake_case code.
 * The error param of each check IS the code (`z.minLength(1, 'email_required')`), so a zod issue's
 * `message` is a ProblemCode; custom issues also carry it in `params.code` beside the values
 * their text needs. `problemOf` turns any issue into `{ code, field, message }` with the
 * English text (texts.ts) for API users and logs; the app maps the code to an i18n key.
 * Checks without a code of ours (e.g. a 200-character cap) keep zod's own issue code
 * (`too_big`, `invalid_type`, …), which is stable too, and zod's English message.
 */
import { MAX_DOWNLOAD_LIMIT, MIN_DOWNLOAD_LIMIT } from './delivery-events';
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { CUSTOM_DATE_MARKER, DEFAULT_EXPIRY_SECONDS, checkCustomExpiry, expiryDateFor } from './expiry';
import { fileEntrySchema, uploadSpeedSchema } from './file-entry-schema';
import { dedupeFiles, type FileEntry } from './file-filters';
import { ROLES, limitsFor } from './plans';
import * as rules from './input-rules';
import { DEFAULT_REGION, regionIdSchema } from './regions';
import {
  sendIssues,
  tooManyRecipientsParams,
  type SendIssue,
  type SendIssueCode,
  type SendIssueParams,
} from './send-rules';
import { TEXTS, planRecipientsText, removedFileText } from './texts';

// zod/mini registers no locale ('Invalid input' for everything); the classic build set English
// on its first schema. problemOf passes zod's own message on for the checks without a code of
// ours, so English is set here, where issues become problems: the messages are made at parse
// time, after this module (every caller of problemOf imports it) has run.
z.config(en());

// The plain rules (lengths, ways to send, the e-mail check), here for the handlers and forms
// that import this module; the send form's first render takes them from input-rules.ts, without zod.
export {
  EMAIL_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  SEND_AS,
  SEND_PASSWORD_MIN_LENGTH,
  SIGNUP_PASSWORD_MIN_LENGTH,
  isValidEmail,
  parseRecipientInput,
  type SendAs,
} from './input-rules';

/** Values a problem's text needs (custom issues carry them in `params`). */
export type ProblemParams = SendIssueParams;

/** Every code of ours, with its English text (the spec's, texts.ts). */
const PROBLEM_TEXTS = {
  // the transfer draft (send form)
  too_many_recipients: (p: ProblemParams) =>
    p.upsell === false && p.limit !== undefined ? planRecipientsText(p.limit) : TEXTS.tooManyPeopleBody,
  email_to_required: () => TEXTS.emailToRequired,
  sender_email_required: () => TEXTS.senderEmailRequired,
  invalid_email: () => TEXTS.invalidEmail,
  links_reserved: () => TEXTS.linksReserved,
  no_files: () => TEXTS.noFiles,
  too_many_files: () => TEXTS.tooManyFiles,
  transfer_too_large: () => TEXTS.transferTooLarge,
  file_not_allowed: (p: ProblemParams) => removedFileText(p.fileName ?? ''),
  expiry_not_allowed: () => TEXTS.expiryNotAllowed,
  custom_expiry_required: () => TEXTS.customExpiryRequired,
  expiry_too_soon: () => TEXTS.customExpiryTooSoon,
  expiry_too_late: () => TEXTS.customExpiryTooLate,
  password_too_short: () => TEXTS.sendPasswordTooShort,
  message_too_long: () => TEXTS.messageTooLong,
  unknown_region: () => TEXTS.unknownRegion,
  // accounts
  email_required: () => TEXTS.emailRequired,
  password_required: () => TEXTS.passwordRequired,
  signup_password_too_short: () => TEXTS.signupPasswordTooShort,
  code_invalid: () => TEXTS.codeInvalid,
  guest_code_invalid: () => TEXTS.guestCodeInvalid,
  feedback_required: () => TEXTS.feedbackRequired,
  name_required: () => TEXTS.nameRequired,
  invalid_registration: () => TEXTS.invalidRegistration,
  invalid_reset_link: () => TEXTS.invalidResetLink,
  image_type_not_allowed: () => TEXTS.imageTypeNotAllowed,
  image_too_large: () => TEXTS.imageTooLarge,
  // ids in links and headers
  invalid_link: () => TEXTS.invalidLink,
  invalid_file_id: () => TEXTS.invalidFileId,
  invalid_recipient: () => TEXTS.invalidRecipient,
  invalid_token: () => TEXTS.invalidToken,
  // reviews (review-api.ts)
  invalid_comment: () => 'Comments are 1 to 2,000 characters.',
  invalid_name: () => 'Names are 1 to 80 characters.',
  invalid_visitor: () => TEXTS.invalidLink,
  invalid_comment_id: () => TEXTS.invalidLink,
} as const satisfies Record<string, (p: ProblemParams) => string>;

export type ProblemCode = keyof typeof PROBLEM_TEXTS;
export const PROBLEM_CODES = Object.keys(PROBLEM_TEXTS) as readonly ProblemCode[];

/** zod's own issue codes, reported for checks that carry no code of ours. */
export const ZOD_ISSUE_CODES = [
  'invalid_type',
  'too_big',
  'too_small',
  'invalid_format',
  'not_multiple_of',
  'unrecognized_keys',
  'invalid_union',
  'invalid_key',
  'invalid_element',
  'invalid_value',
] as const;

/** Problems of the transfer draft (the send form's fields): the send rules' (send-rules.ts). */
export type IssueCode = SendIssueCode;

export function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && Object.hasOwn(PROBLEM_TEXTS, value);
}

/** The English text of a problem, for API users and logs (never matched by the app). */
export function problemText(code: ProblemCode, params: ProblemParams = {}): string {
  return PROBLEM_TEXTS[code](params);
}

/** One validation problem as the API answers it (like Stripe's code and param). */
export interface Problem {
  readonly code: string;
  /** the input's path, dot-joined ('emailTo.0.email'); '' for the value itself */
  readonly field: string;
  /** English, for API users and logs */
  readonly message: string;
}

type Issue = z.core.$ZodIssue;

function ownCode(issue: Issue): { code: ProblemCode; params: ProblemParams } | null {
  const params = (issue.code === 'custom' ? issue.params : undefined) as
    | (ProblemParams & { code?: unknown })
    | undefined;
  if (isProblemCode(params?.code)) return { code: params.code, params };
  if (isProblemCode(issue.message)) return { code: issue.message, params: params ?? {} };
  return null;
}

/** Any zod issue of the domain schemas as `{ code, field, message }`. */
export function problemOf(issue: Issue): Problem {
  const field = issue.path.map(String).join('.');
  const own = ownCode(issue);
  if (own) return { code: own.code, field, message: problemText(own.code, own.params) };
  // A union reports its branches' problems: the first one with a code of ours speaks for it.
  if (issue.code === 'invalid_union') {
    for (const branch of issue.errors) {
      for (const inner of branch) {
        const found = ownCode(inner);
        if (found) return { code: found.code, field, message: problemText(found.code, found.params) };
      }
    }
  }
  return { code: issue.code === 'custom' ? 'invalid_value' : issue.code, field, message: issue.message };
}

export function problemsOf(error: z.core.$ZodError): Problem[] {
  return error.issues.map(problemOf);
}

/** A problem the send rules found (send-rules.ts), as the API answers it. */
export function problemOfSendIssue(issue: SendIssue): Problem {
  return { code: issue.code, field: issue.path.map(String).join('.'), message: problemText(issue.code, issue.params) };
}

const emailFormat = z.email('invalid_email' satisfies ProblemCode);

/**
 * Trimmed, lower-cased, valid email. input-rules.ts's `normaliseEmail` is the same check without
 * zod (the recipient chips and the sender memory use it); a unit test keeps the two in agreement.
 */
export const emailSchema = z.pipe(
  z
    .string({ error: 'email_required' satisfies ProblemCode })
    .check(
      z.trim(),
      z.minLength(1, 'email_required' satisfies ProblemCode),
      z.maxLength(rules.EMAIL_MAX_LENGTH, 'invalid_email' satisfies ProblemCode),
      z.toLowerCase(),
    ),
  emailFormat,
);

export const recipientSchema = z.object({
  email: emailSchema,
  name: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  company: z.optional(z.string().check(z.trim(), z.maxLength(200))),
});

export type Recipient = z.infer<typeof recipientSchema>;

function uniqueByEmail<T extends { email: string }>(list: readonly T[]): T[] {
  const seen = new Set<string>();
  return list.filter((r) => {
    if (seen.has(r.email)) return false;
    seen.add(r.email);
    return true;
  });
}

/** Spec wording for guests and free users; paid users see their own cap instead. */
export function tooManyRecipientsText(role: string): string {
  return problemText('too_many_recipients', tooManyRecipientsParams(role));
}

/** Recipients of one send, duplicates dropped, at most the role's emailTo. */
export function recipientListSchema(role: string) {
  const limit = limitsFor(role).emailTo;
  return z
    .pipe(
      z.array(recipientSchema),
      z.transform((list: Recipient[]) => uniqueByEmail(list)),
    )
    .check(
      z.refine((list) => list.length <= limit, {
        message: 'too_many_recipients' satisfies ProblemCode,
        params: { code: 'too_many_recipients' satisfies IssueCode, ...tooManyRecipientsParams(role) },
      }),
    );
}

/** A role of the plan table (plans.ts). */
export const roleSchema = z.enum(ROLES);

/** A custom expiry date (epoch ms) for a send made at `now`: 30 minutes to 1 year ahead (expiry.ts). */
export function customExpirySchema(now: number) {
  return z.number().check(
    z.int(),
    z.superRefine((value: number, ctx) => {
      const problem = checkCustomExpiry(value, now);
      if (problem) {
        // The message is the stable code (problemOf gives the English text).
        const code = problem === 'too_soon' ? 'expiry_too_soon' : 'expiry_too_late';
        ctx.addIssue({ code: 'custom', message: code, params: { code } });
      }
    }),
  );
}

export const messageSchema = z
  .string()
  .check(z.maxLength(rules.MESSAGE_MAX_LENGTH, 'message_too_long' satisfies ProblemCode));

export const sendPasswordSchema = z
  .string()
  .check(
    z.minLength(rules.SEND_PASSWORD_MIN_LENGTH, 'password_too_short' satisfies ProblemCode),
    z.maxLength(rules.PASSWORD_MAX_LENGTH),
  );

export const signupPasswordSchema = z
  .string({ error: 'password_required' satisfies ProblemCode })
  .check(
    z.minLength(rules.SIGNUP_PASSWORD_MIN_LENGTH, 'signup_password_too_short' satisfies ProblemCode),
    z.maxLength(rules.PASSWORD_MAX_LENGTH),
  );

/** Registration and sign-in codes: exactly 5 digits. */
export const verificationCodeSchema = z
  .string({ error: 'code_invalid' satisfies ProblemCode })
  .check(z.trim(), z.regex(/^\d{5}$/u, 'code_invalid' satisfies ProblemCode));

/** The send form's guest verification box takes 5 characters (our codes are digits, a subset). */
export const guestCodeSchema = z
  .string({ error: 'guest_code_invalid' satisfies ProblemCode })
  .check(z.trim(), z.regex(/^[A-Za-z0-9]{5}$/u, 'guest_code_invalid' satisfies ProblemCode));

/** One code box keeps only a digit: the last one typed, or '' when none. */
export function sanitizeCodeBox(input: string): string {
  return input.replace(/\D/gu, '').slice(-1);
}

/** A paste fills the boxes only when it is exactly 5 digits (surrounding spaces allowed). */
export function parsePastedCode(text: string): string | null {
  const trimmed = text.trim();
  return /^\d{5}$/u.test(trimmed) ? trimmed : null;
}

export const loginSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: 'password_required' satisfies ProblemCode })
    .check(z.minLength(1, 'password_required' satisfies ProblemCode), z.maxLength(rules.PASSWORD_MAX_LENGTH)),
});

export const signupCredentialsSchema = z.object({
  email: emailSchema,
  password: signupPasswordSchema,
});

export const contactSchema = z.object({
  email: emailSchema,
  name: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  company: z.optional(z.string().check(z.trim(), z.maxLength(200))),
});

/** Contacts deduplicated case-insensitively by email; entries without an email are dropped. */
export function dedupeContacts<C extends { email?: string | null }>(contacts: readonly C[]): C[] {
  const seen = new Set<string>();
  const out: C[] = [];
  for (const c of contacts) {
    const key = c.email?.trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

export const FEEDBACK_RATINGS = ['Bad', 'Fine', 'Fantastic'] as const;

export const feedbackSchema = z.object({
  message: z
    .string({ error: 'feedback_required' satisfies ProblemCode })
    .check(z.trim(), z.minLength(1, 'feedback_required' satisfies ProblemCode), z.maxLength(5000)),
  rating: z.optional(z.enum(FEEDBACK_RATINGS)),
  email: z.optional(emailSchema),
  route: z.optional(z.string().check(z.maxLength(2048))),
  sessionUrl: z.optional(z.string().check(z.maxLength(2048))),
});

export interface DraftContext {
  /** The sender's role; anon for a guest. */
  role: string;
  /** Epoch ms, for the custom expiry bounds. */
  now: number;
  /** Bytes and files already in the transfer (add-files), counted against the plan. */
  existingBytes?: number;
  existingFileCount?: number;
}

const fileListSchema = z.pipe(
  z._default(z.array(fileEntrySchema), []),
  z.transform((files: FileEntry[]) => dedupeFiles(files).kept),
);

/** An email domain anyone at which may verify (lower case; a leading '@' is dropped). */
export const verifiedDomainSchema = z.pipe(
  z.string().check(z.trim(), z.toLowerCase(), z.maxLength(253)),
  z.pipe(
    z.transform((d: string) => d.replace(/^@/u, '')),
    z.string().check(z.regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/u, 'invalid_domain')),
  ),
);

/**
 * "Verified recipients" (docs/decisions/0076): every download needs a code mailed to an address
 * on the access list (an email send's recipients, plus `addresses`) or at `domain`.
 */
export const verifiedRecipientsSchema = z.object({
  addresses: z._default(z.array(emailSchema).check(z.maxLength(500)), []),
  domain: z.optional(verifiedDomainSchema),
});

/**
 * The body of every create route (POST /transfers, /me/transfers, /v1/transfers): the shape of
 * a send, the same for every sender. Types, lengths and addresses are checked here; what depends
 * on the sender (plan limits, guest rules, team, expiry choices) is send-rules.ts's `checkSend`,
 * which the service runs on the parsed body. `sendAs` left out is the caller's default (the
 * app's form sends by email, the API a link).
 */
export const sendBodySchema = z.object({
  sendAs: z.optional(z.enum(rules.SEND_AS)),
  senderEmail: z.optional(z.string().check(z.trim(), z.toLowerCase())),
  senderName: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  message: z._default(messageSchema, ''),
  emailTo: z.pipe(
    z._default(z.array(recipientSchema), []),
    z.transform((list: Recipient[]) => uniqueByEmail(list)),
  ),
  password: z.optional(z.string().check(z.maxLength(rules.PASSWORD_MAX_LENGTH))),
  verifiedRecipients: z.optional(verifiedRecipientsSchema),
  /** an email send: mail the recipients at creation, so they download files as they arrive (decision 0074) */
  mailNow: z.optional(z.boolean()),
  /** seconds the link lives (the plan's choices: 3600, 86400, 604800, ...); CUSTOM_DATE_MARKER with customExpiryDate */
  expirySeconds: z._default(z.number().check(z.int()), DEFAULT_EXPIRY_SECONDS),
  /** epoch ms, with the custom date marker (plans with custom expiry) */
  customExpiryDate: z.optional(z.number().check(z.int())),
  /** not honoured: the server decides where files go (the answer's `region` says where) */
  region: z._default(regionIdSchema, DEFAULT_REGION),
  fileObjects: fileListSchema,
  /** review on: recipients comment on and approve the files (signed-in senders only; decision 0079) */
  review: z.optional(z.boolean()),
  /** the most whole downloads the transfer allows (1-100); absent: no limit (decision 0077) */
  downloadLimit: z.optional(z.number().check(z.int(), z.gte(MIN_DOWNLOAD_LIMIT), z.lte(MAX_DOWNLOAD_LIMIT))),
  /** the sender's last measured upload speed (bytes/s): it grows the parts (upload.ts partSizeFor) */
  uploadBytesPerSecond: z.optional(uploadSpeedSchema),
  recordedVideos: fileListSchema,
  voiceMemo: fileListSchema,
  // team mates' ids (a team has at most 50 members and its admin)
  shareWith: z._default(z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.maxLength(60)), []),
  /** language of the recipients' mail; one that is no language tag falls back to English (mailLanguageOf) */
  // a transform rather than z.catch, which would pull ~7 KB of zod into every bundle that sends
  lang: z.pipe(
    z.optional(z.unknown()),
    z.transform((tag: unknown) => (typeof tag === 'string' && tag.length <= 16 ? tag : undefined)),
  ),
});
export type SendRequest = z.input<typeof sendBodySchema>;
export type SendRequestBody = z.output<typeof sendBodySchema>;

/**
 * A send as the form makes it, checked against the sender's plan: the create routes' body
 * schema with send-rules.ts's rules as issues (sendAs defaults to email, as the form sends).
 * Output adds the computed `expiryDate` and drops empty optional text ('' password or sender
 * email means none).
 */
export function transferDraftSchema(ctx: DraftContext) {
  const draft = sendBodySchema.check(
    z.superRefine((d, ctxIssues) => {
      for (const issue of sendIssues({ ...d, sendAs: d.sendAs ?? 'email' }, ctx)) {
        const params = { code: issue.code, ...issue.params };
        ctxIssues.addIssue({ code: 'custom', path: [...issue.path], message: issue.code, params });
      }
    }),
  );
  return z.pipe(
    draft,
    z.transform((d: z.output<typeof draft>) => ({
      ...d,
      sendAs: d.sendAs ?? 'email',
      senderEmail: d.senderEmail === '' ? undefined : d.senderEmail,
      password: d.password === '' ? undefined : d.password,
      customExpiryDate: d.expirySeconds === CUSTOM_DATE_MARKER ? d.customExpiryDate : undefined,
      expiryDate: expiryDateFor(d.expirySeconds, ctx.now, d.customExpiryDate),
    })),
  );
}

export type TransferDraftInput = z.input<ReturnType<typeof transferDraftSchema>>;
export type TransferDraft = z.output<ReturnType<typeof transferDraftSchema>>;
