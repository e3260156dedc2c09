/**
 * The accounts API's shapes (spec §3, §7; architecture §6), shared by handlers, the app and
 * tests. Paths are relative to /api. The access token travels in `Authorization: Bearer`;
 * the refresh token only in the httpOnly cookie REFRESH_COOKIE (Path=/api), never in a body.
 *
 *   POST /newsignupverify          registration step 1: mail a code        -> 202 {verified:false} | 200 {verified:true} | 409 email_taken
 *   POST /newsignupverify/check    registration step 2: check the code     -> 200 RegistrationProof | 403 incorrect_code
 *   POST /signup2                  registration step 3: create the account -> 201 AuthResponse + refresh cookie
 *   POST /combinedAuth             log in                                  -> 200 AuthResponse + refresh cookie | 401 auth_failed
 *   GET  /refreshToken             renew with the cookie                   -> 200 AuthResponse | 401
 *   GET  /logout                   revoke the refresh token, clear cookie  -> 200
 *   POST /resetPasswordLink        mail a reset link (always the same answer) -> 202 { message }
 *   POST /passTokenCheck           is the reset token usable               -> 202 | 410
 *   POST /resetPassword            set the new password, consume the token -> 200
 *   GET  /me                       (JWT) the signed-in user                -> 200 SessionUser
 *   POST /v1/updateProfile         (JWT) profile fields                    -> 200 SessionUser
 *   POST /me/images                (JWT) presigned PUT for a picture/logo  -> 200 ImageUploadResponse
 *   POST /folderSize               (JWT) storage used and allowed          -> 200 FolderSizeResponse
 *   POST /quicksend2               (JWT) contacts for recipient suggestions -> 200 { contacts }
 *   POST /feedback                 (JWT) feedback widget                   -> 201
 */
import * as z from 'zod/mini';
import { ROLES } from './plans';
import type { ParentAdmin } from './teams-api';
import {
  emailSchema,
  feedbackSchema,
  MESSAGE_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  signupPasswordSchema,
  verificationCodeSchema,
} from './validation';
import type { StorageState } from './storage';
import { DEFAULT_EXPIRY_SECONDS, isExpiryPreset } from './expiry';
import type { RegionId } from './regions';
import { requestSettingsSchema, type RequestSettings } from './requests-api';

export const REFRESH_COOKIE = 'sb_refresh';
export { SESSION_FLAG_KEY } from './session-flag';

export const registrationEmailSchema = z.object({
  email: emailSchema,
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export interface RegistrationStart {
  /** true: this address was already proven (go to step 3); false: a code was mailed (step 2) */
  readonly verified: boolean;
  readonly registrationToken?: string;
}

export const registrationCodeSchema = z.object({ email: emailSchema, code: verificationCodeSchema });
export interface RegistrationProof {
  /** proves the address for step 3; 43 url-safe characters, valid 24 h */
  readonly registrationToken: string;
  readonly email: string;
}

const fingerprintSchema = z.optional(
  z.object({
    language: z.optional(z.string().check(z.maxLength(64))),
    userAgent: z.optional(z.string().check(z.maxLength(1024))),
    browserVendor: z.optional(z.string().check(z.maxLength(256))),
    platform: z.optional(z.string().check(z.maxLength(256))),
    timezone: z.optional(z.string().check(z.maxLength(128))),
  }),
);

/** Step 3 (spec §3 Signup payload). `role` is the chosen plan; paid plans start as free + unpaid until checkout. */
export const signupSchema = z.object({
  registrationToken: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/u, 'invalid_registration')),
  email: emailSchema,
  fullName: z.string().check(z.trim(), z.minLength(1, 'name_required'), z.maxLength(200)),
  password: signupPasswordSchema,
  company: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  lang: z.optional(z.string().check(z.maxLength(16))),
  referrer: z.optional(z.string().check(z.maxLength(2048))),
  role: z.optional(z.enum(ROLES)),
  period: z.optional(z.enum(['monthly', 'yearly'])),
  fingerprint: fingerprintSchema,
});
export type SignupInput = z.input<typeof signupSchema>;

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: 'password_required' })
    .check(z.minLength(1, 'password_required'), z.maxLength(PASSWORD_MAX_LENGTH)),
});

