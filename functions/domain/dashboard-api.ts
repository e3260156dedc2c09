/**
 * The dashboard's API (spec §2 /dash, TransferModal, Notifications; §3 Transfer
 * record, Notification, Changelog entry; §7 getQs, deleteTransfer, notifications,
 * deleteNotification, transfers/emailSend, canny/changelog), shared by the handlers, the app's
 * fetchers and the tests. Paths are relative to /api; every route needs the signed-in user's
 * JWT except the changelog.
 *
 *   GET  /getQs?filter&skip&q          the caller's transfers, one page + counts   -> 200 TransferListResponse
 *   GET  /getQs?slug=                  one transfer of the caller, in full         -> 200 TransferDetail | 404
 *   POST /deleteTransfer               { slug }                                    -> 200 { deleted: true }
 *   POST /transfers/forward            { slug, emailTo?, message?, sendAs }        -> 201 ForwardResponse
 *   POST /transfers/emailSend          { slug, emails? }  mail the link again      -> 200 { sent: string[] }
 *   POST /transfers/remind             { slug }  mail recipients who have not downloaded -> 200 { sent: string[] }
 *   POST /transfers/expiry             { slug, expirySeconds, customExpiryDate? }  -> 200 { expiryDate, state }
 *   POST /transfers/password           { slug, password: string | null }           -> 200 { hasPassword }
 *   GET  /transfers/{id}/download-limit the transfer's download limits               -> 200 DownloadLimitsView
 *   PATCH /transfers/{id}/download-limit { limit: 1-100 | null, recipient? }       -> 200 DownloadLimitsView
 *   POST /notifications                {}                                          -> 200 NotificationsResponse
 *   POST /notifications/read           { notifyId }                                -> 200 { read: true }
 *   POST /deleteNotification           { notifyId: id | 'all' | 'Allread' }        -> 200 { deleted: number }
 *   GET  /analytics?from&to&interval   aggregates of the caller's downloads        -> 200 AnalyticsResponse
 *   GET  /analytics/downloads?from&to&cursor  download rows for the CSV export     -> 200 DownloadRowsPage
 *   GET  /canny/changelog              changelog entries, newest first (public)    -> 200 { entries: ChangelogEntry[] }
 */
import type { FileScanView } from './malware-scan';
import * as z from 'zod/mini';
import { transferIdSchema } from './transfer-api';
import { emailSchema, sendPasswordSchema } from './validation';
import type { RequestUploadNotice } from './requests-api';
import type { ReviewSettingsState, ReviewSummary } from './review';
import { MAX_DOWNLOAD_LIMIT, MIN_DOWNLOAD_LIMIT } from './delivery-events';

// ---- transfer list (GET /getQs) -----------------------------------------------------------------

/** Spec §4: unseen = active with zero downloads; expiring soon = active, under 2.2 days left; shared = team mates' transfers shared with the caller. */
export const LIST_FILTERS = ['all', 'active', 'expired', 'unseen', 'expiring', 'shared'] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];
export const EXPIRING_SOON_MS = 2.2 * 24 * 3600 * 1000;
/** Rows per page of GET /getQs. */
export const LIST_PAGE_SIZE = 20;
/** Deepest `skip` accepted (a page is read after skipping this many rows). */
export const LIST_MAX_SKIP = 10_000;
export const SEARCH_MAX_LENGTH = 100;

/** Query string of GET /getQs (strings, as API Gateway passes them). */
export const listQuerySchema = z.object({
  filter: z._default(z.enum(LIST_FILTERS), 'all'),
  skip: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(LIST_MAX_SKIP)), 0),
  /** search by file name or recipient address (case-insensitive substring) */
  q: z.optional(z.string().check(z.trim(), z.maxLength(SEARCH_MAX_LENGTH))),
  /** when present: the one transfer, as TransferDetail */
  slug: z.optional(transferIdSchema),
});
export type ListQuery = z.input<typeof listQuerySchema>;

/** State of a sent transfer as the dashboard shows it (spec §4). */
export type TransferState = 'active' | 'expired' | 'deleted';

