/**
 * Translation keys for the form's domain values: expiry choices and validation issues. The
 * English texts behind them are the domain's own (a unit test compares them with TEXTS).
 */
import { CUSTOM_DATE_MARKER } from '@domain/expiry';
import { limitsFor } from '@domain/plans';
import type { FieldIssue, FieldIssueCode } from './send-state';

export type ExpiryKey = 'week' | 'month' | 'months3' | 'year' | 'custom';

const EXPIRY_KEYS: Readonly<Record<number, ExpiryKey>> = {
  604800: 'week',
  2629746: 'month',
  7889238: 'months3',
  31536000: 'year',
  [CUSTOM_DATE_MARKER]: 'custom',
};

/** 'send.expiry.<key>' for an expiry choice; unknown values read as the default week. */
export function expiryKey(seconds: number): ExpiryKey {
  return EXPIRY_KEYS[seconds] ?? 'week';
}

type ErrorKey =
  | 'tooManyRecipients'
  | 'tooManyRecipientsPlan'
  | 'emailToRequired'
  | 'senderEmailRequired'
  | 'invalidEmail'
  | 'linksReserved'
  | 'noFiles'
  | 'tooManyFiles'
  | 'transferTooLarge'
  | 'fileNotAllowed'
  | 'expiryNotAllowed'
  | 'customExpiryRequired'
  | 'expiryTooSoon'
  | 'expiryTooLate'
  | 'passwordTooShort'
  | 'invalidEmailTo'
  | 'messageTooLong'
  | 'e2eNeedsAccount'
  | 'e2ePassphraseRequired'
  | 'invalidE2e'
  | 'e2ePassphraseTooShort'
  | 'e2ePassphraseMismatch';

const ISSUE_KEYS: Readonly<Record<Exclude<FieldIssueCode, 'too_many_recipients'>, ErrorKey>> = {
  email_to_required: 'emailToRequired',
  sender_email_required: 'senderEmailRequired',
  invalid_email: 'invalidEmail',
  links_reserved: 'linksReserved',
  no_files: 'noFiles',
  too_many_files: 'tooManyFiles',
  transfer_too_large: 'transferTooLarge',
  file_not_allowed: 'fileNotAllowed',
  expiry_not_allowed: 'expiryNotAllowed',
  custom_expiry_required: 'customExpiryRequired',
  expiry_too_soon: 'expiryTooSoon',
  expiry_too_late: 'expiryTooLate',
  password_too_short: 'passwordTooShort',
  invalid_recipient_text: 'invalidEmailTo',
  message_too_long: 'messageTooLong',
  encryption_needs_account: 'e2eNeedsAccount',
  encryption_passphrase_required: 'e2ePassphraseRequired',
  invalid_encryption: 'invalidE2e',
  e2e_passphrase_too_short: 'e2ePassphraseTooShort',
  e2e_passphrase_mismatch: 'e2ePassphraseMismatch',
};

export interface IssueText {
  readonly key: `send.errors.${ErrorKey}`;
  readonly params?: { readonly limit: number };
}

/** The translated text of an issue: guests and free users get the spec's upsell wording for too many people. */
export function issueText(issue: Pick<FieldIssue, 'code'>, role: string): IssueText {
  if (issue.code === 'too_many_recipients') {
    const plan = limitsFor(role);
    return plan.role === 'anon' || plan.role === 'free'
      ? { key: 'send.errors.tooManyRecipients' }
      : { key: 'send.errors.tooManyRecipientsPlan', params: { limit: plan.emailTo } };
  }
  return { key: `send.errors.${ISSUE_KEYS[issue.code]}` };
}