export interface SessionUser {
  readonly _id: string;
  readonly email: string;
  readonly fullName: string;
  readonly greetingName?: string;
  readonly company?: string;
  /** short-lived URLs of the uploaded pictures */
  readonly profilePic?: string;
  readonly logoPic?: string;
  readonly showLogoNav: boolean;
  /** the enforced plan (free until paid) */
  readonly role: string;
  /** the plan chosen at sign-up, kept for checkout */
  readonly chosenRole?: string;
  readonly status: string;
  readonly isTeamMember: boolean;
  /** spec §3 User.parentAdmin, the team's admin (members only) */
  readonly parentAdmin?: ParentAdmin;
  /** whether the team's admin lets members use API keys (members only; everyone else may) */
  readonly apiKeysAllowed?: boolean;
  readonly loginCount: number;
  /** epoch ms the account was made (absent for accounts made before it was kept): what's new to it starts there */
  readonly createdAt?: number;
  readonly storageUsed: number;
  readonly storageLimit: number;
  readonly storageState: StorageState;
  readonly thisMonthsTransfers: number;
  /** null when the plan has no monthly cap */
  readonly monthlyTransferLimit: number | null;
  /** the limit screen to show instead of sending, if any (functions/domain/blocking.ts) */
  readonly blocked: string | null;
  /** the user's transfer settings, defaults filled (GET /me always sends them; optional for older clients' fixtures) */
  readonly transferSettings?: TransferSettings;
  /** the defaults of a new file request (GET /me always sends them) */
  readonly requestSettings?: RequestSettings;
  /** where the user's new transfers and request uploads are stored (their choice when the plan allows it) */
  readonly region?: RegionId;
  /** spec §3 User.stripeId, the payment provider's customer id, once the user went through checkout */
  readonly stripeId?: string;
  /** spec §3 isSumo, code1..code8: true for each lifetime code redeemed (GET /me always sends it) */
  readonly isSumo?: Readonly<Record<`code${number}`, boolean>>;
  /** spec §2 customDomainOption, 'standard' until the user's custom link domain is verified */
  readonly customDomainOption?: 'standard' | 'custom';
  /** may this user use webhooks (always, unless a team member whose admin has not allowed it) */
  readonly webhooksAllowed?: boolean;
}

/**
 * Per-user transfer settings (spec §3 transferSettings). They prefill the dashboard's quick send; the server enforces the ones that are rules
 * (the expiry must be within the plan when saved; downloadEmails and expiryReminders decide mail).
 */
export const transferSettingsSchema = z.object({
  /** mail recipients who have not downloaded a reminder 24 h before expiry (default on) */
  expiryReminders: z.boolean(),
  /** mail the sender when someone downloads (default on; the bell notification stays either way) */
  downloadEmails: z.boolean(),
  /** the expiry preset a new send starts with (spec §9 presets; a custom date is picked per send) */
  defaultExpirySeconds: z.number().check(
    z.int(),
    z.refine((s: number): boolean => isExpiryPreset(s), 'expiry_not_allowed'),
  ),
  /** how a new send goes: by link or by email */
  defaultSendAs: z.enum(['link', 'email']),
  /** the message a new send starts with (spec §5: at most 280 characters) */
  defaultMessage: z.string().check(z.maxLength(MESSAGE_MAX_LENGTH, 'message_too_long')),
});
export type TransferSettings = z.output<typeof transferSettingsSchema>;
export const DEFAULT_TRANSFER_SETTINGS: TransferSettings = {
  expiryReminders: true,
  downloadEmails: true,
  defaultExpirySeconds: DEFAULT_EXPIRY_SECONDS,
  defaultSendAs: 'email',
  defaultMessage: '',
};

export interface AuthResponse {
  readonly accessToken: string;
  /** epoch ms */
  readonly expiresAt: number;
  readonly user: SessionUser;
}

export const resetLinkSchema = z.object({ email: emailSchema, lang: z.optional(z.string().check(z.maxLength(16))) });
export const resetTokenSchema = z.object({
  token: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/u, 'invalid_reset_link')),
});
export const resetPasswordSchema = z.extend(resetTokenSchema, { password: signupPasswordSchema });

export const updateProfileSchema = z.object({
  fullName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  greetingName: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  company: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  /** keys returned by POST /me/images; '' removes the picture */
  profilePicKey: z.optional(z.string().check(z.maxLength(300))),
  logoPicKey: z.optional(z.string().check(z.maxLength(300))),
  showLogoNav: z.optional(z.boolean()),
  /** only the fields sent change; the others keep their saved value */
  transferSettings: z.optional(z.partial(transferSettingsSchema)),
  /** replaces the request defaults as a whole */
  requestSettings: z.optional(requestSettingsSchema),
});
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const imageUploadSchema = z.object({
  kind: z.enum(['profile', 'logo']),
  contentType: z.enum(IMAGE_TYPES, 'image_type_not_allowed'),
  size: z.number().check(z.int(), z.positive(), z.maximum(IMAGE_MAX_BYTES, 'image_too_large')),
});
export interface ImageUploadResponse {
  readonly url: string;
  readonly key: string;
  /** headers the PUT must send (signed) */
  readonly headers: Readonly<Record<string, string>>;
}

export interface FolderSizeResponse {
  readonly size: number;
  readonly limit: number;
  readonly state: StorageState;
}

export interface ContactView {
  readonly email: string;
  readonly name?: string;
  readonly company?: string;
}

export const feedbackRequestSchema = feedbackSchema;
