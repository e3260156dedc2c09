/**
 * what an API key may do, the length of its name and its rate limit (docs/api.md).
 * Apart from functions/domain/api-keys.ts (which re-exports them) so the app's API keys and
 * /developers screens read them without zod.
 *
 * `send`: create transfers, upload them and delete them; `transfers:read`: list and read
 * transfers with their downloads; `requests`: create and list file requests; `webhooks`: manage
 * webhook endpoints. Billing, teams, account settings and the keys themselves are never
 * reachable with a key (their routes take the Cognito session only).
 */
export const API_SCOPES = ['send', 'transfers:read', 'requests', 'webhooks'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_KEY_NAME_MAX = 60;

/**
 * Requests per key per window: a fixed window counted by a conditional write (docs/api.md).
 * Over it the API answers 429 `rate_limited` with Retry-After.
 */
export const API_KEY_RATE_LIMIT = { requests: 120, windowSeconds: 60 } as const;
/**
 * The upload calls of a transfer already made (sign, record a part, upload state, complete a
 * file) count in their own window: a 1 GiB file is 205 parts and a large transfer up to
 * 10,000 per file, each bounded by the plan the transfer was created with, so the general
 * window would cap a key's upload at 120 parts a minute (10 MiB/s with 5 MiB parts).
 */
export const API_KEY_UPLOAD_RATE_LIMIT = { requests: 3000, windowSeconds: 60 } as const;
export type ApiKeyRateWindow = 'default' | 'upload';
