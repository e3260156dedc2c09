/**
 * API error codes and validation problem codes (docs/error-codes.md) to i18n keys: the app
 * shows a refusal in the visitor's language from its stable code, never from the English
 * message (that is for API users and logs). Unknown codes read as a generic translated text.
 * A unit test (test/unit/functions/error-codes.test.ts) checks every code the API can answer
 * with a 4xx, and every problem code, has a key here that exists in en.json.
 */
import type { ParseKeys } from 'i18next';

export type ErrorKey = ParseKeys;

export const GENERIC_ERROR_KEY = 'errors.generic' satisfies ErrorKey;

const SIGN_IN_AGAIN = 'errors.signInAgain' satisfies ErrorKey;
const NOT_FOUND = 'download.notFound' satisfies ErrorKey;
const UPLOAD_FAILED = 'errors.uploadFailed' satisfies ErrorKey;

export const ERROR_KEYS: Readonly<Record<string, ErrorKey>> = {
  // requests the app itself builds: only a bug or a changed API makes these
  invalid_request: 'errors.invalidRequest',
  invalid_json: GENERIC_ERROR_KEY,
  body_too_large: GENERIC_ERROR_KEY,
  unsupported_media_type: GENERIC_ERROR_KEY,
  // the API client sends and retries its Idempotency-Key itself
  idempotency_key_invalid: GENERIC_ERROR_KEY,
  idempotency_key_reused: GENERIC_ERROR_KEY,
  idempotency_in_progress: GENERIC_ERROR_KEY,
  // session and accounts
  unauthorized: SIGN_IN_AGAIN,
  profile_missing: SIGN_IN_AGAIN,
  no_session: SIGN_IN_AGAIN,
  session_expired: SIGN_IN_AGAIN,
  session_revoked: SIGN_IN_AGAIN,
  token_revoked: SIGN_IN_AGAIN,
  token_expired: SIGN_IN_AGAIN,
  rate_limited: 'errors.rateLimited',
  email_taken: 'auth.errors.emailTaken',
  registration_expired: 'auth.errors.registrationExpired',
  auth_failed: 'auth.errors.authFailed',
  reset_expired: 'auth.errors.resetLinkInvalid',
  incorrect_code: 'auth.errors.incorrectCode',
  sender_not_verified: 'errors.senderNotVerified',
  invalid_picture: 'errors.invalidPicture',
  // limit screens
  revoked: 'dashboard.limit.suspended',
  past_due: 'dashboard.limit.suspended',
  unpaid: 'dashboard.limit.suspended',
  trial_expired: 'dashboard.limit.trialExpired',
  subscription_over: 'dashboard.limit.subscriptionOver',
  over_transfer_limit: 'dashboard.limit.overTransferLimit',
  storage_full: 'dashboard.limit.storageFull',
  guest_storage_full: 'errors.guestStorageFull',
  guest_daily_limit: 'errors.guestDailyLimit',
  // downloads and extensions
  transfer_not_found: NOT_FOUND,
  file_not_found: NOT_FOUND,
  transfer_delivery_not_found: NOT_FOUND,
  transfer_empty: NOT_FOUND,
  transfer_expired: 'errors.transferExpired',
  password_required: 'download.protected',
  wrong_password: 'download.protected',
  not_expired: 'errors.notExpired',
  link_expired: 'extension.expiredTitle',
  // the malware scan and abuse reports
  scan_pending: 'download.scanChecking',
  scan_failed: 'download.scanError',
  file_removed: 'download.scanRemoved',
  transfer_disabled: 'download.disabled',
  // a transfer shared while uploading (the page's own panel words the others: they stay out of its first load)
  transfer_withdrawn: 'download.withdrawn',
  // download limits (decision 0077)
  download_limit_reached: 'download.limitReached',
  recipient_not_found: 'errors.recipientNotFound',
  transfer_uploading: 'errors.transferNotSent',
  // the app's own encrypted uploads and downloads never ask for these: only a bug or a changed API makes them
  encrypted_zip_in_browser: GENERIC_ERROR_KEY,
  not_encrypted: UPLOAD_FAILED,
  thumbnail_too_large: UPLOAD_FAILED,
  thumbnail_missing: UPLOAD_FAILED,
  invalid_encryption: 'send.errors.invalidE2e',
  transfer_complete: 'send.live.nowComplete',
  // uploads
  region_unavailable: 'errors.regionUnavailable',
  invalid_upload_token: UPLOAD_FAILED,
  upload_cancelled: 'send.toast.youAborted',
  upload_expired: 'errors.uploadExpired',
  file_already_uploaded: UPLOAD_FAILED,
  file_completing: UPLOAD_FAILED,
  not_multipart: UPLOAD_FAILED,
  part_numbers_required: UPLOAD_FAILED,
  duplicate_part: UPLOAD_FAILED,
  part_out_of_range: UPLOAD_FAILED,
  part_size_mismatch: UPLOAD_FAILED,
  parts_missing: UPLOAD_FAILED,
  upload_incomplete: UPLOAD_FAILED,
  size_mismatch: UPLOAD_FAILED,
  upload_reset: UPLOAD_FAILED,
  files_pending: UPLOAD_FAILED,
  not_owner: 'errors.notOwner',
  region_mismatch: 'errors.regionMismatch',
  no_new_files: 'errors.noNewFiles',
  not_current_version: 'errors.notCurrentVersion',
  version_completing: 'errors.versionCompleting',
  too_many_versions: 'errors.tooManyVersions',
  too_many_files: 'send.errors.tooManyFiles',
  transfer_too_large: 'send.errors.transferTooLarge',
  // TransferModal actions
  transfer_not_sent: 'errors.transferNotSent',
  not_email_transfer: 'errors.notEmailTransfer',
  not_a_recipient: 'errors.notARecipient',
  transfer_purged: 'errors.transferPurged',
  // notifications and analytics (dashboard)
  notification_not_found: 'errors.notificationGone',
  invalid_date: 'errors.dateRange',
  invalid_range: 'errors.dateRange',
  range_too_long: 'errors.dateRangeTooLong',
  invalid_cursor: 'errors.invalidRequest',
  // contacts: the contacts screen says these in its own words (features/contacts/contact-errors.ts,
  // lazy `contacts` catalogue); elsewhere they read generic
  contact_exists: GENERIC_ERROR_KEY,
  contact_not_found: GENERIC_ERROR_KEY,
  contacts_full: GENERIC_ERROR_KEY,
  csv_too_large: GENERIC_ERROR_KEY,
  csv_too_many_rows: GENERIC_ERROR_KEY,
  csv_empty: GENERIC_ERROR_KEY,
  csv_no_email_column: GENERIC_ERROR_KEY,
  csv_unterminated: GENERIC_ERROR_KEY,
  // ---- file requests: the request screens say these in their own catalogue
  // (features/requests/request-errors.ts); these are the app-wide fallbacks ----
  request_not_found: NOT_FOUND,
  upload_not_found: NOT_FOUND,
  not_your_requests: 'errors.invalidRequest',
  request_closed: NOT_FOUND,
  request_expired: NOT_FOUND,
  request_too_many_files: 'send.errors.tooManyFiles',
  request_too_large: 'send.errors.transferTooLarge',
  request_file_type: 'send.errors.fileNotAllowed',
  request_file_blocked: 'send.errors.fileNotAllowed',
  rules_exceed_plan: 'errors.invalidRequest',
  due_date_past: 'errors.invalidRequest',
  // ---- storage regions and settings (the settings screens say these in their own words first)
  not_your_account: SIGN_IN_AGAIN,
  region_choice_not_in_plan: 'dashboard.limit.upgrade',
  // ---- payments. Card errors are shown in the provider's words (spec §8); these are the fallbacks ----
  not_found: GENERIC_ERROR_KEY,
  checkout_not_found: 'errors.checkoutGone',
  checkout_not_open: 'errors.checkoutGone',
  setup_not_open: GENERIC_ERROR_KEY,
  card_declined: 'errors.cardError',
  incorrect_number: 'errors.cardError',
  invalid_number: 'errors.cardError',
  invalid_expiry_month: 'errors.cardError',
  invalid_expiry_year: 'errors.cardError',
  invalid_cvc: 'errors.cardError',
  incorrect_cvc: 'errors.cardError',
  expired_card: 'errors.cardError',
  processing_error: 'errors.cardError',
  // ---- billing and lifetime codes (the billing screens may say these in their own words) ----
  team_member_billing: 'dashboard.billingErrors.teamMemberBilling',
  // ---- verified recipients (the pages catalogue's accessErrors; the download page's code step has its own texts) ----
  verification_required: 'accessErrors.verificationRequired',
  address_not_allowed: 'accessErrors.addressNotAllowed',
  recipient_removed: 'accessErrors.removed',
  recipient_revoked: 'accessErrors.revoked',
  recipient_expired: 'accessErrors.expired',
  verification_not_needed: 'accessErrors.notNeeded',
  access_list_empty: 'accessErrors.listEmpty',
  access_list_full: 'accessErrors.listFull',
  not_on_access_list: 'accessErrors.notListed',
  invalid_expiry: 'accessErrors.invalidExpiry',
  // ---- reviews (the pages catalogue's reviewErrors) ----
  review_off: 'reviewErrors.off',
  review_closed: 'reviewErrors.closed',
  reviewer_required: 'reviewErrors.reviewerRequired',
  review_full: 'reviewErrors.full',
  review_needs_account: 'reviewErrors.needsAccount',
  // what needs the files read (a review, a forward, a dashboard upload) is refused for an encrypted transfer (the pages catalogue)
  encrypted_review: 'e2eErrors.transfer',
  encrypted_forward: 'e2eErrors.transfer',
  encrypted_new_version: 'e2eErrors.transfer',
  // a wrong anchor is the page's own mistake: the generic text
  invalid_anchor: GENERIC_ERROR_KEY,
  // ---- teams and sharing (the pages catalogue's teamErrors: not on home's first load) ----
  team_member_forbidden: 'teamErrors.memberForbidden',
  // ---- webhooks (the pages catalogue's webhookErrors) ----
  webhook_url_invalid: 'webhookErrors.urlInvalid',
  webhook_url_not_allowed: 'webhookErrors.urlNotAllowed',
  webhooks_full: 'webhookErrors.full',
  webhook_not_found: 'webhookErrors.notFound',
  delivery_not_found: 'webhookErrors.deliveryNotFound',
  // ---- API keys (the pages catalogue's apiKeyErrors) ----
  invalid_api_key: 'apiKeyErrors.invalidKey',
  key_scope_missing: 'apiKeyErrors.scopeMissing',
  api_keys_not_allowed: 'apiKeyErrors.notAllowed',
  too_many_keys: 'apiKeyErrors.tooMany',
  key_not_found: 'apiKeyErrors.notFound',
  team_plan_required: 'teamErrors.planRequired',
  team_full: 'teamErrors.full',
  // registration reads the account catalogue: the spec's 'This email has been taken'
  email_invited: 'auth.errors.emailTaken',
  invite_not_found: 'teamErrors.inviteNotFound',
  invite_expired: 'teamErrors.inviteExpired',
  invite_wrong_address: 'teamErrors.wrongAddress',
  member_not_found: 'teamErrors.memberNotFound',
  share_not_team: 'teamErrors.shareNotTeam',
  unknown_price: 'errors.invalidRequest',
  already_subscribed: 'dashboard.billingErrors.alreadySubscribed',
  no_subscription: 'dashboard.billingErrors.noSubscription',
  plan_unchanged: 'dashboard.billingErrors.planUnchanged',
  storage_exceeds_plan: 'dashboard.billingErrors.storageExceedsPlan',
  refund_window_over: 'dashboard.billingErrors.refundWindowOver',
  nothing_to_refund: 'dashboard.billingErrors.nothingToRefund',
  payment_request_invalid: GENERIC_ERROR_KEY,
  invalid_code: 'dashboard.billingErrors.invalidCode',
  code_already_used: 'dashboard.billingErrors.codeAlreadyUsed',
  sumo_codes_full: 'dashboard.billingErrors.sumoCodesFull',
  // the provider's webhook only: no person meets these
  invalid_signature: GENERIC_ERROR_KEY,
  signature_too_old: GENERIC_ERROR_KEY,
  invalid_event: GENERIC_ERROR_KEY,
  // ---- domain settings (the `pages` catalogue, loaded with the dashboard) ----
  domain_invalid: 'domainErrors.domainInvalid',
  domain_ip: 'domainErrors.domainIp',
  domain_wildcard: 'domainErrors.domainWildcard',
  domain_port_or_path: 'domainErrors.domainPortOrPath',
  domain_too_long: 'domainErrors.domainTooLong',
  domain_product: 'domainErrors.domainProduct',
  domain_taken: 'domainErrors.domainTaken',
  domain_already_set: 'domainErrors.domainAlreadySet',
  domain_not_found: 'domainErrors.domainNotFound',
  custom_domain_not_in_plan: 'domainErrors.customNotInPlan',
  email_domain_not_in_plan: 'domainErrors.emailNotInPlan',
  email_domain_taken: 'domainErrors.emailTaken',
  email_domain_already_set: 'domainErrors.emailAlreadySet',
  email_domain_not_found: 'domainErrors.emailNotFound',
  // ---- branding
  image_content_invalid: 'errors.invalidPicture',
  not_your_image: 'errors.invalidPicture',
  image_too_large: 'dashboard.profile.errors.size',
  plan_forbids_powered_by: 'brandingErrors.poweredByPlan',
  branding_not_found: GENERIC_ERROR_KEY,
};