/** One row of the list (spec §3 Transfer record: dateSent, expiryDate, total_downloads, slug, _id). */
export interface TransferRow {
  readonly _id: string;
  readonly slug: string;
  /** first file's base name */
  readonly fileName: string;
  readonly fileCount: number;
  readonly size: number;
  readonly sendAs: 'link' | 'email';
  /** recipient addresses (email sends); empty for a link */
  readonly recipients: readonly string[];
  readonly dateSent: number;
  readonly expiryDate: number;
  readonly state: TransferState;
  readonly total_downloads: number;
  readonly hasPassword: boolean;
  readonly region: string;
  /** shared with the caller by a team mate (read only for the caller); the sender's address */
  readonly sharedBy?: string;
  /** review on: approvals, requests for changes and unread comments, from counters on the transfer */
  readonly review?: ReviewSummary;
  /** end-to-end encrypted: by a key in the link, or a passphrase (the server has neither) */
  readonly e2e?: 'link' | 'passphrase';
}

export interface TransferListResponse {
  readonly allDocs: readonly TransferRow[];
  readonly filter: ListFilter;
  readonly skip: number;
  /** true when a next page exists (skip + allDocs.length) */
  readonly hasMore: boolean;
  readonly allCount: number;
  readonly activeCount: number;
  readonly expiredCount: number;
  /** live transfers nobody has downloaded yet (the unseen filter) */
  readonly unseenCount: number;
  /** live transfers that expire within EXPIRING_SOON_MS (the expiring-soon filter) */
  readonly expiringCount: number;
  readonly thisMonthsTransfers: number;
  /** transfers team mates shared with the caller */
  readonly sharedCount: number;
}

// ---- transfer detail (GET /getQs?slug=) -----------------------------------------------------------

export interface DetailFile {
  readonly fileId: string;
  readonly fileName: string;
  /** folder path of the file, when it was sent inside a folder */
  readonly itemPath?: string;
  readonly size: number;
  /**
   * a later version (2, 3, …) of the file `versionOf` names (the first version's id); both
   * absent on a first version. The detail lists every uploaded version: the current one of a
   * file is its highest (domain/file-versions.ts groupFileVersions).
   */
  readonly version?: number;
  readonly versionOf?: string;
  /**
   * The malware scan's verdict when the file is not (yet) downloadable: `pending` while
   * it is checked, `removed` when it was found infected and quarantined (with the scanner's
   * `finding`), `error` when it could not be checked. Absent for a clean file.
   */
  readonly scan?: Exclude<FileScanView, 'clean'>;
  readonly finding?: string;
}

export interface DetailRecipient {
  readonly email: string;
  readonly name?: string;
  /** the recipient's own link (/downloads/{slug}/{recipientId}) */
  readonly link: string;
  readonly downloads: number;
  readonly lastDownloadAt?: number;
  readonly remindedAt?: number;
}

/** One recorded download (spec §3 Transfer record downloads: country_name, dlDate). */
export interface DetailDownload {
  readonly dlDate: number;
  readonly country_name: string;
  readonly countryCode: string;
  /** the recipient whose link was used, when it was one */
  readonly receiverEmail?: string;
  /** the file's name, or the ZIP's */
  readonly fileName: string;
  readonly dlOrigin: 'file' | 'zip';
}

export interface TransferDetail extends TransferRow {
  readonly link: string;
  readonly message: string;
  readonly senderEmail: string;
  readonly senderName?: string;
  readonly files: readonly DetailFile[];
  readonly recipientsDetail: readonly DetailRecipient[];
  /** newest first, at most DETAIL_MAX_DOWNLOADS */
  readonly downloads: readonly DetailDownload[];
  readonly expirySeconds: number;
  /** the objects are gone (expired past the grace period): nothing can be extended or added */
  readonly purged: boolean;
  /** the copy's origin, for a forwarded transfer */
  readonly forwardedFrom?: string;
  /** the caller may only view, download and copy the link (a transfer a team mate shared) */
  readonly readOnly?: boolean;
  /** review on: its settings (the TransferModal's switch and close button) */
  readonly reviewSettings?: ReviewSettingsState;
}
export const DETAIL_MAX_DOWNLOADS = 500;

// ---- modal actions ---------------------------------------------------------------------------------

