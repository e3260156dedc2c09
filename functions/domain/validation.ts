/**
 * Input rules of spec §5 as zod schemas, shared by handlers and the app's forms. Custom
 * issues carry `params.code`, a stable code the API returns beside the message.
 */
import * as z from 'zod';
import {
  CUSTOM_DATE_MARKER,
  DEFAULT_EXPIRY_SECONDS,
  checkCustomExpiry,
  expiryDateFor,
  isExpiryAllowed,
} from './expiry';
import { dedupeFiles, fileEntrySchema, guestRemovalReason, totalSize, type FileEntry } from './file-filters';
import { limitsFor } from './plans';
import { DEFAULT_REGION, regionIdSchema } from './regions';
import { TEXTS, removedFileText } from './texts';

export const MESSAGE_MAX_LENGTH = 280;
export const SEND_PASSWORD_MIN_LENGTH = 4;
export const SIGNUP_PASSWORD_MIN_LENGTH = 6;
/** Cognito's own ceiling for passwords. */
export const PASSWORD_MAX_LENGTH = 256;
/** RFC 5321 path limit. */
export const EMAIL_MAX_LENGTH = 254;

export type IssueCode =
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
  | 'password_too_short';

const emailFormat = z.email(TEXTS.invalidEmail);

/** Trimmed, lower-cased, valid email. */
export const emailSchema = z
  .string({ error: TEXTS.emailRequired })
  .trim()
  .min(1, TEXTS.emailRequired)
  .max(EMAIL_MAX_LENGTH, TEXTS.invalidEmail)
  .toLowerCase()
  .pipe(emailFormat);

export function isValidEmail(value: string): boolean {
  return emailSchema.safeParse(value).success;
}

/**
 * Recipients typed or pasted into the emailTo field: split on ';', ',' and whitespace
 * (which no unquoted address contains), lower-cased, duplicates of `existing` or of one
 * another dropped. Invalid entries come back as typed (trimmed) so the field can keep them.
 */
export function parseRecipientInput(
  raw: string,
  existing: readonly string[] = [],
): { added: string[]; invalid: string[] } {
  const seen = new Set(existing.map((e) => e.trim().toLowerCase()));
  const added: string[] = [];
  const invalid: string[] = [];
  for (const token of raw.split(/[;,\s]+/u)) {
    if (token === '') continue;
    const parsed = emailSchema.safeParse(token);
    if (!parsed.success) {
      invalid.push(token);
      continue;
    }
    if (seen.has(parsed.data)) continue;
    seen.add(parsed.data);
    added.push(parsed.data);
  }
  return { added, invalid };
}

export const recipientSchema = z.object({
  email: emailSchema,
  name: z.string().trim().max(200).optional(),
  company: z.string().trim().max(200).optional(),
});

export type Recipient = z.infer<typeof recipientSchema>;

function uniqueByEmail<T extends { email: string }>(list: readonly T[]): T[] {
  const seen = new Set<string>();
  return list.filter((r) => (seen.has(r.email) ? false : (seen.add(r.email), true)));
}

/** Spec wording for guests and free users; paid users see their own cap instead. */
export function tooManyRecipientsText(role: string): string {
  const plan = limitsFor(role);
  return plan.role === 'anon' || plan.role === 'free'
    ? TEXTS.tooManyPeopleBody
    : `You can transfer files up to ${plan.emailTo} people with your plan`;
}

/** Recipients of one send, duplicates dropped, at most the role's emailTo. */
export function recipientListSchema(role: string) {
  const limit = limitsFor(role).emailTo;
  return z
    .array(recipientSchema)
    .transform((list) => uniqueByEmail(list))
    .refine((list) => list.length <= limit, {
      message: tooManyRecipientsText(role),
      params: { code: 'too_many_recipients' satisfies IssueCode },
    });
}

export const messageSchema = z.string().max(MESSAGE_MAX_LENGTH, TEXTS.messageTooLong);

export const sendPasswordSchema = z
  .string()
  .min(SEND_PASSWORD_MIN_LENGTH, TEXTS.sendPasswordTooShort)
  .max(PASSWORD_MAX_LENGTH);

export const signupPasswordSchema = z
  .string({ error: TEXTS.passwordRequired })
  .min(SIGNUP_PASSWORD_MIN_LENGTH, TEXTS.signupPasswordTooShort)
  .max(PASSWORD_MAX_LENGTH);

/** Registration and sign-in codes: exactly 5 digits. */
export const verificationCodeSchema = z
  .string({ error: TEXTS.codeInvalid })
  .trim()
  .regex(/^\d{5}$/u, TEXTS.codeInvalid);

/** The send form's guest verification box takes 5 characters (our codes are digits, a subset). */
export const guestCodeSchema = z
  .string({ error: TEXTS.guestCodeInvalid })
  .trim()
  .regex(/^[A-Za-z0-9]{5}$/u, TEXTS.guestCodeInvalid);

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
  password: z.string({ error: TEXTS.passwordRequired }).min(1, TEXTS.passwordRequired).max(PASSWORD_MAX_LENGTH),
});

export const signupCredentialsSchema = z.object({
  email: emailSchema,
  password: signupPasswordSchema,
});

