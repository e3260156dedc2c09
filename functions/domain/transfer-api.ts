/**
 * The transfer API's request and response shapes (spec §3, §7; architecture §3), shared by
 * the handlers, the app's fetchers and the tests (conventions §4). Paths are relative to /api.
 *
 *   POST   /verifyEmail                  guest sender: mail a 5-digit code      -> 202 VerifySenderResponse
 *   POST   /checkVerifyEmail             guest sender: check the code           -> 200 SenderTokenResponse | 403
 *   POST   /transfers                    guest create (header x-sender-token)   -> 201 CreateTransferResponse
 *   POST   /me/transfers                 signed-in create (JWT)                 -> 201 CreateTransferResponse
 *   PATCH  /transfers/addFiles           owner adds files (JWT)                 -> 200 CreateTransferResponse
 *   POST   /transfers/{id}/sign          fresh URLs (header x-upload-token)     -> 200 SignResponse
 *   POST   /transfers/{id}/parts         record a finished part (upload token)  -> 200 { recorded: true }
 *   GET    /transfers/{id}/upload-state  resume: parts done per file            -> 200 UploadStateResponse
 *   POST   /transfers/{id}/files/{fileId}/complete   finish one file            -> 200 | 202 FileCompleteResponse
 *   POST   /transfers/{id}/complete      finish the transfer, send mail          -> 200 CompleteResponse | 202 CompletingResponse
 *   POST   /transfers/{id}/cancel        abort the upload (upload token)        -> 200 { cancelled: true }
 *   DELETE /transfers/{id}               owner deletes (JWT)                    -> 200 { deleted: true }
 *   POST   /getDownload                  download page data                     -> 200 DownloadView | 401 | 404 | 410
 *   POST   /getDownload/file             presigned GET for one file             -> 200 { url }
 *   POST   /zip                          start or read the ZIP of all files     -> 202 { status: 'building' } | 200 { status: 'ready', url }
 *   POST   /getDownload/notify           mail me when the upload is complete    -> 202 { watching: true } | 409 transfer_complete
 *   POST   /extension/request            recipient asks the sender for more time -> 202
 *   POST   /checkExtension               sender's approve link                  -> 200 { expiryDate } | 410 'Link expired'
 */
import * as z from 'zod/mini';
import type { PublicBranding } from './branding-api';
import type { FileScanView, ScanStatus } from './malware-scan';
import type { LiveUploadView } from './live-upload';
import type { ReviewSettingsState } from './review';
import { fileEntrySchema, uploadSpeedSchema } from './file-entry-schema';
import { RECIPIENT_ID_PATTERN } from './id-patterns';
import { slugSchema } from './slug';
import {
  emailSchema,
  guestCodeSchema,
  sendBodySchema,
  sendPasswordSchema,
  PASSWORD_MAX_LENGTH,
  type SendRequest,
} from './validation';
import { regionIdSchema } from './regions';

export { SENDER_TOKEN_HEADER, UPLOAD_TOKEN_HEADER } from './transfer-headers';

/** Mail languages: the app's 8 UI languages (frontend/src/i18n/languages.ts; a unit test keeps them equal). Others fall back to en. */
export const MAIL_LANGUAGES = ['en', 'zh', 'fr', 'it', 'de', 'es', 'ko', 'ja'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
export function mailLanguageOf(lang: string | undefined): MailLanguage {
  const base = (lang ?? '').slice(0, 2).toLowerCase();
  return (MAIL_LANGUAGES as readonly string[]).includes(base) ? (base as MailLanguage) : 'en';
}

/** Public transfer id: the 7-character slug (used by /downloads/{id}, /d/{id} and /w/{slug}). */
export const transferIdSchema = slugSchema;
/** Server-generated file id inside a transfer. */
export const FILE_ID_LENGTH = 10;
export const fileIdSchema = z.string().check(z.regex(/^[A-Za-z0-9]{10}$/u, 'invalid_file_id'));
/** Recipient id carried in the emailed link /downloads/{id}/{recipientId}. */
export const recipientIdSchema = z.string().check(z.regex(RECIPIENT_ID_PATTERN, 'invalid_recipient'));
/** Opaque tokens (upload, sender, extension): 43 base64url characters (32 random bytes). */
export const tokenSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/u, 'invalid_token'));

// ---- guest sender verification -------------------------------------------------------------