export const slugBodySchema = z.object({ slug: transferIdSchema });
export const deleteTransferRequestSchema = slugBodySchema;

export const forwardRequestSchema = z.object({
  slug: transferIdSchema,
  sendAs: z._default(z.enum(['link', 'email']), 'email'),
  emailTo: z._default(
    z
      .array(z.object({ email: emailSchema, name: z.optional(z.string().check(z.trim(), z.maxLength(100))) }))
      .check(z.maxLength(300)),
    [],
  ),
  message: z._default(z.string().check(z.maxLength(280, 'message_too_long')), ''),
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export type ForwardRequest = z.input<typeof forwardRequestSchema>;
export interface ForwardResponse {
  readonly slug: string;
  readonly link: string;
  readonly expiryDate: number;
  /** addresses the mail went to (with `copying`: the addresses it will go to once copied) */
  readonly recipients: readonly string[];
  /**
   * A large transfer is still being copied (the forward-copy job): the new transfer is listed,
   * and its recipients mailed, once every object is copied.
   */
  readonly copying?: boolean;
}

export const emailSendRequestSchema = z.object({
  slug: transferIdSchema,
  /** some of the transfer's recipients; all when absent */
  emails: z.optional(z.array(emailSchema).check(z.minLength(1), z.maxLength(300))),
  /**
   * Spec §7: the sender domain (pmDomain.ID) the app expects the mail from. The server
   * always sends from the sender's own verified domain (services/link-origin.ts senderFromOf), so
   * this cannot make anyone's mail come from a domain they do not hold.
   */
  pmDomainID: z.optional(z.string().check(z.maxLength(253))),
});
export type EmailSendRequest = z.input<typeof emailSendRequestSchema>;

export const remindRequestSchema = slugBodySchema;

export const changeExpiryRequestSchema = z.object({
  slug: transferIdSchema,
  /** one of the expiry presets (spec §9), or the Custom Date marker with customExpiryDate */
  expirySeconds: z.number().check(z.int(), z.positive()),
  customExpiryDate: z.optional(z.number().check(z.int(), z.positive())),
});
export type ChangeExpiryRequest = z.input<typeof changeExpiryRequestSchema>;

export const changePasswordRequestSchema = z.object({
  slug: transferIdSchema,
  /** null removes the password */
  password: z.union([sendPasswordSchema, z.null()]),
});
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

/** A download limit: whole downloads (a file or the ZIP served to the end), 1 to 100. */
export const downloadLimitSchema = z.number().check(z.int(), z.gte(MIN_DOWNLOAD_LIMIT), z.lte(MAX_DOWNLOAD_LIMIT));

export const setDownloadLimitRequestSchema = z.object({
  /** null removes the limit */
  limit: z.union([downloadLimitSchema, z.null()]),
  /** one recipient's own limit (by address); absent: the transfer's */
  recipient: z.optional(emailSchema),
});
export type SetDownloadLimitRequest = z.output<typeof setDownloadLimitRequestSchema>;

export interface DownloadLimitUse {
  readonly limit: number;
  /** downloads completed so far */
  readonly used: number;
}
export interface DownloadLimitsView {
  /** the transfer's own limit, when it has one */
  readonly transfer?: DownloadLimitUse;
  readonly recipients: readonly (DownloadLimitUse & { readonly recipient: string })[];
}

// ---- notifications ---------------------------------------------------------------------------------

/** Spec §3 Notification. */
export interface NotificationView {
  readonly _id: string;
  readonly slug: string;
  readonly read: boolean;
  readonly dlDate: number;
  readonly dlCountryCode: string;
  readonly receiverEmail?: string;
  readonly fileName: string;
  readonly dlOrigin: 'file' | 'zip';
  /**
   * Absent for a download; 'request-upload' when someone uploaded to one of the user's
   * file requests (then `request` says which and who; `slug` is the upload's, `dlDate` its time,
   * `fileName` its first file, `dlCountryCode` 'XX', `dlOrigin` 'file').
   */
  readonly kind?: 'request-upload' | 'scan-failed' | 'download-limit' | 'review';
  readonly request?: RequestUploadNotice;
  /**
   * With kind 'review', recipients of the transfer `slug` (named by `fileName`, its title) commented
   * or decided: one notification per burst of activity (what the next review mail will hold), its
   * counts growing while the burst lasts; `dlDate` is when the burst began.
   */
  readonly review?: ReviewNotice;
  /**
   * With kind 'download-limit', the transfer `slug` reached its download limit (`recipient`:
   * that recipient's own limit); no more downloads start until the sender raises it.
   */
  readonly downloadLimit?: { readonly limit: number; readonly recipient?: string };
  /**
   * With kind 'scan-failed', a file of the transfer `slug` (named by `fileName`) was
   * found infected and removed; `finding` is the scanner's name of what it found.
   */
  readonly scan?: { readonly finding: string };
}
/** What a review notification counts (comments, approvals, requests for changes). */
export interface ReviewNotice {
  readonly comments: number;
  readonly approvals: number;
  readonly changesRequested: number;
}
export const NOTIFICATIONS_PAGE = 50;
/** Unread notifications are counted up to this (the badge says '9+' above 9). */
export const UNREAD_COUNT_CAP = 100;
export interface NotificationsResponse {
  readonly notifications: readonly NotificationView[];
  /** unread ones, counted up to UNREAD_COUNT_CAP */
  readonly unreadCount: number;
}
export const notificationIdSchema = z.string().check(z.regex(/^[0-9a-f-]{36}$/u, 'invalid_notification_id'));
export const readNotificationRequestSchema = z.object({ notifyId: notificationIdSchema });
export const deleteNotificationRequestSchema = z.object({
  notifyId: z.union([z.literal('all'), z.literal('Allread'), notificationIdSchema]),
});
/** How often an open dashboard asks for notifications while its tab is visible. */
export const NOTIFICATIONS_POLL_MS = 15_000;

// ---- analytics ---------------------------------------------------------------------------------------

export const ANALYTICS_INTERVALS = ['day', 'week', 'month'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];
/** yyyy-mm-dd (UTC days) */
export const dayStringSchema = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/u, 'invalid_date'));
/** Longest range one analytics request covers. */
export const ANALYTICS_MAX_DAYS = 731;
export const analyticsQuerySchema = z.object({
  from: dayStringSchema,
  to: dayStringSchema,
  interval: z._default(z.enum(ANALYTICS_INTERVALS), 'day'),
});
export type AnalyticsQuery = z.input<typeof analyticsQuerySchema>;

