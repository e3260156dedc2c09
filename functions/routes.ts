/**
 * THE route table (data only). Read by `lib/` (one HTTP API route per entry, served by the
 * Lambda function of the route's group, see `FUNCTION_GROUPS`) and by the local gateway in
 * `scripts/local/gateway/` (the same grouping and dispatcher). Never import handlers from here.
 *
 * `path` is relative to the API prefix (`/api`): CloudFront sends `/api/*` to the HTTP API,
 * whose routes are `/api` + path; the local gateway serves the same paths.
 */

/** What a handler may touch; the CDK construct turns this into IAM grants and env. */
export type Access =
  | 'table:read'
  | 'table:write'
  | 'buckets:read'
  | 'buckets:write'
  | 'mail:send'
  | 'mail:read'
  | 'userpool:read'
  | 'userpool:admin'
  /** start the async jobs named in the route's `invokes` (Lambda InvokeFunction, JOB_FUNCTIONS env) */
  | 'jobs:invoke'
  /**
   * talk to the payments provider: env PAYMENTS and STRIPE_PRICES, and
   * `secretsmanager:GetSecretValue` on the one Stripe secret (STRIPE_SECRET_ID)
   */
  | 'payments'
  /** SESv2 Create/Get/DeleteEmailIdentity on the account's identities (users' sender domains) */
  | 'mail:identities'
  /**
   * create, read, disable and delete CloudFront distribution tenants of the one
   * multi-tenant distribution (env TENANT_DISTRIBUTION_ID, CONNECTION_GROUP_ID); jobs in the
   * WebStack only (`stack: 'web'`), where that distribution is
   */
  | 'cdn:tenants'
  /**
   * read and replace the CORS configuration of every region's transfers and anon
   * buckets (s3:GetBucketCORS, s3:PutBucketCORS; no object access): the verified custom hosts'
   * rule (services/bucket-cors.ts)
   */
  | 'buckets:cors'
  /**
   * publish product events (functions/services/events.ts): EventBridge PutEvents on
   * the deployment's bus (EVENT_BUS_NAME) and SQS SendMessage to the webhook delivery queue
   * (WEBHOOK_QUEUE_URL). Locally neither exists and the delivery job is started through the
   * local Invoke API; the outbox itself is in the table (table:write).
   */
  | 'events:publish'
  /**
   * the signed delivery receipts' key set (functions/services/receipts.ts): GetSecretValue and
   * PutSecretValue on the one receipt keys secret (RECEIPT_KEYS_SECRET_ID); the first user of
   * the secret stores its first key there. Locally a file in the stack's data dir.
   */
  | 'receipts';

/** what an API key may do (functions/domain/api-keys.ts API_SCOPES). */
export type ApiScope = 'send' | 'transfers:read' | 'requests' | 'webhooks';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  readonly method: HttpMethod;
  /** e.g. `/health`, `/transfers/{id}`, `/files/{proxy+}` */
  readonly path: string;
  /** module under `functions/`, without extension; it must export `handler` */
  readonly handler: string;
  /**
   * `jwt`: Cognito access token required (HTTP API JWT authorizer / local gateway), then the
   *   handler's session check reads its revocation marker (so such a route needs `table:read`).
   * `key` (the public API v1): an API key (`Authorization: Bearer sbk_…`) with the
   * route's `scope`, verified in the handler itself (services/api-keys.ts `keyRoute`): the HTTP
   * API and the local gateway pass these routes through without an authorizer, alike
   * (docs/decisions/ "API keys are checked in the handler").
   */
  readonly auth: 'none' | 'jwt' | 'key';
  /** with auth 'key', the scope the key must have */
  readonly scope?: ApiScope;
  readonly access: readonly Access[];
  /** Lambda timeout in seconds (default 10; API Gateway caps integrations at 30) */
  readonly timeoutSeconds?: number;
  readonly memoryMb?: number;
  /** with access 'jobs:invoke': the jobs this route may start */
  readonly invokes?: readonly string[];
}

/**
 * What a route touches and what proves the caller may touch it ("a route says what
 * it touches"). Every row of `routes` must declare it: the IDOR matrix
 * (test/integration/idor.test.ts) and the schema fuzzing (test/integration/fuzz.test.ts)
 * iterate the table, so a new route is covered on arrival. A (record, by) pair the IDOR test
 * does not know yet fails that test until it learns to build such a record and attack it.
 *
 * - `'public'`: names no one's record and answers anyone alike: `/health`, and the routes that
 *   start something whose secret goes only to the mailbox of the address given (guest code,
 *   registration code, reset link), with a neutral answer.
 * - `'self'`: only the signed-in caller's own records, found from the JWT's `sub` alone;
 *   nothing in the request can name another user's record (needs `auth: 'jwt'`, or `'key'`:
 *   the API key's user).
 * - `{ record, by }`: a record the request names (path id, body id, a token) and what proves
 *   the caller may touch it:
 *   - `owner`: the JWT's user (or on `auth: 'key'` routes the API key's user) is the record's
 *     owner; anyone else 403 / 404
 *   - `upload-token`: the `x-upload-token` header returned when that transfer was created
 *   - `link-password`: the public link id, plus the transfer's password when it has one
 *   - `link`: the public link id alone; the answer tells nothing about the transfer's content
 *   - `sender-token`: the `x-sender-token` header a guest earned with a mailed code
 *   - `mailed-code`: the 5-digit code mailed to the address in the body
 *   - `mailed-token`: the token of a mailed link (password reset, extension approval)
 *   - `proof-token`: the registration token a right mailed code earned (24 h)
 *   - `password`: the account's password
 *   - `refresh-cookie`: the session's httpOnly refresh cookie
 *
 * A new route picks an existing pair when it can; a new record or authority is added here
 * and taught to the IDOR test in the same change.
 */
