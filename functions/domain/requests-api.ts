/**
 * File requests (spec §1 "request files", §2 /r/{id}, /dash/requests,
 * /dash/requests/{slug}, §3 requestSettings, §6 anonymous visitors use file-request links,
 * §7 GET /requests with userid or slug). The contract between the API, the dashboard screens
 * and the public request page: schemas parse what comes in, interfaces say what goes out.
 *
 * A request is the requester's record; each visitor's upload to it is stored like a transfer
 * (same upload engine, same routes for signing parts and completing files) whose storage owner
 * is the requester, in the requester's storage region.
 */
import * as z from 'zod/mini';
import type { PublicBranding } from './branding-api';
import { emailSchema } from './validation';
import { fileEntrySchema } from './file-entry-schema';

/** A request's public id, the `/r/{id}` part: 8 letters or digits (longer than a transfer slug, so the two never mix). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9]{8}$/u;
export const REQUEST_ID_LENGTH = 8;
export const requestIdSchema = z.string().check(z.regex(REQUEST_ID_PATTERN, 'invalid_request'));

export function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID_PATTERN.test(value);
}

export const REQUEST_TITLE_MAX = 120;
export const REQUEST_MESSAGE_MAX = 2000;
/** allowed file types are extensions without the dot, lower case */
export const REQUEST_TYPES_MAX = 50;
export const fileExtensionSchema = z.pipe(
  z.pipe(
    z.string().check(z.trim(), z.toLowerCase()),
    z.transform((s: string) => s.replace(/^\.+/u, '')),
  ),
  z.string().check(z.regex(/^[a-z0-9]{1,10}$/u, 'invalid_file_type')),
);

/**
 * Optional rules of a request, enforced by the server when a visitor starts an upload
 * (and shown by the page first). `maxBytes` may not exceed the requester's plan upload limit.
 */
export const requestRulesSchema = z.object({
  /** largest total of one visitor's upload, bytes */
  maxBytes: z.optional(z.number().check(z.int(), z.positive())),
  /** extensions a file must have, e.g. ['pdf', 'jpg']; absent or empty: any type */
  allowedTypes: z.optional(z.array(fileExtensionSchema).check(z.maxLength(REQUEST_TYPES_MAX))),
  /** most files in one visitor's upload */
  maxFiles: z.optional(z.number().check(z.int(), z.positive(), z.maximum(10_000))),
});
export type RequestRules = z.output<typeof requestRulesSchema>;

/** spec §3 requestSettings: the defaults a new request starts from (set on /dash/settings). */
export const requestSettingsSchema = z.object({
  /** the message a new request starts with */
  defaultMessage: z.optional(z.string().check(z.maxLength(REQUEST_MESSAGE_MAX))),
  /** days from creation to the due date a new request proposes; absent: no due date */
  defaultDueDays: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(365))),
  /** the rules a new request starts with */
  defaultRules: z.optional(requestRulesSchema),
  /** mail the requester when someone uploads (the bell always shows it) */
  emailOnUpload: z.optional(z.boolean()),
});
export type RequestSettings = z.output<typeof requestSettingsSchema>;
export const DEFAULT_REQUEST_SETTINGS: RequestSettings = { emailOnUpload: true };

/** POST /requests (JWT): a new request. */
export const createRequestSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'title_required'), z.maxLength(REQUEST_TITLE_MAX)),
  message: z._default(z.string().check(z.maxLength(REQUEST_MESSAGE_MAX)), ''),
  /** epoch ms; after it the request takes no uploads */
  dueDate: z.optional(z.number().check(z.int(), z.positive())),
  rules: z._default(requestRulesSchema, {}),
});
export type CreateRequestInput = z.input<typeof createRequestSchema>;

/** PATCH /requests/{id} (JWT, owner): close or reopen, or edit. `dueDate: null` removes it. */
export const updateRequestSchema = z.object({
  state: z.optional(z.enum(['open', 'closed'])),
  title: z.optional(z.string().check(z.trim(), z.minLength(1, 'title_required'), z.maxLength(REQUEST_TITLE_MAX))),
  message: z.optional(z.string().check(z.maxLength(REQUEST_MESSAGE_MAX))),
  dueDate: z.optional(z.nullable(z.number().check(z.int(), z.positive()))),
  rules: z.optional(requestRulesSchema),
});
export type UpdateRequestInput = z.input<typeof updateRequestSchema>;

