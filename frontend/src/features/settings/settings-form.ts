/**
 * The /dash/settings form: the saved transferSettings and requestSettings as editable
 * text, and back to POST /v1/updateProfile's body, checked first by the same schemas and plan
 * rules the server applies (functions/domain/auth-api.ts, requests-api.ts, expiry.ts).
 */
import {
  DEFAULT_TRANSFER_SETTINGS,
  transferSettingsSchema,
  type SessionUser,
  type TransferSettings,
  type UpdateProfileInput,
} from '@domain/auth-api';
import { isExpiryAllowed } from '@domain/expiry';
import { limitsFor } from '@domain/plans';
import {
  DEFAULT_REQUEST_SETTINGS,
  fileExtensionSchema,
  requestSettingsSchema,
  type RequestSettings,
} from '@domain/requests-api';

/** Sizes are typed in decimal megabytes (functions/domain/units.ts MB; a local copy keeps that module's exports as the home page has them). */
const MB = 1_000_000;

export interface SettingsForm {
  readonly expirySeconds: number;
  readonly sendAs: 'link' | 'email';
  readonly message: string;
  readonly downloadEmails: boolean;
  readonly expiryReminders: boolean;
  readonly requestMessage: string;
  /** text of the number inputs: '' means not set */
  readonly dueDays: string;
  readonly maxMb: string;
  readonly allowedTypes: string;
  readonly maxFiles: string;
  readonly uploadEmails: boolean;
}

export type SettingsField =
  | 'expirySeconds'
  | 'message'
  | 'requestMessage'
  | 'dueDays'
  | 'maxMb'
  | 'allowedTypes'
  | 'maxFiles';
export type SettingsProblem = 'whole' | 'dueDays' | 'maxMb' | 'maxFiles' | 'types' | 'message' | 'expiry';

export function settingsFormOf(user: Pick<SessionUser, 'transferSettings' | 'requestSettings'>): SettingsForm {
  const ts: TransferSettings = { ...DEFAULT_TRANSFER_SETTINGS, ...user.transferSettings };
  const rs: RequestSettings = { ...DEFAULT_REQUEST_SETTINGS, ...user.requestSettings };
  return {
    expirySeconds: ts.defaultExpirySeconds,
    sendAs: ts.defaultSendAs,
    message: ts.defaultMessage,
    downloadEmails: ts.downloadEmails,
    expiryReminders: ts.expiryReminders,
    requestMessage: rs.defaultMessage ?? '',
    dueDays: rs.defaultDueDays === undefined ? '' : String(rs.defaultDueDays),
    maxMb: rs.defaultRules?.maxBytes === undefined ? '' : String(rs.defaultRules.maxBytes / MB),
    allowedTypes: (rs.defaultRules?.allowedTypes ?? []).join(', '),
    maxFiles: rs.defaultRules?.maxFiles === undefined ? '' : String(rs.defaultRules.maxFiles),
    uploadEmails: rs.emailOnUpload !== false,
  };
}

/** '' -> undefined; a positive whole number -> it; anything else -> NaN. */
function wholeOf(text: string): number | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  return /^\d+$/u.test(s) ? Number(s) : Number.NaN;
}

export type SettingsBody =
  | { readonly ok: true; readonly body: Required<Pick<UpdateProfileInput, 'transferSettings' | 'requestSettings'>> }
  | { readonly ok: false; readonly problems: Partial<Record<SettingsField, SettingsProblem>> };

/** The body to save, or the fields to fix. */
export function settingsBody(form: SettingsForm, role: string): SettingsBody {
  const limits = limitsFor(role);
  const problems: Partial<Record<SettingsField, SettingsProblem>> = {};
  const transferSettings = {
    expiryReminders: form.expiryReminders,
    downloadEmails: form.downloadEmails,
    defaultExpirySeconds: form.expirySeconds,
    defaultSendAs: form.sendAs,
    defaultMessage: form.message,
  };
  const parsedTransfer = transferSettingsSchema.safeParse(transferSettings);
  if (!parsedTransfer.success) {
    for (const issue of parsedTransfer.error.issues) {
      if (issue.path[0] === 'defaultMessage') problems.message = 'message';
      if (issue.path[0] === 'defaultExpirySeconds') problems.expirySeconds = 'expiry';
    }
  }
  if (!isExpiryAllowed(role, form.expirySeconds)) problems.expirySeconds = 'expiry';

  const dueDays = wholeOf(form.dueDays);
  if (dueDays !== undefined && !(dueDays >= 1 && dueDays <= 365)) problems.dueDays = 'dueDays';
  const mb = form.maxMb.trim() === '' ? undefined : Number(form.maxMb.trim());
  const maxBytes = mb === undefined ? undefined : Math.round(mb * MB);
  if (maxBytes !== undefined && !(Number.isFinite(maxBytes) && maxBytes > 0 && maxBytes <= limits.uploadLimit))
    problems.maxMb = 'maxMb';
  const maxFiles = wholeOf(form.maxFiles);
  if (maxFiles !== undefined && !(maxFiles >= 1 && maxFiles <= limits.files))
    problems.maxFiles = Number.isNaN(maxFiles) ? 'whole' : 'maxFiles';
  const typeTexts = form.allowedTypes
    .split(/[\s,;]+/u)
    .map((s) => s.trim())
    .filter(Boolean);
  const types: string[] = [];
  for (const text of typeTexts) {
    const parsed = fileExtensionSchema.safeParse(text);
    if (!parsed.success) problems.allowedTypes = 'types';
    else if (!types.includes(parsed.data)) types.push(parsed.data);
  }
  const rules = {
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(types.length ? { allowedTypes: types } : {}),
    ...(maxFiles !== undefined ? { maxFiles } : {}),
  };
  const requestSettings = {
    ...(form.requestMessage ? { defaultMessage: form.requestMessage } : {}),
    ...(dueDays !== undefined ? { defaultDueDays: dueDays } : {}),
    ...(Object.keys(rules).length ? { defaultRules: rules } : {}),
    emailOnUpload: form.uploadEmails,
  };
  const parsedRequest = requestSettingsSchema.safeParse(requestSettings);
  if (!parsedRequest.success) {
    for (const issue of parsedRequest.error.issues) {
      if (issue.path[0] === 'defaultMessage') problems.requestMessage = 'message';
      else if (issue.path[0] === 'defaultRules' && issue.path[1] === 'allowedTypes') problems.allowedTypes = 'types';
    }
  }
  if (Object.keys(problems).length > 0 || !parsedRequest.success) return { ok: false, problems };
  return { ok: true, body: { transferSettings, requestSettings: parsedRequest.data } };
}