export type Owns =
  | 'public'
  | 'self'
  | { readonly record: 'transfer'; readonly by: 'owner' | 'upload-token' | 'link-password' | 'link' }
  | { readonly record: 'guest-sender'; readonly by: 'mailed-code' | 'sender-token' }
  | { readonly record: 'registration'; readonly by: 'mailed-code' | 'proof-token' }
  | { readonly record: 'account'; readonly by: 'password' }
  | { readonly record: 'session'; readonly by: 'refresh-cookie' }
  | { readonly record: 'password-reset'; readonly by: 'mailed-token' }
  | { readonly record: 'extension'; readonly by: 'mailed-token' }
  /** a file request; `owner` its requester's JWT, `link` its public id (uploads add the visitor's sender token) */
  | { readonly record: 'request'; readonly by: 'owner' | 'link' }
  /** a payments checkout session or SetupIntent (by its client secret); `owner` the user it was made for */
  | { readonly record: 'checkout'; readonly by: 'owner' }
  /**
   * a payment provider's webhook event; `signature` the provider's signature over the
   * raw body with the webhook secret (`Stripe-Signature`, 300 s tolerance), nothing else
   */
  | { readonly record: 'payment-event'; readonly by: 'signature' }
  /**
   * a pending team invite; `owner` the inviting admin's JWT (the path names the
   * admin's own handle on it), `mailed-token` the token of the mailed link (`/invite/{token}`),
   * bound to the invited address
   */
  | { readonly record: 'team-invite'; readonly by: 'owner' | 'mailed-token' }
  /** a member of a team; `owner` the team admin's JWT */
  | { readonly record: 'team-member'; readonly by: 'owner' }
  /** an API key; `owner` the JWT of the user it belongs to (keys never manage keys) */
  | { readonly record: 'api-key'; readonly by: 'owner' }
  /**
   * a delivery named by a signed receipt; `signature` the receipt's JWS under one of the
   * deployment's receipt keys, checked before the delivery is read (a forged one reads nothing)
   */
  | { readonly record: 'receipt'; readonly by: 'signature' };

/** `'public'`, `'self'`, or `record:by` (e.g. `transfer:upload-token`): one cell kind of the IDOR matrix. */
export function ownsKindOf(owns: Owns): string {
  return typeof owns === 'string' ? owns : `${owns.record}:${owns.by}`;
}

/**
 * A row of the route table: a `RouteDef` that must also say what it touches. (Gateway and
 * CDK code take plain `RouteDef`s, so their test fixtures need no declaration.)
 */
export interface ApiRoute extends RouteDef {
  readonly owns: Owns;
}

export interface JobDef {
  readonly name: string;
  readonly handler: string;
  /**
   * EventBridge rate expression; the local gateway runs the job on the same period. Jobs
   * without a schedule are started on demand by routes (async invoke, see `invokes`).
   */
  readonly schedule?: `rate(${number} ${'minute' | 'minutes' | 'hour' | 'hours'})`;
  readonly access: readonly Access[];
  readonly timeoutSeconds?: number;
  readonly memoryMb?: number;
  /**
   * the stack the job's Lambda lives in (default the CoreStack). 'web': beside the
   * multi-tenant distribution it manages, which the CoreStack cannot reference (WebStack depends on it).
   */
  readonly stack?: 'core' | 'web';
  /**
   * the Lambda's architecture (default arm64). x86_64 for a job that ships a native
   * package built for linux-x64 (sharp's prebuilt binary, lib/lambda-bundles.ts NATIVE_PACKAGES).
   */
  readonly architecture?: 'arm64' | 'x86_64';
  /**
   * events that start the job in AWS. `guardduty-scan-results`: an EventBridge rule on
   * the home region's default bus for "GuardDuty Malware Protection Object Scan Result" events
   * (each storage region forwards its own; lib/storage-stack.ts). Locally such a job is started
   * by routes (`invokes`). `cloudtrail-get-object`: a rule on the same bus for the "AWS API Call
   * via CloudTrail" GetObject data events of the deployment's buckets (each storage region's
   * trail logs them, a rule forwards them); locally the s3rver child emits them.
   */
  readonly trigger?: 'guardduty-scan-results' | 'cloudtrail-get-object';
  /**
   * the job starts itself again (async invoke of its own function, the ARN from its context)
   * to go on past its timeout: work that resumes from what it recorded (the composed ZIP)
   */
  readonly continues?: true;
  /** with access 'jobs:invoke': the on-demand jobs this job may start */
  readonly invokes?: readonly string[];
}

export const API_PREFIX = '/api';

/**
 * The HTTP API's Lambda functions: each serves every route whose handler lives in one of its
 * directories (`http/<dir>/<name>`) and dispatches by route key (functions/lib/dispatch.ts).
 * Its IAM grants are the union of its routes' `access`; a directory belongs to exactly one
 * group. Why these groups and not one function per route: docs/decisions/ ("Grouped functions").
 */
export const FUNCTION_GROUPS = {
  /** health and the caller's claims */
  system: ['system'],
  /** registration, sign-in, sessions, password reset, guest sender codes */
  auth: ['auth', 'verify'],
  /** the signed-in user's profile, pictures, contacts, storage */
  me: ['me'],
  /** creating and uploading transfers */
  transfers: ['transfers'],
  /** the download page, files, ZIP, extensions */
  downloads: ['downloads'],
  /** the dashboard's notifications and analytics */
  insights: ['insights'],
  /** the dashboard's transfer list and TransferModal: reads, its actions on a sent transfer (forward, resend, remind, expiry, password), deleting a transfer */
  dashboard: ['dashboard'],
  /** file requests, the requester's screens and the public request page */
  requests: ['requests'],
  /** plans and billing, the payment provider's webhook, lifetime codes, the simulator's checkout screen */
  billing: ['billing'],
  /** teams (the admin's members and invites, the invite page and accepting it) */
  teams: ['teams'],
  /** domain settings, the custom link domain and the sender email domain */
  domains: ['domains'],
  /** reviews: recipients' comments, favourites and decisions behind the download gate; the sender's threads and settings */
  reviews: ['reviews'],
} as const satisfies Record<string, readonly string[]>;

export type FunctionGroup = keyof typeof FUNCTION_GROUPS;

