/**
 * The spec's user-facing texts (§2, §5, §6, §8) that the domain rules produce or that the API
 * and app must show identically. Spelling slips of the source are fixed (atleast, seperate,
 * Thats, a account, everytime, its just you, "Your N over your limit"). Texts marked "ours"
 * are not in the spec, which leaves those field messages unstated.
 */

export const TEXTS = {
  emailToLabel: 'Email to (Enter or , to separate)',
  invalidEmailTo: 'Invalid Email To Address',
  tooManyPeopleTitle: "That's too many people",
  tooManyPeopleBody: 'You can transfer files up to 50 people with a subscription',
  getTrialAction: 'Get 7-day trial',
  linksReserved: 'Hey, right now links are reserved for premium accounts.',
  signupPasswordTooShort: 'Password has to be at least 6 characters',
  senderEmailHint:
    "Enter your work email and we'll let you know when your files get downloaded. We will send a 5 digit code to verify your email.",
  avoidVerifyingAction: 'Avoid verifying every time',
  justYou: "Looks like it's just you!",
  emailTaken: 'This email has been taken',
  incorrectCode: 'Incorrect code, check your email and try again.',
  incorrectCodeModal: 'Incorrect, check your email and try again.',
  authFailed: 'Unable to log in with provided credentials',
  connectionTrouble: 'Connection trouble, please refresh and try again',
  resetLinkSent: 'If we have an account with that email, please click the included link to reset your password.',
  insecureFileTitle: 'Insecure file type',
  copyrightFileTitle: 'File removed',
  emailSupportAction: 'Email support',
  overTransferLimitTitle: 'Over transfer limit',
  download401: 'This transfer is password protected.',
  download404: 'Sorry, this link may have been removed.',
  download500: 'Sorry, a network error occurred. Please refresh and try again.',
  trialExpired: 'Your trial has expired',
  storageFull: 'Your storage is now full.',
  storageFullHint: 'Consider upgrading your plan or deleting some transfers.',
  suspended: "We're sorry, but your account is currently suspended. You still have access to your data.",
  subscriptionOver: 'Your subscription is over.',
  upgradeAction: 'Upgrade your plan',
  linkExtended: 'Link Extended for 48 hours',
  linkExpired: 'Link expired',
  // ours: the spec shows no message for these fields
  invalidEmail: 'Enter a valid email address',
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  sendPasswordTooShort: 'Password has to be at least 4 characters',
  e2eNeedsAccount: 'End-to-end encryption needs an account: sign in to send encrypted files',
  e2ePassphraseRequired: 'An encrypted send by email needs a passphrase: a mailed link cannot carry the key',
  invalidE2e: "This send's encryption details are not valid. Reload the page and send again",
  e2ePassphraseTooShort: 'The passphrase needs at least 12 characters',
  e2ePassphraseMismatch: 'The two passphrases are not the same',
  messageTooLong: 'Message can be at most 280 characters',
  codeInvalid: 'Enter the 5 digit code',
  guestCodeInvalid: 'Enter the 5 character code',
  noFiles: 'Add at least one file',
  tooManyFiles: 'Too many files for your plan',
  transferTooLarge: 'These files are larger than your plan allows',
  expiryNotAllowed: 'This expiry is not available on your plan',
  customExpiryRequired: 'Pick a date',
  customExpiryTooSoon: 'Pick a date at least 30 minutes from now',
  customExpiryTooLate: 'Pick a date at most 1 year from now',
  senderEmailRequired: 'Enter your email',
  emailToRequired: 'Add at least one recipient',
  feedbackRequired: 'Write a message',
  nameRequired: 'Enter your name',
  invalidRegistration: 'Invalid registration',
  invalidResetLink: 'Invalid reset link',
  imageTypeNotAllowed: 'Pictures must be PNG, JPEG, GIF or WebP',
  imageTooLarge: 'Pictures can be at most 5 MB',
  unknownRegion: 'Unknown region',
  invalidLink: 'Invalid link',
  invalidFileId: 'Invalid file id',
  invalidRecipient: 'Invalid recipient',
  invalidToken: 'Invalid token',
} as const;

/** 'You can transfer files up to {limit} people with your plan' (paid plans; ours, after the spec's upsell text). */
export function planRecipientsText(limit: number): string {
  return `You can transfer files up to ${limit} people with your plan`;
}

/** 'Sorry, we had to remove insecure file: {file}. ...' (also used, same wording, for 'File removed'). */
export function removedFileText(fileName: string): string {
  return `Sorry, we had to remove insecure file: ${fileName}. If we made a mistake please let us know below`;
}

/** 'Sorry, this download expired {time} ago.' */
export function downloadExpiredText(timeAgo: string): string {
  return `Sorry, this download expired ${timeAgo} ago.`;
}

/** 'The download email has been sent to' the first recipient plus '+ n'. */
export function sentToText(recipients: readonly string[]): string {
  const [first, ...rest] = recipients;
  if (first === undefined) return '';
  return rest.length > 0
    ? `The download email has been sent to ${first} + ${rest.length}`
    : `The download email has been sent to ${first}`;
}