/** GET /requests?userid= | ?slug= (spec §7): exactly one of them. */
export const listRequestsQuerySchema = z.union([
  z.object({ userid: z.string().check(z.minLength(1), z.maxLength(128)), slug: z.optional(z.undefined()) }),
  z.object({ slug: requestIdSchema, userid: z.optional(z.undefined()) }),
]);

/** `open`; `closed` by the requester; `expired` once the due date passed (reopening clears or moves it). */
export type RequestState = 'open' | 'closed' | 'expired';

export interface RequestSummary {
  readonly id: string;
  readonly title: string;
  readonly message: string;
  readonly dueDate: number | null;
  readonly rules: RequestRules;
  readonly state: RequestState;
  readonly createdAt: number;
  /** finished uploads */
  readonly uploadCount: number;
  readonly totalBytes: number;
  readonly lastUploadAt: number | null;
  /** the public page, `/r/{id}` on the requester's verified custom domain (the admin's for members), else the app's origin */
  readonly link: string;
}

export interface RequestUploadFile {
  readonly fileId: string;
  readonly fileName: string;
  readonly itemPath?: string;
  readonly size: number;
}

/** One visitor's finished upload to a request. */
export interface RequestUpload {
  /** the stored upload's id (a transfer slug): downloads go through POST /getDownload/file and POST /zip with it */
  readonly slug: string;
  readonly senderName: string;
  readonly senderEmail: string;
  readonly message: string;
  readonly uploadedAt: number;
  /** when the files are deleted */
  readonly expiryDate: number;
  readonly fileCount: number;
  readonly totalBytes: number;
  readonly files: readonly RequestUploadFile[];
}

export interface ListRequestsResponse {
  readonly requests: readonly RequestSummary[];
}

export interface RequestDetailResponse {
  readonly request: RequestSummary;
  readonly uploads: readonly RequestUpload[];
}

/** GET /r/{id} (public): only what the visitor's page needs. Closed or past due: 410 with the state. */
export interface PublicRequestResponse {
  readonly id: string;
  readonly title: string;
  readonly message: string;
  readonly requesterName: string;
  /** short-lived URL of the requester's logo, if they have one */
  readonly logoUrl: string | null;
  /** the requester's (storage owner's) branding, functions/domain/branding-api.ts */
  readonly branding: PublicBranding;
  readonly dueDate: number | null;
  readonly rules: RequestRules;
  /** the plan's per-upload limit when the request sets none, so the page can say it first */
  readonly maxBytes: number;
  readonly maxFiles: number;
}

/**
 * POST /r/{id}/uploads (public, `x-sender-token` of the visitor's verified address): starts an
 * upload. The answer is the transfer creation's (slug, upload token, files to upload); the
 * page then uses the same sign / parts / complete-file / complete routes as a send.
 */
export const startRequestUploadSchema = z.object({
  senderName: z.string().check(z.trim(), z.minLength(1, 'name_required'), z.maxLength(200)),
  senderEmail: emailSchema,
  message: z._default(z.string().check(z.maxLength(REQUEST_MESSAGE_MAX)), ''),
  fileObjects: z.array(fileEntrySchema).check(z.minLength(1, 'no_files'), z.maxLength(10_000)),
  lang: z.optional(z.string().check(z.maxLength(16))),
});
export type StartRequestUploadInput = z.input<typeof startRequestUploadSchema>;

/** Whether a file name passes a request's allowed types (no list: any). */
export function typeAllowed(fileName: string, allowedTypes: readonly string[] | undefined): boolean {
  if (!allowedTypes || allowedTypes.length === 0) return true;
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 || dot === fileName.length - 1) return false;
  return allowedTypes.includes(fileName.slice(dot + 1).toLowerCase());
}

/** The state a request shows at `now`. */
export function requestStateAt(
  r: { readonly closed: boolean; readonly dueDate: number | null },
  now: number,
): RequestState {
  if (r.closed) return 'closed';
  if (r.dueDate !== null && now >= r.dueDate) return 'expired';
  return 'open';
}

// ---- file requests (the routes, path params, codes and the bell's notice) ----------