export const routes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/health',
    handler: 'http/system/health',
    auth: 'none',
    owns: 'public',
    access: ['table:read', 'table:write', 'buckets:read', 'userpool:read', 'mail:read'],
  },
  // the public keys receipts are signed with (a JWKS; every kid ever used stays in it)
  {
    method: 'GET',
    path: '/receipts/keys',
    handler: 'http/system/receipt-keys',
    auth: 'none',
    owns: 'public',
    access: ['receipts'],
  },
  // the online check of a receipt: signed by this deployment, and its delivery still recorded as signed
  {
    method: 'POST',
    path: '/receipts/check',
    handler: 'http/system/receipt-check',
    auth: 'none',
    owns: { record: 'receipt', by: 'signature' },
    access: ['table:read', 'receipts'],
  },
  {
    method: 'GET',
    path: '/me/claims',
    handler: 'http/system/whoami',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },

  // Accounts and sessions (spec §4, §7; architecture §6)
  {
    method: 'POST',
    path: '/newsignupverify',
    handler: 'http/auth/signup-start',
    auth: 'none',
    owns: 'public',
    access: ['table:read', 'table:write', 'mail:send'],
  },
  {
    method: 'POST',
    path: '/newsignupverify/check',
    handler: 'http/auth/signup-check',
    auth: 'none',
    owns: { record: 'registration', by: 'mailed-code' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/signup2',
    handler: 'http/auth/signup',
    auth: 'none',
    owns: { record: 'registration', by: 'proof-token' },
    access: ['table:read', 'table:write', 'userpool:admin', 'buckets:read'],
    timeoutSeconds: 15,
  },
  {
    method: 'POST',
    path: '/combinedAuth',
    handler: 'http/auth/login',
    auth: 'none',
    owns: { record: 'account', by: 'password' },
    access: ['table:read', 'table:write', 'buckets:read'],
  },
  {
    method: 'GET',
    path: '/refreshToken',
    handler: 'http/auth/refresh',
    auth: 'none',
    owns: { record: 'session', by: 'refresh-cookie' },
    access: ['table:read', 'table:write', 'buckets:read'],
  },
  {
    method: 'GET',
    path: '/logout',
    handler: 'http/auth/logout',
    auth: 'none',
    owns: { record: 'session', by: 'refresh-cookie' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/resetPasswordLink',
    handler: 'http/auth/reset-link',
    auth: 'none',
    owns: 'public',
    access: ['table:read', 'table:write', 'mail:send'],
  },
  {
    method: 'POST',
    path: '/passTokenCheck',
    handler: 'http/auth/reset-check',
    auth: 'none',
    owns: { record: 'password-reset', by: 'mailed-token' },
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/resetPassword',
    handler: 'http/auth/reset',
    auth: 'none',
    owns: { record: 'password-reset', by: 'mailed-token' },
    access: ['table:read', 'table:write', 'userpool:admin'],
  },
  {
    method: 'GET',
    path: '/me',
    handler: 'http/me/me',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'buckets:read'],
  },
  {
    method: 'POST',
    path: '/v1/updateProfile',
    handler: 'http/me/update-profile',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
  },
  {
    method: 'POST',
    path: '/me/images',
    handler: 'http/me/images',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'buckets:write'],
  },
  {
    method: 'POST',
    path: '/folderSize',
    handler: 'http/me/folder-size',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/quicksend2',
    handler: 'http/me/contacts',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/feedback',
    handler: 'http/me/feedback',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },

  // Guest sender verification (spec §4)
  {
    method: 'POST',
    path: '/verifyEmail',
    handler: 'http/verify/send-code',
    auth: 'none',
    owns: 'public',
    access: ['table:read', 'table:write', 'mail:send'],
  },
  {
    method: 'POST',
    path: '/checkVerifyEmail',
    handler: 'http/verify/check-code',
    auth: 'none',
    owns: { record: 'guest-sender', by: 'mailed-code' },
    access: ['table:read', 'table:write'],
  },

  // Sending (architecture §3 steps 1-3)
  {
    method: 'POST',
    path: '/transfers',
    handler: 'http/transfers/create-guest',
    auth: 'none',
    owns: { record: 'guest-sender', by: 'sender-token' },
    // an email send may mail its recipients at creation (sent while uploading)
    access: ['table:read', 'table:write', 'buckets:write', 'mail:send'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/me/transfers',
    handler: 'http/transfers/create',
    auth: 'jwt',
    owns: 'self',
    // an email send may mail its recipients at creation (sent while uploading)
    access: ['table:read', 'table:write', 'buckets:write', 'mail:send'],
    timeoutSeconds: 29,
  },
  {
    method: 'PATCH',
    path: '/transfers/addFiles',
    handler: 'http/transfers/add-files',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:write'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/transfers/{id}/sign',
    handler: 'http/transfers/sign',
    auth: 'none',
    owns: { record: 'transfer', by: 'upload-token' },
    access: ['table:read', 'buckets:write'],
  },
  {
    method: 'POST',
    path: '/transfers/{id}/parts',
    handler: 'http/transfers/record-part',
    auth: 'none',
    owns: { record: 'transfer', by: 'upload-token' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'GET',
    path: '/transfers/{id}/upload-state',
    handler: 'http/transfers/upload-state',
    auth: 'none',
    owns: { record: 'transfer', by: 'upload-token' },
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/transfers/{id}/files/{fileId}/complete',
    handler: 'http/transfers/complete-file',
    auth: 'none',
    owns: { record: 'transfer', by: 'upload-token' },
    // locally the malware scan runs here (inline, or the malware-scan job for large files);
    // an infected file is quarantined, its sender mailed and `transfer.scan_failed` published.
    // Files over 100 MiB are put together by the complete-upload job (202 `completing`).
    access: [
      'table:read',
      'table:write',
      'buckets:read',
      'buckets:write',
      'mail:send',
      'events:publish',
      'jobs:invoke',
    ],
    // and every completed file's SHA-256 is computed by the digest job
    invokes: ['malware-scan', 'complete-upload', 'digest'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/transfers/{id}/complete',
    handler: 'http/transfers/complete',
    auth: 'none',
    owns: { record: 'transfer', by: 'upload-token' },
    // 202 `completing` while files are still put together; starts a completion whose job died again
    access: ['table:read', 'table:write', 'mail:send', 'events:publish', 'jobs:invoke'],
    invokes: ['complete-upload'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/transfers/{id}/cancel',
    handler: 'http/transfers/cancel',
    auth: 'none',
    owns: { record: 'transfer', by: 'upload-token' },
    // a transfer shared while uploading: its recipients and those waiting are told it was withdrawn
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write', 'mail:send'],
    timeoutSeconds: 29,
  },
  {
    method: 'DELETE',
    path: '/transfers/{id}',
    handler: 'http/transfers/delete',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 29,
  },

  // TransferModal actions (contract: functions/domain/dashboard-api.ts)
  {
    method: 'POST',
    path: '/transfers/forward',
    handler: 'http/dashboard/forward',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write', 'mail:send'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/transfers/emailSend',
    handler: 'http/dashboard/email-send',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'mail:send'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/transfers/remind',
    handler: 'http/dashboard/remind',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'mail:send'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/transfers/expiry',
    handler: 'http/dashboard/change-expiry',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/transfers/password',
    handler: 'http/dashboard/change-password',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  // the access list of a transfer with verified recipients (services/access-list.ts): read it, switch verification, add (mailed), remove / revoke / restore / expiry
  {
    method: 'POST',
    path: '/transfers/access',
    handler: 'http/dashboard/access-list',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/transfers/access/settings',
    handler: 'http/dashboard/access-settings',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/transfers/access/add',
    handler: 'http/dashboard/access-add',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'mail:send'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/transfers/access/recipient',
    handler: 'http/dashboard/access-change',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  // the TransferModal's previews (sender, admin, or a team mate it is shared with: read only)
  {
    method: 'GET',
    path: '/transfers/{id}/previews',
    handler: 'http/transfers/previews',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:read', 'jobs:invoke'],
    invokes: ['thumbnails'],
  },

  // the TransferModal's delivery rows and each one's signed receipt (sender or team admin, as every modal action)
  {
    method: 'GET',
    path: '/transfers/{id}/deliveries',
    handler: 'http/dashboard/deliveries',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read'],
  },
  {
    method: 'GET',
    path: '/transfers/{id}/deliveries/{deliveryId}/receipt',
    handler: 'http/dashboard/receipt',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'receipts'],
  },

  // the TransferModal's download limits: the transfer's and each recipient's (1-100 whole downloads)
  {
    method: 'GET',
    path: '/transfers/{id}/download-limit',
    handler: 'http/dashboard/get-download-limit',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read'],
  },
  {
    method: 'PATCH',
    path: '/transfers/{id}/download-limit',
    handler: 'http/dashboard/download-limit',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },

  // Dashboard (spec §7 getQs, deleteTransfer)
  {
    method: 'GET',
    path: '/getQs',
    handler: 'http/dashboard/get-qs',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/deleteTransfer',
    handler: 'http/dashboard/delete-transfer',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 29,
  },

  // Receiving (architecture §3 steps 4-6)
  {
    method: 'POST',
    path: '/getDownload',
    handler: 'http/downloads/get-download',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/getDownload/file',
    handler: 'http/downloads/get-file',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write', 'buckets:read', 'mail:send', 'events:publish'],
  },
  // each file's path, size and SHA-256 (null while the digest job computes it; starts the digests not running)
  {
    method: 'POST',
    path: '/getDownload/manifest',
    handler: 'http/downloads/manifest',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write', 'jobs:invoke'],
    invokes: ['digest'],
  },
  // previews (inline 600 s URLs, thumbnails made once by the thumbnails job); the download page's gate, nothing recorded
  {
    method: 'POST',
    path: '/getDownload/previews',
    handler: 'http/downloads/previews',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write', 'buckets:read', 'jobs:invoke'],
    invokes: ['thumbnails'],
  },
  {
    method: 'POST',
    path: '/zip',
    handler: 'http/downloads/zip',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write', 'buckets:read', 'mail:send', 'jobs:invoke', 'events:publish'],
    invokes: ['zip-build'],
  },
  // 'Report this transfer' (the link alone; the answer tells nothing about the transfer), rate-limited per client and transfer
  {
    method: 'POST',
    path: '/getDownload/report',
    handler: 'http/downloads/report',
    auth: 'none',
    owns: { record: 'transfer', by: 'link' },
    access: ['table:read', 'table:write', 'mail:send'],
  },
  // "Mail me when it's complete" on a transfer shared while uploading: the download page's gate, rate-limited, one mail per address
  {
    method: 'POST',
    path: '/getDownload/notify',
    handler: 'http/downloads/notify',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write'],
  },
  // verified recipients (services/recipient-access.ts): the link's gate (password too), then a code mailed to an allowed address, rate-limited like the other code flows
  {
    method: 'POST',
    path: '/getDownload/access/code',
    handler: 'http/downloads/access-code',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write', 'mail:send'],
  },
  // a right code: a session token scoped to the transfer and address, checked against the live list on every download call
  {
    method: 'POST',
    path: '/getDownload/access/verify',
    handler: 'http/downloads/access-verify',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write'],
  },
  // Reviews (docs/decisions/0079): recipients behind the download page's gate (an expired transfer's review stays readable)
  {
    method: 'POST',
    path: '/getDownload/review',
    handler: 'http/reviews/review',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write'],
  },
  // a code mailed to any address (on a transfer with verified recipients, to an allowed one), rate-limited like the other code flows
  {
    method: 'POST',
    path: '/getDownload/review/code',
    handler: 'http/reviews/code',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write', 'mail:send'],
  },
  // a right code: the same recipient session as /getDownload/access/verify
  {
    method: 'POST',
    path: '/getDownload/review/verify',
    handler: 'http/reviews/verify',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write'],
  },
  // writes by a verified address or a visitor's typed name, rate-limited; each tells the sender (bell, webhook, queued mail)
  {
    method: 'POST',
    path: '/getDownload/review/comment',
    handler: 'http/reviews/comment',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write', 'events:publish'],
  },
  {
    method: 'POST',
    path: '/getDownload/review/favourite',
    handler: 'http/reviews/favourite',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/getDownload/review/decision',
    handler: 'http/reviews/decision',
    auth: 'none',
    owns: { record: 'transfer', by: 'link-password' },
    access: ['table:read', 'table:write', 'events:publish'],
  },
  // the sender's side: every thread, decision and favourite; read only after expiry
  {
    method: 'GET',
    path: '/transfers/{id}/review',
    handler: 'http/reviews/sender-get',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read'],
  },
  {
    method: 'PATCH',
    path: '/transfers/{id}/review',
    handler: 'http/reviews/sender-settings',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/transfers/{id}/review/comments',
    handler: 'http/reviews/sender-comment',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/transfers/{id}/review/threads/{commentId}',
    handler: 'http/reviews/sender-resolve',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/transfers/{id}/review/read',
    handler: 'http/reviews/sender-read',
    auth: 'jwt',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/extension/request',
    handler: 'http/downloads/request-extension',
    auth: 'none',
    owns: { record: 'transfer', by: 'link' },
    access: ['table:read', 'table:write', 'mail:send'],
  },
  {
    method: 'POST',
    path: '/checkExtension',
    handler: 'http/downloads/check-extension',
    auth: 'none',
    owns: { record: 'extension', by: 'mailed-token' },
    access: ['table:read', 'table:write', 'mail:send'],
  },

  // Notifications and analytics of the dashboard (spec §2, §7): only the caller's own records
  {
    method: 'POST',
    path: '/notifications',
    handler: 'http/insights/notifications',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/notifications/read',
    handler: 'http/insights/read-notification',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/deleteNotification',
    handler: 'http/insights/delete-notification',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  },
  {
    method: 'GET',
    path: '/analytics',
    handler: 'http/insights/analytics',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  {
    method: 'GET',
    path: '/analytics/downloads',
    handler: 'http/insights/download-rows',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },

  // ---- file requests (contract: functions/domain/requests-api.ts) ----
  {
    method: 'POST',
    path: '/requests',
    handler: 'http/requests/create',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'GET',
    path: '/requests',
    handler: 'http/requests/list',
    auth: 'jwt',
    owns: { record: 'request', by: 'owner' },
    access: ['table:read'],
  },
  {
    method: 'PATCH',
    path: '/requests/{id}',
    handler: 'http/requests/update',
    auth: 'jwt',
    owns: { record: 'request', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'DELETE',
    path: '/requests/{id}/uploads/{slug}',
    handler: 'http/requests/delete-upload',
    auth: 'jwt',
    owns: { record: 'request', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 29,
  },
  {
    method: 'GET',
    path: '/r/{id}',
    handler: 'http/requests/public',
    auth: 'none',
    owns: { record: 'request', by: 'link' },
    access: ['table:read', 'buckets:read'],
  },
  {
    method: 'POST',
    path: '/r/{id}/uploads',
    handler: 'http/requests/start-upload',
    auth: 'none',
    owns: { record: 'request', by: 'link' },
    access: ['table:read', 'table:write', 'buckets:write'],
    timeoutSeconds: 29,
  },

  // What's new (spec §7 GET /canny/changelog): our own changelog, public
  {
    method: 'GET',
    path: '/canny/changelog',
    handler: 'http/system/changelog',
    auth: 'none',
    owns: 'public',
    access: [],
  },

  // Contacts (spec §2 /dash/contacts, §3 Contact, §5; contract: functions/domain/contacts-api.ts).
  // 'self': a contact is found by the JWT's sub and an address, so no request can name another user's.
  {
    method: 'GET',
    path: '/contacts',
    handler: 'http/me/contacts-list',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/contacts',
    handler: 'http/me/contacts-add',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'PATCH',
    path: '/contacts',
    handler: 'http/me/contacts-edit',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/contacts/remove',
    handler: 'http/me/contacts-remove',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/contacts/import',
    handler: 'http/me/contacts-import',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  },
  {
    method: 'GET',
    path: '/contacts/export',
    handler: 'http/me/contacts-export',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  // ---- Storage regions and data residency (contract: functions/domain/settings-api.ts) ----
  // The picker's region list with presigned HEAD URLs of each served region's speed-test object.
  {
    method: 'GET',
    path: '/regions',
    handler: 'http/system/regions',
    auth: 'none',
    owns: 'public',
    access: ['buckets:read'],
  },
  // spec §7 PATCH /settings/region {userid, region}: the body's userid must be the JWT's, so only the caller's own profile changes.
  {
    method: 'PATCH',
    path: '/settings/region',
    handler: 'http/me/region',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },

  // ---- the payments simulator's checkout screen (contract: functions/domain/billing-api.ts); 404 when PAYMENTS=stripe ----
  {
    method: 'GET',
    path: '/payments/simulated/checkout',
    handler: 'http/billing/simulated-checkout-view',
    auth: 'jwt',
    owns: { record: 'checkout', by: 'owner' },
    access: ['table:read', 'payments'],
  },
  {
    method: 'POST',
    path: '/payments/simulated/checkout',
    handler: 'http/billing/simulated-checkout',
    auth: 'jwt',
    owns: { record: 'checkout', by: 'owner' },
    access: ['table:read', 'table:write', 'payments'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/payments/simulated/setup',
    handler: 'http/billing/simulated-setup',
    auth: 'jwt',
    owns: { record: 'checkout', by: 'owner' },
    access: ['table:read', 'table:write', 'payments'],
  },

  // ---- plans and billing (contract: functions/domain/billing-api.ts) ----
  // 'self': the caller's subscription is found from the JWT's sub; ids in a body (mongo_id, SSuserId,
  // stripeCustomerId, customer_email) must be the caller's own (403 not_your_account).
  {
    method: 'GET',
    path: '/billing/config',
    handler: 'http/billing/config',
    auth: 'none',
    owns: 'public',
    access: ['payments'],
  },
  {
    method: 'POST',
    path: '/stripe/createSubscription',
    handler: 'http/billing/create-checkout',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'payments'],
  },
  {
    method: 'GET',
    path: '/getStripeData',
    handler: 'http/billing/stripe-data',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'payments'],
  },
  {
    method: 'POST',
    path: '/billing/setup-intent',
    handler: 'http/billing/setup-intent',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'payments'],
  },
  {
    method: 'POST',
    path: '/addCard',
    handler: 'http/billing/add-card',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'payments'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/create-subscription',
    handler: 'http/billing/change-plan',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'payments'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/billing/cancel',
    handler: 'http/billing/cancel',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'payments'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/billing/refund',
    handler: 'http/billing/refund',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'payments'],
    timeoutSeconds: 29,
  },
  {
    method: 'GET',
    path: '/billing/invoices',
    handler: 'http/billing/invoices',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'payments'],
  },
  // The provider's events: no JWT, the signature over the raw body is the proof (functions/services/billing.ts handleWebhook).
  {
    method: 'POST',
    path: '/stripe/webhook',
    handler: 'http/billing/webhook',
    auth: 'none',
    owns: { record: 'payment-event', by: 'signature' },
    access: ['table:read', 'table:write', 'mail:send', 'payments'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/appsumo/redeem',
    handler: 'http/billing/redeem',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },

  // ---- teams and sharing (contract: functions/domain/teams-api.ts) ----
  // Members are refused the admin's routes (403 team_member_forbidden); GET /teams shows a member the team mates to share with.
  {
    method: 'GET',
    path: '/teams',
    handler: 'http/teams/list',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'buckets:read'],
  },
  {
    method: 'POST',
    path: '/teams/invites',
    handler: 'http/teams/invite',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'mail:send'],
  },
  {
    method: 'POST',
    path: '/teams/invites/{id}/resend',
    handler: 'http/teams/resend',
    auth: 'jwt',
    owns: { record: 'team-invite', by: 'owner' },
    access: ['table:read', 'table:write', 'mail:send'],
  },
  {
    method: 'DELETE',
    path: '/teams/invites/{id}',
    handler: 'http/teams/revoke',
    auth: 'jwt',
    owns: { record: 'team-invite', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'DELETE',
    path: '/teams/members/{id}',
    handler: 'http/teams/remove-member',
    auth: 'jwt',
    owns: { record: 'team-member', by: 'owner' },
    access: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  },
  {
    method: 'GET',
    path: '/invite/{id}',
    handler: 'http/teams/invite-info',
    auth: 'none',
    owns: { record: 'team-invite', by: 'mailed-token' },
    access: ['table:read'],
  },
  {
    method: 'PATCH',
    path: '/v1/teams',
    handler: 'http/teams/accept',
    auth: 'none',
    owns: { record: 'team-invite', by: 'mailed-token' },
    access: ['table:read', 'table:write', 'userpool:admin', 'buckets:read'],
    timeoutSeconds: 15,
  },

  // ---- custom domains and sender email domains (contract: functions/domain/domains-api.ts) ----
  // 'self': the caller's domains are found from the JWT's sub alone; no request names another user's.
  { method: 'GET', path: '/domains', handler: 'http/domains/get', auth: 'jwt', owns: 'self', access: ['table:read'] },
  {
    method: 'PUT',
    path: '/domains/custom',
    handler: 'http/domains/set-custom',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/domains/custom/check',
    handler: 'http/domains/check-custom',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'DELETE',
    path: '/domains/custom',
    handler: 'http/domains/remove-custom',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'PUT',
    path: '/domains/email',
    handler: 'http/domains/set-email',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'mail:identities'],
  },
  {
    method: 'POST',
    path: '/domains/email/check',
    handler: 'http/domains/check-email',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'mail:identities'],
  },
  {
    method: 'DELETE',
    path: '/domains/email',
    handler: 'http/domains/remove-email',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'mail:identities'],
  },

  // ---- API keys (contract: functions/domain/api-keys.ts): the Cognito session only, never a key ----
  {
    method: 'GET',
    path: '/me/api-keys',
    handler: 'http/me/api-keys-list',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/me/api-keys',
    handler: 'http/me/api-keys-create',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'DELETE',
    path: '/me/api-keys/{id}',
    handler: 'http/me/api-keys-revoke',
    auth: 'jwt',
    owns: { record: 'api-key', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  // The team admin lets members use keys (default off); members are refused (403 team_member_forbidden).
  {
    method: 'PUT',
    path: '/teams/api-keys',
    handler: 'http/teams/api-keys-setting',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },

  // ---- the public API v1 (contract: functions/domain/public-api.ts; docs/api.md) ----
  // The same services as the app's routes, in the same function groups; the key's user is the caller.
  { method: 'GET', path: '/v1/openapi.json', handler: 'http/system/openapi', auth: 'none', owns: 'public', access: [] },
  {
    method: 'POST',
    path: '/v1/transfers',
    handler: 'http/transfers/v1-create',
    auth: 'key',
    scope: 'send',
    owns: 'self',
    // an email send may mail its recipients at creation (sent while uploading)
    access: ['table:read', 'table:write', 'buckets:write', 'mail:send'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/v1/transfers/{id}/sign',
    handler: 'http/transfers/v1-sign',
    auth: 'key',
    scope: 'send',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:write'],
  },
  {
    method: 'POST',
    path: '/v1/transfers/{id}/parts',
    handler: 'http/transfers/v1-record-part',
    auth: 'key',
    scope: 'send',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'GET',
    path: '/v1/transfers/{id}/upload-state',
    handler: 'http/transfers/v1-upload-state',
    auth: 'key',
    scope: 'send',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/v1/transfers/{id}/files/{fileId}/complete',
    handler: 'http/transfers/v1-complete-file',
    auth: 'key',
    scope: 'send',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write', 'jobs:invoke'],
    invokes: ['complete-upload', 'digest'],
    timeoutSeconds: 29,
  },
  {
    method: 'POST',
    path: '/v1/transfers/{id}/complete',
    handler: 'http/transfers/v1-complete',
    auth: 'key',
    scope: 'send',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'mail:send', 'jobs:invoke'],
    invokes: ['complete-upload'],
    timeoutSeconds: 29,
  },
  {
    method: 'DELETE',
    path: '/v1/transfers/{id}',
    handler: 'http/transfers/v1-delete',
    auth: 'key',
    scope: 'send',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 29,
  },
  {
    method: 'GET',
    path: '/v1/transfers',
    handler: 'http/dashboard/v1-list',
    auth: 'key',
    scope: 'transfers:read',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'GET',
    path: '/v1/transfers/{id}',
    handler: 'http/dashboard/v1-get',
    auth: 'key',
    scope: 'transfers:read',
    owns: { record: 'transfer', by: 'owner' },
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/v1/requests',
    handler: 'http/requests/v1-create',
    auth: 'key',
    scope: 'requests',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'GET',
    path: '/v1/requests',
    handler: 'http/requests/v1-list',
    auth: 'key',
    scope: 'requests',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },

  // ---- branding (contract: functions/domain/branding-api.ts) ----
  // 'self': the caller's own (or, read-only, their admin's) branding, found from the JWT's sub; image keys must be under the caller's prefix.
  {
    method: 'GET',
    path: '/branding/me',
    handler: 'http/me/branding-get',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'buckets:read'],
  },
  {
    method: 'PATCH',
    path: '/branding/me',
    handler: 'http/me/branding-update',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 15,
  },
  {
    method: 'POST',
    path: '/branding/images',
    handler: 'http/me/branding-image',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'buckets:write'],
  },
  // The login page of a custom host: answers alike for every unknown, pending or failed host (404), and only logo, colours and company name.
  {
    method: 'GET',
    path: '/branding',
    handler: 'http/system/host-branding',
    auth: 'none',
    owns: 'public',
    access: ['table:read', 'buckets:read'],
  },

  // ---- webhooks (contract: functions/domain/webhooks-api.ts) ----
  // 'self': endpoints live under the JWT's user (pk USER#<sub>, sk WEBHOOK#<id>), so an id in the path
  // names only the caller's own (a foreign id is simply not found); a delivery is served only when its
  // endpoint is the caller's. The `me` group: the signed-in user's own account settings.
  {
    method: 'GET',
    path: '/webhooks',
    handler: 'http/me/webhooks-list',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/webhooks',
    handler: 'http/me/webhooks-create',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'PUT',
    path: '/webhook-settings',
    handler: 'http/me/webhooks-settings',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'PATCH',
    path: '/webhooks/{id}',
    handler: 'http/me/webhooks-update',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'DELETE',
    path: '/webhooks/{id}',
    handler: 'http/me/webhooks-delete',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/rotate',
    handler: 'http/me/webhooks-rotate',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'GET',
    path: '/webhooks/{id}/deliveries',
    handler: 'http/me/webhooks-deliveries',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read'],
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    handler: 'http/me/webhooks-redeliver',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'events:publish'],
  },
  {
    method: 'POST',
    path: '/webhooks/{id}/test',
    handler: 'http/me/webhooks-test',
    auth: 'jwt',
    owns: 'self',
    access: ['table:read', 'table:write', 'events:publish'],
  },
  // The same operations with an API key of the `webhooks` scope (http/me/webhook-ops.ts): 'self' as above, the key's user
  // alone chooses the endpoints. Not the member setting (PUT /webhook-settings): that is team administration.
  {
    method: 'GET',
    path: '/v1/webhooks',
    handler: 'http/me/v1-webhooks-list',
    auth: 'key',
    scope: 'webhooks',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/v1/webhooks',
    handler: 'http/me/v1-webhooks-create',
    auth: 'key',
    scope: 'webhooks',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'PATCH',
    path: '/v1/webhooks/{id}',
    handler: 'http/me/v1-webhooks-update',
    auth: 'key',
    scope: 'webhooks',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'DELETE',
    path: '/v1/webhooks/{id}',
    handler: 'http/me/v1-webhooks-delete',
    auth: 'key',
    scope: 'webhooks',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate',
    handler: 'http/me/v1-webhooks-rotate',
    auth: 'key',
    scope: 'webhooks',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    handler: 'http/me/v1-webhooks-deliveries',
    auth: 'key',
    scope: 'webhooks',
    owns: 'self',
    access: ['table:read', 'table:write'],
  },
  {
    method: 'POST',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    handler: 'http/me/v1-webhooks-redeliver',
    auth: 'key',
    scope: 'webhooks',
    owns: 'self',
    access: ['table:read', 'table:write', 'events:publish'],
  },
  {
    method: 'POST',
    path: '/v1/webhooks/{id}/test',
    handler: 'http/me/v1-webhooks-test',
    auth: 'key',
    scope: 'webhooks',
    owns: 'self',
    access: ['table:read', 'table:write', 'events:publish'],
  },
];

