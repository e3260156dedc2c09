/**
 * issue 17: what an API key may do, the length of its name and its rate limit (docs/api.md).
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

