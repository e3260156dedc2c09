/**
 * The transfer API's request headers (transfer-api.ts has the routes and shapes and re-exports
 * these): a module of their own, without zod, because the send form's calls need them on the
 * home page's first load, where transfer-api.ts's schemas would bring zod.
 */

/** Header carrying the guest sender token from /checkVerifyEmail. */
export const SENDER_TOKEN_HEADER = 'x-sender-token';
/** Header carrying the per-transfer upload token returned at creation. */
export const UPLOAD_TOKEN_HEADER = 'x-upload-token';