export const jobs: readonly JobDef[] = [
  {
    name: 'heartbeat',
    handler: 'jobs/heartbeat',
    schedule: 'rate(5 minutes)',
    access: ['table:write'],
  },
  {
    name: 'expiry-sweep',
    handler: 'jobs/expiry-sweep',
    schedule: 'rate(15 minutes)',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write', 'events:publish', 'jobs:invoke'],
    // an abandoned live transfer's withdrawn mail goes through the job that has the templates
    invokes: ['complete-upload'],
    timeoutSeconds: 300,
  },
  {
    // Started by the complete routes for multipart files too large to put together within a
    // request (over 100 MiB): CompleteMultipartUpload with S3's long timeout, then the file is
    // marked uploaded and, when asked for, the transfer is sent (services/completion.ts). On its
    // schedule it starts again, each in a run of its own, the claims whose run died.
    name: 'complete-upload',
    handler: 'jobs/complete-upload',
    schedule: 'rate(5 minutes)',
    access: [
      'table:read',
      'table:write',
      'buckets:read',
      'buckets:write',
      'mail:send',
      'events:publish',
      'jobs:invoke',
    ],
    invokes: ['digest'],
    continues: true,
    timeoutSeconds: 900,
  },
  {
    // Started when a file completes: its SHA-256 for the download manifest, read from S3 in
    // order; a file too large for one run goes on in the next from the saved hash state
    // (services/digest.ts, docs/decisions/0073).
    name: 'digest',
    handler: 'jobs/digest',
    access: ['table:read', 'table:write', 'buckets:read'],
    continues: true,
    timeoutSeconds: 900,
    memoryMb: 1024,
  },
  {
    // Started by POST /zip; streams S3 -> ZIP -> S3 multipart, so memory stays flat at any size.
    name: 'zip-build',
    handler: 'jobs/zip-build',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    continues: true,
    timeoutSeconds: 900,
    memoryMb: 512,
  },
  {
    // started by the previews routes; sharp makes each image's thumbnail once, stored beside it.
    // x86_64: sharp's native binary is shipped from the installed @img/sharp-linux-x64 (lib/lambda-bundles.ts).
    name: 'thumbnails',
    handler: 'jobs/thumbnails',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write'],
    timeoutSeconds: 300,
    memoryMb: 1536,
    architecture: 'x86_64',
  },
  {
    // Copies the forwards too large to copy within their request (queued by POST /transfers/forward).
    name: 'forward-copy',
    handler: 'jobs/forward-copy',
    schedule: 'rate(1 minute)',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write', 'mail:send'],
    timeoutSeconds: 900,
  },
  {
    // Mails recipients who have not downloaded, 24 h before expiry, once each (services/reminders.ts).
    name: 'expiry-reminders',
    handler: 'jobs/expiry-reminders',
    schedule: 'rate(15 minutes)',
    access: ['table:read', 'table:write', 'mail:send'],
    timeoutSeconds: 300,
  },
  {
    // DNS checks of pending custom domains, each on its own backoff (services/domains.ts).
    name: 'custom-domains',
    handler: 'jobs/custom-domains',
    schedule: 'rate(15 minutes)',
    access: ['table:read', 'table:write'],
    timeoutSeconds: 300,
  },
  {
    // CloudFront distribution tenants of verified (and released) custom domains, and
    // the buckets' CORS rule for the hosts served.
    name: 'domain-tenants',
    handler: 'jobs/domain-tenants',
    schedule: 'rate(5 minutes)',
    access: ['table:read', 'table:write', 'cdn:tenants', 'buckets:cors'],
    timeoutSeconds: 120,
    stack: 'web',
  },
  {
    // webhook deliveries. In AWS it also consumes the delivery queue (SQS, with a
    // dead-letter queue; lib/core-stack.ts); the schedule sends every due retry and whatever a
    // failed hand-off left in the outbox (services/webhooks.ts).
    name: 'webhook-deliver',
    handler: 'jobs/webhook-deliver',
    schedule: 'rate(1 minute)',
    access: ['table:read', 'table:write', 'events:publish'],
    timeoutSeconds: 60,
  },
  {
    // The sender's review mail: at most one per transfer per 10 minutes, holding everything since
    // the last one (services/review-mail.ts; the due markers are a sparse gsi2 partition).
    name: 'review-mail',
    handler: 'jobs/review-mail',
    schedule: 'rate(1 minute)',
    access: ['table:read', 'table:write', 'mail:send'],
    timeoutSeconds: 120,
  },
  {
    // malware scan results. In AWS GuardDuty Malware Protection for S3 scans each new
    // transfer file and this job consumes its result events (quarantine, notify, scan_failed);
    // locally it scans the files too large to scan inside their completion (services/malware-scan.ts).
    name: 'malware-scan',
    handler: 'jobs/malware-scan',
    trigger: 'guardduty-scan-results',
    access: ['table:read', 'table:write', 'buckets:read', 'buckets:write', 'mail:send', 'events:publish'],
    timeoutSeconds: 300,
  },
  {
    // Each GetObject served under a download URL (CloudTrail data events of every storage region,
    // forwarded to the home region; locally the s3rver child's same events): bytes served per
    // grant, and a delivery once they cover the object (services/deliveries.ts). No bucket access:
    // the event says what was served.
    name: 'deliveries',
    handler: 'jobs/deliveries',
    trigger: 'cloudtrail-get-object',
    // receipts: the transfer.delivered event carries the delivery's signed receipt
    access: ['table:read', 'table:write', 'mail:send', 'events:publish', 'receipts'],
    timeoutSeconds: 60,
  },
];