export const verifySenderRequestSchema = z.object({
  email: emailSchema,
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export type VerifySenderRequest = z.input<typeof verifySenderRequestSchema>;
export interface VerifySenderResponse {
  /** When the code stops working (epoch ms). */
  readonly expiresAt: number;
}

export const checkSenderRequestSchema = z.object({ email: emailSchema, code: guestCodeSchema });
export type CheckSenderRequest = z.input<typeof checkSenderRequestSchema>;
export interface SenderTokenResponse {
  readonly senderToken: string;
  readonly email: string;
  readonly expiresAt: number;
}

// ---- create / add files ----------------------------------------------------------------------

/**
 * The body of every create route (the app's guest and signed-in sends, the API's): the static
 * shape of a send (validation.ts `sendBodySchema`). The sender's rules (plan, guest, team) run
 * after the parse, in send-rules.ts `checkSend`.
 */
export const createTransferRequestSchema = sendBodySchema;
export type CreateTransferRequest = SendRequest;

export const addFilesRequestSchema = z.object({
  slug: transferIdSchema,
  fileObjects: z.array(fileEntrySchema).check(z.minLength(1), z.maxLength(5000)),
  region: z.optional(regionIdSchema),
  /** the sender's last measured upload speed (bytes/s): it grows the parts (upload.ts partSizeFor) */
  uploadBytesPerSecond: z.optional(uploadSpeedSchema),
});
export type AddFilesRequest = z.input<typeof addFilesRequestSchema>;

export type UploadMode = 'single' | 'multipart';

export interface PlannedFile {
  readonly fileId: string;
  readonly fileName: string;
  readonly itemPath?: string;
  readonly size: number;
  readonly mode: UploadMode;
  /**
   * single: presigned PUT (valid SIGNED_PUT_EXPIRES_SECONDS), on the first SIGNED_URLS_PER_ANSWER
   * single files only; the others get theirs from POST /transfers/{id}/sign when their turn comes
   */
  readonly url?: string;
  /** multipart: bytes per part (the last may be smaller) and the number of parts */
  readonly partSize?: number;
  readonly partCount?: number;
}

/**
 * Presigned URLs one create (or addFiles) answer carries at most: with a Lambda session token a
 * URL is ~1.7 KB, so one per file would pass Lambda's 6 MB answer near 3,400 files.
 */
export const SIGNED_URLS_PER_ANSWER = 100;

export interface CreateTransferResponse {
  readonly id: string;
  readonly uploadToken: string;
  readonly region: string;
  readonly sendAs: 'link' | 'email';
  /** the public download link, {origin}/w/{slug} */
  readonly link: string;
  readonly expiryDate: number;
  /** every file's plan, in the draft's order; only the first SIGNED_URLS_PER_ANSWER single files carry a `url` */
  readonly files: readonly PlannedFile[];
}

// ---- upload --------------------------------------------------------------------------------

export const MAX_PARTS_PER_SIGN = 100;

export const signRequestSchema = z.object({
  fileId: fileIdSchema,
  /** multipart only: which parts to sign (1-based); omitted for a single PUT */
  partNumbers: z.optional(
    z
      .array(z.number().check(z.int(), z.minimum(1), z.maximum(10_000)))
      .check(z.minLength(1), z.maxLength(MAX_PARTS_PER_SIGN)),
  ),
});
export type SignRequest = z.input<typeof signRequestSchema>;
export interface SignResponse {
  readonly fileId: string;
  readonly url?: string;
  readonly parts?: readonly { readonly partNumber: number; readonly url: string }[];
  /** epoch ms when these URLs stop working */
  readonly expiresAt: number;
}

/** Presigned PUTs for up to SIGNED_URLS_PER_ANSWER single files at once: the plans the create left without a URL. */
export const signManyRequestSchema = z.object({
  fileIds: z.array(fileIdSchema).check(z.minLength(1), z.maxLength(SIGNED_URLS_PER_ANSWER)),
});
export type SignManyRequest = z.input<typeof signManyRequestSchema>;
export interface SignManyResponse {
  readonly files: readonly { readonly fileId: string; readonly url: string }[];
  /** epoch ms when these URLs stop working */
  readonly expiresAt: number;
}
/** The /sign routes' body: one file (its PUT or some of its parts), or several single files. */
export const signBodySchema = z.union([signManyRequestSchema, signRequestSchema]);

/**
 * A CRC-32 (unsigned 32-bit) the uploader computed over the bytes it sent: optional, so clients
 * that do not compute one still upload (the file then has none recorded).
 */
export const crc32Schema = z.number().check(z.int(), z.minimum(0), z.maximum(0xffff_ffff));

export const recordPartRequestSchema = z.object({
  fileId: fileIdSchema,
  partNumber: z.number().check(z.int(), z.minimum(1), z.maximum(10_000)),
  etag: z.string().check(z.minLength(1), z.maxLength(200)),
  size: z.number().check(z.int(), z.positive()),
  /** CRC-32 of the part's bytes */
  crc32: z.optional(crc32Schema),
});
export type RecordPartRequest = z.input<typeof recordPartRequestSchema>;

/** Parts one record call may carry: the engine sends every part that finished while its last call ran. */
export const MAX_PARTS_PER_RECORD = 100;
export const recordPartsRequestSchema = z.object({
  parts: z.array(recordPartRequestSchema).check(z.minLength(1), z.maxLength(MAX_PARTS_PER_RECORD)),
});
export type RecordPartsRequest = z.input<typeof recordPartsRequestSchema>;
/** The /parts routes' body: one part, or several (of one or more files). */
export const recordPartBodySchema = z.union([recordPartsRequestSchema, recordPartRequestSchema]);
/** The parts a /parts body carries. */
export const partsOfRecordBody = (body: RecordPartsRequest | RecordPartRequest): readonly RecordPartRequest[] =>
  'parts' in body ? body.parts : [body];

/** What a file's complete call may say: a single PUT's CRC-32 (a multipart file's comes from its parts). */
export const completeFileFieldsSchema = z.object({ crc32: z.optional(crc32Schema) });
export type CompleteFileRequest = z.input<typeof completeFileFieldsSchema>;
/** The complete call's body: none at all (older clients) or the fields above. */
export const completeFileRequestSchema = z.optional(completeFileFieldsSchema);

export interface UploadStateFile {
  readonly fileId: string;
  readonly fileName: string;
  readonly itemPath?: string;
  readonly size: number;
  readonly mode: UploadMode;
  readonly partSize?: number;
  readonly partCount?: number;
  readonly uploaded: boolean;
  /** `completing` while S3 puts the parts together (the complete-upload job); `complete` = uploaded */
  readonly state: FileUploadState;
  /** multipart: part numbers already recorded */
  readonly partsDone: readonly number[];
}
export interface UploadStateResponse {
  readonly id: string;
  readonly status: TransferStatus;
  /**
   * `uploading` until the transfer's completion is asked for; `completing` while asked and a
   * file is still being put together; `complete` once sent and every file is in
   */
  readonly state: TransferUploadState;
  /** epoch ms after which the upload can no longer be resumed */
  readonly resumableUntil: number;
  readonly files: readonly UploadStateFile[];
}

export type FileUploadState = 'pending' | 'completing' | 'complete';
export type TransferUploadState = 'uploading' | 'completing' | 'complete';

/**
 * POST /transfers/{id}/files/{fileId}/complete: 200 `complete`, or 202 `completing` while S3
 * puts a large file together in the background (header Retry-After; ask again, it is idempotent).
 */
export interface FileCompleteResponse {
  readonly fileId: string;
  readonly size: number;
  readonly state: 'completing' | 'complete';
  /** with `completing`: when to ask again (also the Retry-After header) */
  readonly retryAfterSeconds?: number;
}

export interface CompleteResponse {
  readonly id: string;
  readonly state: 'complete';
  readonly link: string;
  readonly expiryDate: number;
  /** recipients mailed (sendAs email), in the order given */
  readonly recipients: readonly string[];
}

/**
 * POST /transfers/{id}/complete, 202: every file is uploaded but some are still being put
 * together; the transfer is sent (mail, events) once they are, whether or not it is asked again.
 */
export interface CompletingResponse {
  readonly id: string;
  readonly state: 'completing';
  /** files still being put together */
  readonly completing: readonly string[];
  /** when to ask again (also the Retry-After header) */
  readonly retryAfterSeconds: number;
}

/**
 * uploading: created, files arriving; ready: sent (downloadable until expiryDate); expired: the
 * sweep saw the expiry (files kept for the grace period, then purged); cancelled; deleted.
 */
export type TransferStatus = 'uploading' | 'ready' | 'expired' | 'cancelled' | 'deleted';

// ---- download ------------------------------------------------------------------------------

const optionalPassword = z.optional(z.string().check(z.maxLength(PASSWORD_MAX_LENGTH)));

export const getDownloadRequestSchema = z.object({
  id: transferIdSchema,
  password: optionalPassword,
  recipient: z.optional(recipientIdSchema),
  /** a verified recipient's session (POST /getDownload/access/verify) */
  access: z.optional(tokenSchema),
});
export type GetDownloadRequest = z.input<typeof getDownloadRequestSchema>;

/** The previews routes' page cursor (domain/previews.ts PreviewsResponse.nextCursor): a file id. */
export const previewsCursorSchema = z.optional(fileIdSchema);
export const downloadPreviewsRequestSchema = z.extend(getDownloadRequestSchema, { cursor: previewsCursorSchema });
export type DownloadPreviewsRequest = z.input<typeof downloadPreviewsRequestSchema>;

export interface DownloadFile {
  readonly fileId: string;
  readonly fileName: string;
  readonly itemPath?: string;
  readonly size: number;
  /**
   * The malware scan: `pending` (being checked: no download yet, 409 scan_pending),
   * `clean`, `removed` (found infected and quarantined: 410 file_removed), `error` (the scan
   * could not decide: 409 scan_failed). Absent on answers of servers before scanning (clean).
   */
  readonly scan?: FileScanView;
}

export interface DownloadView {
  readonly id: string;
  /** first file's base name, or 'n files' */
  readonly title: string;
  readonly fileCount: number;
  readonly totalBytes: number;
  readonly files: readonly DownloadFile[];
  readonly message: string;
  readonly senderEmail?: string;
  readonly senderName?: string;
  /** the recipient's address when the link carried their id */
  readonly recipientEmail?: string;
  readonly dateSent: number;
  readonly expiryDate: number;
  readonly totalDownloads: number;
  /**
   * the download limit of this link (the transfer's, or its recipient's) is used up: the page
   * says so, and asking for a download URL answers 403 `download_limit_reached`
   */
  readonly limitReached?: true;
  /** the sender's (storage owner's) branding; guests' transfers carry the product's (null) */
  readonly branding?: PublicBranding | null;
  /** `pending` while any file is being checked (the page polls), else the worst result */
  readonly scanState?: ScanStatus;
  /**
   * Present while the sender's upload still runs (a link shared at the start): `files` are the
   * complete ones, this says how many are still coming; the page polls until it is gone.
   */
  readonly upload?: LiveUploadView;
  /** review on (domain/review.ts): its settings, and whether recipients may still write */
  readonly review?: ReviewSettingsState;
}

/** Body of the 410 answer: `error.details`. */
export interface ExpiredDetails {
  readonly expiryDate: number;
  /** whether a recipient may still ask for an extension (files not yet purged) */
  readonly extendable: boolean;
}

export const downloadFileRequestSchema = z.extend(getDownloadRequestSchema, { fileId: fileIdSchema });
export type DownloadFileRequest = z.input<typeof downloadFileRequestSchema>;

export const manifestRequestSchema = getDownloadRequestSchema;

/** One file of POST /getDownload/manifest. */
export interface ManifestEntry {
  readonly fileId: string;
  /** where the file goes: its relative path in a folder upload, else its name (as in the ZIP) */
  readonly path: string;
  readonly size: number;
  /** SHA-256 of its bytes, lowercase hex; null while the digest is still being computed */
  readonly sha256: string | null;
}

/** POST /getDownload/manifest: every downloadable file with its size and SHA-256. */
export interface DownloadManifest {
  readonly id: string;
  readonly files: readonly ManifestEntry[];
  /** whether every file's SHA-256 is known */
  readonly complete: boolean;
}

export const zipRequestSchema = getDownloadRequestSchema;
export type ZipResponse =
  | { readonly status: 'building' }
  | { readonly status: 'ready'; readonly url: string; readonly size: number };

export const extensionRequestSchema = z.object({
  id: transferIdSchema,
  email: emailSchema,
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export type ExtensionRequest = z.input<typeof extensionRequestSchema>;

/** POST /getDownload/notify: a recipient of a transfer still uploading asks to be mailed at its completion. */
export const notifyCompleteRequestSchema = z.extend(getDownloadRequestSchema, {
  email: emailSchema,
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export type NotifyCompleteRequest = z.input<typeof notifyCompleteRequestSchema>;

export const checkExtensionRequestSchema = z.object({ token: tokenSchema });
export interface CheckExtensionResponse {
  readonly expiryDate: number;
}

/** The password field of the send form, optional; '' means none. */
export const optionalSendPasswordSchema = z.optional(z.union([z.literal(''), sendPasswordSchema]));