export interface AnalyticsResponse {
  readonly from: string;
  readonly to: string;
  readonly interval: AnalyticsInterval;
  /** one bucket per day / ISO week (its Monday) / month (its first day), zeros included */
  readonly series: readonly { readonly start: string; readonly downloads: number }[];
  readonly totalDownloads: number;
  /** ISO 3166 alpha-2 (or 'XX' for unknown) with downloads, most first */
  readonly countries: readonly { readonly countryCode: string; readonly downloads: number }[];
  readonly topTransfers: readonly { readonly slug: string; readonly fileName: string; readonly downloads: number }[];
  readonly uniqueRecipients: number;
}

export const downloadRowsQuerySchema = z.object({
  from: dayStringSchema,
  to: dayStringSchema,
  cursor: z.optional(z.string().check(z.maxLength(512))),
});
export const DOWNLOAD_ROWS_PAGE = 1000;
export interface DownloadRow {
  readonly dlDate: number;
  readonly slug: string;
  readonly fileName: string;
  readonly dlOrigin: 'file' | 'zip';
  readonly countryCode: string;
  readonly country_name: string;
  readonly receiverEmail?: string;
}
export interface DownloadRowsPage {
  readonly rows: readonly DownloadRow[];
  readonly cursor?: string;
}

// ---- changelog (GET /canny/changelog) --------------------------------------------------------------

export type ChangeType = 'new' | 'improved' | 'fixed';
/** Spec §3 Changelog entry. */
export interface ChangelogEntry {
  readonly id: string;
  readonly types: readonly ChangeType[];
  /** ISO date-time */
  readonly created: string;
  readonly title: string;
  readonly markdownDetails: string;
}
export interface ChangelogResponse {
  readonly entries: readonly ChangelogEntry[];
}