/**
 * The routes (paths relative to /api):
 *
 *   POST   /requests                           (JWT) CreateRequestInput          -> 201 RequestSummary
 *   GET    /requests?userid=<caller's sub>     (JWT) the caller's requests       -> 200 ListRequestsResponse | 403 not_your_requests
 *   GET    /requests?slug=<request id>         (JWT) one of the caller's         -> 200 RequestDetailResponse | 404 request_not_found
 *   PATCH  /requests/{id}                      (JWT, owner) UpdateRequestInput   -> 200 RequestSummary | 404 request_not_found
 *   DELETE /requests/{id}/uploads/{slug}       (JWT, owner) one upload           -> 200 { deleted: true } | 404 upload_not_found
 *   GET    /r/{id}                             (public)                          -> 200 PublicRequestResponse | 404 request_not_found
 *                                                                                   | 410 request_closed / request_expired (details: RequestGoneDetails)
 *   POST   /r/{id}/uploads                     (public, x-sender-token) StartRequestUploadInput
 *                                                                                -> 201 CreateTransferResponse (then the transfer upload routes)
 *
 * POST /r/{id}/uploads refusals: 404 / 410 as GET /r/{id}; 403 sender_not_verified (no token, or
 * its address is not senderEmail); 400 request_too_many_files / request_too_large (details.limit),
 * request_file_type (details.fileName, details.allowedTypes), file_not_allowed (a problem of
 * `fileObjects.<i>`: the guest rules of spec §5, the visitor not being signed in); 400
 * rules_exceed_plan / due_date_past for POST and PATCH /requests; the requester's plan: 403
 * storage_full (details.allowance), revoked, past_due, unpaid (the limit screen's texts).
 * A request upload finishes with POST /transfers/{id}/complete like a send: no recipient mail; the
 * requester gets a bell notification (NotificationView.kind 'request-upload') and, unless
 * requestSettings.emailOnUpload is false, a mail.
 */
export const REQUEST_UPLOADS_PAGE = 200;

/**
 * Uploads one visitor may start a day (per verified address on one request, and per client
 * address over all requests): an unfinished upload holds the requester's storage until it is
 * cancelled or abandoned, so nobody may pile up reservations. Over it: 429 rate_limited.
 */
export const REQUEST_UPLOAD_LIMITS = { perAddressAndRequest: 20, perClient: 60, windowSeconds: 24 * 3600 } as const;

/** PATCH /requests/{id}, GET /r/{id}, POST /r/{id}/uploads */
export const requestIdParamsSchema = z.object({ id: requestIdSchema });
/** DELETE /requests/{id}/uploads/{slug}: `slug` is RequestUpload.slug (a 7-character transfer id). */
export const requestUploadParamsSchema = z.object({
  id: requestIdSchema,
  slug: z.string().check(z.regex(/^[A-Za-z0-9]{7}$/u, 'invalid_link')),
});

/** `details` of the 410 of a closed or past-due request: enough for the page to say whose and which. */
export interface RequestGoneDetails {
  readonly state: Exclude<RequestState, 'open'>;
  readonly title: string;
  readonly requesterName: string;
}

/**
 * What the bell shows for an upload to a request (NotificationView.request, with kind
 * 'request-upload'; the view's `slug` is the upload's, `dlDate` its time, `fileName` its first file).
 */
export interface RequestUploadNotice {
  readonly requestId: string;
  readonly requestTitle: string;
  readonly senderName: string;
  readonly senderEmail: string;
  readonly fileCount: number;
  readonly totalBytes: number;
}

/** The largest upload and file count a request accepts now: its rules within the plan's. */
export function effectiveLimits(
  rules: RequestRules,
  plan: { readonly uploadLimit: number; readonly files: number },
): { maxBytes: number; maxFiles: number } {
  return {
    maxBytes: Math.min(rules.maxBytes ?? plan.uploadLimit, plan.uploadLimit),
    maxFiles: Math.min(rules.maxFiles ?? plan.files, plan.files),
  };
}

/** Which of a request's rules the plan does not allow (maxBytes over the upload limit, maxFiles over the file count). */
export function rulesBeyondPlan(
  rules: RequestRules,
  plan: { readonly uploadLimit: number; readonly files: number },
): ('maxBytes' | 'maxFiles')[] {
  const out: ('maxBytes' | 'maxFiles')[] = [];
  if (rules.maxBytes !== undefined && rules.maxBytes > plan.uploadLimit) out.push('maxBytes');
  if (rules.maxFiles !== undefined && rules.maxFiles > plan.files) out.push('maxFiles');
  return out;
}