/** API Gateway's route key of a route, as the v2 event's `routeKey` carries it. */
export function routeKeyOf(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${API_PREFIX}${route.path}`;
}

/** The directory a handler module lives in: `http/auth/login` -> `auth`. */
export function handlerDirOf(handler: string): string {
  const [kind, dir] = handler.split('/');
  if (kind !== 'http' || !dir) throw new Error(`route handler ${handler} is not under functions/http/<dir>/`);
  return dir;
}

/** The function group that serves a route (throws for a directory no group names). */
export function functionGroupOf(route: Pick<RouteDef, 'handler'>): FunctionGroup {
  const dir = handlerDirOf(route.handler);
  for (const [group, dirs] of Object.entries(FUNCTION_GROUPS) as [FunctionGroup, readonly string[]][]) {
    if (dirs.includes(dir)) return group;
  }
  throw new Error(`functions/http/${dir}/ belongs to no group of FUNCTION_GROUPS (functions/routes.ts)`);
}

/** One HTTP API Lambda function: its routes and what they need together. */
export interface FunctionDef {
  readonly name: FunctionGroup;
  readonly routes: readonly RouteDef[];
  /** union of the routes' access */
  readonly access: readonly Access[];
  /** union of the routes' invokes */
  readonly invokes: readonly string[];
  /** the longest route timeout (seconds) */
  readonly timeoutSeconds: number;
  readonly memoryMb: number | undefined;
}

export const DEFAULT_ROUTE_TIMEOUT_SECONDS = 10;

/** The route table grouped into functions (groups without routes are left out). */
export function functionsOf(table: readonly RouteDef[] = routes): FunctionDef[] {
  const byGroup = new Map<FunctionGroup, RouteDef[]>();
  for (const route of table) {
    const group = functionGroupOf(route);
    byGroup.set(group, [...(byGroup.get(group) ?? []), route]);
  }
  return [...byGroup].map(([name, defs]) => {
    const memory = defs.map((d) => d.memoryMb).filter((m): m is number => m !== undefined);
    return {
      name,
      routes: defs,
      access: [...new Set(defs.flatMap((d) => d.access))],
      invokes: [...new Set(defs.flatMap((d) => d.invokes ?? []))],
      timeoutSeconds: Math.max(...defs.map((d) => d.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_SECONDS)),
      memoryMb: memory.length ? Math.max(...memory) : undefined,
    };
  });
}

/**
 * CORS of the HTTP API. The app calls the API on its own origin (CloudFront `/api/*`, Vite
 * proxy locally), so this only matters for other origins listed in config (custom domains).
 * CDK configures `corsPreflight` from it; the local gateway answers preflights from it.
 */
export const API_CORS = {
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type', 'x-requested-with'],
  exposeHeaders: [] as string[],
  allowCredentials: true,
  maxAgeSeconds: 600,
} as const;

/**
 * The header CloudFront adds to every `/api/*` origin request with the ORIGIN_VERIFY secret;
 * functions trust viewer headers (CloudFront-Viewer-Address) only beside it.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** Bucket CORS: the browser PUTs parts and GETs files straight from S3 and must read ETag. */
export const BUCKET_CORS = {
  allowMethods: ['GET', 'PUT', 'HEAD', 'POST'],
  allowHeaders: ['*'],
  exposeHeaders: ['ETag', 'x-amz-request-id'],
  maxAgeSeconds: 3000,
} as const;