/**
 * Validation problems (functions/domain/validation.ts; `details.issues[].code`, and a refused
 * send's top-level code). A separate table: `password_required` here is an empty password
 * field, while the API error of that name is a protected download.
 */
export const PROBLEM_KEYS: Readonly<Record<string, ErrorKey>> = {
  too_many_recipients: 'send.errors.tooManyRecipients',
  email_to_required: 'send.errors.emailToRequired',
  sender_email_required: 'send.errors.senderEmailRequired',
  invalid_email: 'auth.errors.invalidEmail',
  links_reserved: 'send.errors.linksReserved',
  no_files: 'send.errors.noFiles',
  too_many_files: 'send.errors.tooManyFiles',
  transfer_too_large: 'send.errors.transferTooLarge',
  file_not_allowed: 'send.errors.fileNotAllowed',
  expiry_not_allowed: 'send.errors.expiryNotAllowed',
  custom_expiry_required: 'send.errors.customExpiryRequired',
  expiry_too_soon: 'send.errors.expiryTooSoon',
  expiry_too_late: 'send.errors.expiryTooLate',
  password_too_short: 'send.errors.passwordTooShort',
  encryption_needs_account: 'send.errors.e2eNeedsAccount',
  encryption_passphrase_required: 'send.errors.e2ePassphraseRequired',
  invalid_encryption: 'send.errors.invalidE2e',
  message_too_long: 'send.errors.messageTooLong',
  unknown_region: 'errors.regionUnavailable',
  email_required: 'auth.errors.emailRequired',
  password_required: 'auth.errors.passwordRequired',
  signup_password_too_short: 'auth.errors.passwordTooShort',
  code_invalid: 'errors.codeInvalid',
  guest_code_invalid: 'errors.guestCodeInvalid',
  feedback_required: 'errors.feedbackRequired',
  name_required: 'auth.errors.nameRequired',
  invalid_registration: 'auth.errors.registrationExpired',
  invalid_reset_link: 'auth.errors.resetLinkInvalid',
  image_type_not_allowed: 'dashboard.profile.errors.type',
  image_too_large: 'dashboard.profile.errors.size',
  invalid_link: NOT_FOUND,
  invalid_file_id: NOT_FOUND,
  invalid_recipient: NOT_FOUND,
  invalid_token: 'extension.expiredTitle',
  // the review screens check lengths themselves; an id the page did not make reads generic
  invalid_comment: 'reviewErrors.comment',
  invalid_name: 'reviewErrors.name',
  invalid_visitor: GENERIC_ERROR_KEY,
  invalid_comment_id: NOT_FOUND,
};