export const contactSchema = z.object({
  email: emailSchema,
  name: z.string().trim().max(200).optional(),
  company: z.string().trim().max(200).optional(),
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
  message: z.string({ error: TEXTS.feedbackRequired }).trim().min(1, TEXTS.feedbackRequired).max(5000),
  rating: z.enum(FEEDBACK_RATINGS).optional(),
  email: emailSchema.optional(),
  route: z.string().max(2048).optional(),
  sessionUrl: z.string().max(2048).optional(),
});

export const SEND_AS = ['link', 'email'] as const;
export type SendAs = (typeof SEND_AS)[number];

export interface DraftContext {
  /** The sender's role; anon for a guest. */
  role: string;
  /** Epoch ms, for the custom expiry bounds. */
  now: number;
  /** Bytes and files already in the transfer (add-files), counted against the plan. */
  existingBytes?: number;
  existingFileCount?: number;
}

const fileListSchema = z
  .array(fileEntrySchema)
  .default([])
  .transform((files) => dedupeFiles(files).kept);

/**
 * A send, checked against the sender's plan. Output adds the computed `expiryDate` and drops
 * empty optional text ('' password or sender email means none).
 */
export function transferDraftSchema(ctx: DraftContext) {
  const limits = limitsFor(ctx.role);
  const isGuest = ctx.role === 'anon';
  return z
    .object({
      sendAs: z.enum(SEND_AS).default('email'),
      senderEmail: z.string().trim().toLowerCase().optional(),
      senderName: z.string().trim().max(200).optional(),
      message: messageSchema.default(''),
      emailTo: z
        .array(recipientSchema)
        .default([])
        .transform((list) => uniqueByEmail(list)),
      password: z.string().max(PASSWORD_MAX_LENGTH).optional(),
      expirySeconds: z.number().int().default(DEFAULT_EXPIRY_SECONDS),
      customExpiryDate: z.number().int().optional(),
      region: regionIdSchema.default(DEFAULT_REGION),
      fileObjects: fileListSchema,
      recordedVideos: fileListSchema,
      voiceMemo: fileListSchema,
      shareWith: z.array(z.string().min(1).max(200)).default([]),
    })
    .superRefine((d, issues) => {
      const add = (path: (string | number)[], message: string, code: IssueCode) =>
        issues.addIssue({ code: 'custom', path, message, params: { code } });

      if (isGuest && d.sendAs === 'link') add(['sendAs'], TEXTS.linksReserved, 'links_reserved');

      const senderEmail = d.senderEmail ?? '';
      if (d.sendAs === 'email' && senderEmail === '') {
        add(['senderEmail'], TEXTS.senderEmailRequired, 'sender_email_required');
      } else if (senderEmail !== '' && !emailSchema.safeParse(senderEmail).success) {
        add(['senderEmail'], TEXTS.invalidEmail, 'invalid_email');
      }

      if (d.sendAs === 'email' && d.emailTo.length === 0) {
        add(['emailTo'], TEXTS.emailToRequired, 'email_to_required');
      }
      if (d.emailTo.length > limits.emailTo) {
        add(['emailTo'], tooManyRecipientsText(ctx.role), 'too_many_recipients');
      }

      if (d.password !== undefined && d.password !== '' && d.password.length < SEND_PASSWORD_MIN_LENGTH) {
        add(['password'], TEXTS.sendPasswordTooShort, 'password_too_short');
      }

      if (!isExpiryAllowed(ctx.role, d.expirySeconds)) {
        add(['expirySeconds'], TEXTS.expiryNotAllowed, 'expiry_not_allowed');
      } else if (d.expirySeconds === CUSTOM_DATE_MARKER) {
        if (d.customExpiryDate === undefined) {
          add(['customExpiryDate'], TEXTS.customExpiryRequired, 'custom_expiry_required');
        } else {
          const problem = checkCustomExpiry(d.customExpiryDate, ctx.now);
          if (problem === 'too_soon') add(['customExpiryDate'], TEXTS.customExpiryTooSoon, 'expiry_too_soon');
          if (problem === 'too_late') add(['customExpiryDate'], TEXTS.customExpiryTooLate, 'expiry_too_late');
        }
      }

      const all: FileEntry[] = [...d.fileObjects, ...d.recordedVideos, ...d.voiceMemo];
      if (all.length === 0) add(['fileObjects'], TEXTS.noFiles, 'no_files');
      if (all.length + (ctx.existingFileCount ?? 0) > limits.files) {
        add(['fileObjects'], TEXTS.tooManyFiles, 'too_many_files');
      }
      if (totalSize(all) + (ctx.existingBytes ?? 0) > limits.uploadLimit) {
        add(['fileObjects'], TEXTS.transferTooLarge, 'transfer_too_large');
      }
      // The app removes these before sending; one arriving here bypassed the app.
      if (isGuest) {
        d.fileObjects.forEach((f, i) => {
          if (guestRemovalReason(f)) add(['fileObjects', i], removedFileText(f.fileName), 'file_not_allowed');
        });
      }
    })
    .transform((d) => ({
      ...d,
      senderEmail: d.senderEmail === '' ? undefined : d.senderEmail,
      password: d.password === '' ? undefined : d.password,
      customExpiryDate: d.expirySeconds === CUSTOM_DATE_MARKER ? d.customExpiryDate : undefined,
      expiryDate: expiryDateFor(d.expirySeconds, ctx.now, d.customExpiryDate),
    }));
}

export type TransferDraftInput = z.input<ReturnType<typeof transferDraftSchema>>;
export type TransferDraft = z.output<ReturnType<typeof transferDraftSchema>>;
