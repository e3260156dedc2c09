/**
 * Verified recipients and the access list (docs/decisions/0076): who may download a transfer
 * that asks each recipient for a code mailed to their address, and what the sender's access
 * list shows. Contract of functions/services/recipient-access.ts and the app; the request
 * schemas are in recipient-access-api.ts (the transfers functions need none of them).
 */
/** How long a right code lets that address download (every request still reads the live list). */
export const RECIPIENT_SESSION_HOURS = 8;
/** Addresses on one access list (an email send's own recipients count too). */
export const MAX_ACCESS_ENTRIES = 500;
/** Addresses added in one request. */
export const MAX_ADDED_AT_ONCE = 50;

/** Stored on the transfer: present means every download needs a verified address. */
export interface RecipientAccessConfig {
  /** anyone at this domain (lower case, no '@') may verify, besides the listed addresses */
  readonly domain?: string;
}

/** One address on a transfer's access list. */
export interface AccessEntry {
  readonly email: string;
  /** the id in its personal link (/downloads/{slug}/{recipientId}) */
  readonly recipientId: string;
  readonly addedAt: number;
  /** this address may download until then (epoch ms); absent: as long as the transfer */
  readonly expiresAt?: number;
  readonly revokedAt?: number;
  /** removed by the sender: kept so the address is told so, never listed */
  readonly removedAt?: number;
  /** when the address first entered a right code */
  readonly openedAt?: number;
}

export type AccessState = 'not_opened' | 'opened' | 'downloaded' | 'revoked' | 'expired';

export interface AccessRow {
  readonly email: string;
  readonly state: AccessState;
  readonly downloads: number;
  readonly addedAt: number;
  readonly expiresAt?: number;
  readonly openedAt?: number;
  readonly revokedAt?: number;
}

export interface AccessSessionResponse {
  /** sent as `access` with every download call */
  readonly access: string;
  readonly email: string;
  readonly expiresAt: number;
}

export interface AccessListResponse {
  /** whether downloads need a verified address */
  readonly enabled: boolean;
  readonly domain?: string;
  readonly recipients: readonly AccessRow[];
}

/** What a row says, revocation and expiry first: those stop the address whatever it did before. */
export function accessStateOf(e: AccessEntry, downloads: number, now: number): AccessState {
  if (e.revokedAt !== undefined) return 'revoked';
  if (e.expiresAt !== undefined && now >= e.expiresAt) return 'expired';
  if (downloads > 0) return 'downloaded';
  return e.openedAt !== undefined ? 'opened' : 'not_opened';
}

/** A send with verified recipients names someone who may download: a link send needs addresses or a domain. */
export function accessListIsEmpty(
  send: { readonly sendAs: string; readonly emailTo: readonly unknown[] },
  v: { readonly addresses: readonly string[]; readonly domain?: string | undefined },
): boolean {
  return v.addresses.length === 0 && !v.domain && (send.sendAs === 'link' || send.emailTo.length === 0);
}

/** The first access list of a send: its recipients (with their personal links' ids), then the extra addresses. */
export function initialAccessEntries(
  recipients: readonly { readonly email: string; readonly recipientId: string }[],
  addresses: readonly string[],
  newId: () => string,
  now: number,
): AccessEntry[] {
  const seen = new Set(recipients.map((r) => r.email));
  const extra = [...new Set(addresses)].filter((e) => !seen.has(e));
  return [
    ...recipients.map((r) => ({ email: r.email, recipientId: r.recipientId, addedAt: now })),
    ...extra.map((email) => ({ email, recipientId: newId(), addedAt: now })),
  ];
}

/** Whether an address is at the domain itself (not a subdomain: 'a@x.example.com' is not at 'example.com'). */
export function isAtDomain(email: string, domain: string | undefined): boolean {
  if (!domain) return false;
  return email.slice(email.lastIndexOf('@') + 1) === domain;
}

/** The English texts of the stable codes (the app shows its own translation by code). */
export const ACCESS_TEXTS = {
  verificationRequired: 'Enter your email address and the code we mail to it to download these files.',
  addressNotAllowed: 'This address may not download these files. Ask the sender to add it.',
  recipientRemoved: 'The sender removed your access to these files.',
  recipientRevoked: 'The sender revoked your access to these files.',
  recipientExpired: 'Your access to these files has expired. Ask the sender for more time.',
  notVerified: 'This transfer does not ask for a verified address.',
  notListed: 'This address is not on the access list.',
  emptyList: 'Add at least one address or a domain that may download.',
  listFull: `An access list holds at most ${MAX_ACCESS_ENTRIES} addresses.`,
} as const;