const keyIn = (table: Readonly<Record<string, ErrorKey>>, code: string | undefined) =>
  code !== undefined && Object.hasOwn(table, code) ? table[code] : undefined;

/** An error's code (or a refused send's problem code) as an i18n key; unknown codes read generic. */
export function errorKeyOf(code: string | undefined): ErrorKey {
  return keyIn(ERROR_KEYS, code) ?? keyIn(PROBLEM_KEYS, code) ?? GENERIC_ERROR_KEY;
}

/** A validation problem's code as an i18n key; unknown codes read generic. */
export function problemKeyOf(code: string | undefined): ErrorKey {
  return keyIn(PROBLEM_KEYS, code) ?? GENERIC_ERROR_KEY;
}

/** A refusal as a key and its values: `t(text.key, text.params)`. */
export interface ErrorText {
  readonly key: ErrorKey;
  readonly params?: Readonly<Record<string, number>>;
}

interface CodedError {
  readonly code: string;
  readonly details?: unknown;
}

function isCoded(err: unknown): err is CodedError {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string';
}

/**
 * The text for a failed API call: its code's key; a 400 invalid_request by its first problem
 * (`details.issues[0].code`); a 429 with the minutes to wait. Anything else is generic.
 */
export function errorTextOf(err: unknown): ErrorText {
  if (!isCoded(err)) return { key: GENERIC_ERROR_KEY };
  const details = (typeof err.details === 'object' && err.details !== null ? err.details : {}) as {
    issues?: readonly { code?: unknown }[];
    retryAfterSeconds?: unknown;
  };
  if (err.code === 'rate_limited') {
    const seconds =
      typeof details.retryAfterSeconds === 'number' && details.retryAfterSeconds > 0 ? details.retryAfterSeconds : 60;
    return { key: 'errors.rateLimited', params: { count: Math.ceil(seconds / 60) } };
  }
  if (err.code === 'invalid_request') {
    const first = details.issues?.[0]?.code;
    if (typeof first === 'string' && keyIn(PROBLEM_KEYS, first)) return { key: problemKeyOf(first) };
  }
  return { key: errorKeyOf(err.code) };
}
