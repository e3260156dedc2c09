/**
 * Every key string of the single table is built here (conventions §7); docs/data-model.md
 * lists the access patterns. Generic attributes: pk, sk, gsi1pk/gsi1sk, gsi2pk/gsi2sk, entity, ttl.
 */
export type CodePurpose = 'sender' | 'signup' | 'recipient';
export type TokenPurpose = 'sender' | 'signup' | 'reset';

export const keys = {
  healthProbe: (probeId: string) => ({ pk: `HEALTH#${probeId}`, sk: 'PROBE' }),
  jobRun: (jobName: string) => ({ pk: `JOB#${jobName}`, sk: 'LAST_RUN' }),

  transfer: (slug: string) => ({ pk: `TRANSFER#${slug}`, sk: 'META' }),
  transferFile: (slug: string, fileId: string) => ({ pk: `TRANSFER#${slug}`, sk: `FILE#${fileId}` }),
  filePrefix: 'FILE#',
  /** Part numbers are zero-padded so a file's parts sort in order. */
  transferPart: (slug: string, fileId: string, partNumber: number) => ({
    pk: `TRANSFER#${slug}`,
    sk: `PART#${fileId}#${String(partNumber).padStart(5, '0')}`,
  }),
  partPrefix: (fileId: string) => `PART#${fileId}#`,
  allPartsPrefix: 'PART#',
  /** someone waiting for the completion of a transfer still uploading (decision 0074) */
  transferWatcher: (slug: string, email: string) => ({ pk: `TRANSFER#${slug}`, sk: `WATCH#${email}` }),
  watcherPrefix: 'WATCH#',
  /** one address on a transfer's access list (verified recipients, decision 0076) */
  transferAccess: (slug: string, email: string) => ({ pk: `TRANSFER#${slug}`, sk: `ACCESS#${email}` }),
  accessPrefix: 'ACCESS#',
  /** a recipient's verified session: a right code for one address on one transfer (stored as its hash) */
  recipientSession: (tokenHash: string) => ({ pk: `RSESSION#${tokenHash}`, sk: 'SESSION' }),
  transferZip: (slug: string, contentHash: string) => ({ pk: `TRANSFER#${slug}`, sk: `ZIP#${contentHash}` }),
  zipPrefix: 'ZIP#',
  transferDownload: (slug: string, at: number, id: string) => ({
    pk: `TRANSFER#${slug}`,
    sk: `DOWNLOAD#${String(at).padStart(15, '0')}#${id}`,
  }),
  downloadPrefix: 'DOWNLOAD#',
  /** a download served to the end (functions/domain/delivery.ts) */
  transferDelivery: (slug: string, deliveryId: string) => ({ pk: `TRANSFER#${slug}`, sk: `DELIVERY#${deliveryId}` }),
  deliveryPrefix: 'DELIVERY#',
  /** a download limit of a transfer: `all` (the transfer's) or `r#<recipientId>` (one recipient's) */
  downloadLimit: (slug: string, scope: string) => ({ pk: `TRANSFER#${slug}`, sk: `DLLIMIT#${scope}` }),
  downloadLimitPrefix: 'DLLIMIT#',
  /** a download URL's grant, found by the id its URL carries (the deliveries job's lookup) */
  downloadGrant: (deliveryId: string) => ({ pk: `GRANT#${deliveryId}`, sk: 'GRANT' }),
  /** gsi1: a signed-in sender's transfers, newest last. */
  userTransfers: (userId: string, createdAt: number, slug: string) => ({
    gsi1pk: `USER#${userId}`,
    gsi1sk: `TRANSFER#${String(createdAt).padStart(15, '0')}#${slug}`,
  }),
  userTransfersPartition: (userId: string) => `USER#${userId}`,
  /** gsi2: the sweep's work queue, sorted by when the next expiry step is due (sparse). */
  sweepIndex: (dueAt: number, slug: string) => ({
    gsi2pk: 'SWEEP',
    gsi2sk: `${String(dueAt).padStart(15, '0')}#${slug}`,
  }),
  sweepPartition: 'SWEEP',
  sweepUpTo: (at: number) => `${String(at).padStart(15, '0')}#~`,

  /**
   * gsi3: a user's sent transfers by expiry, in two partitions: `LIVE` (status ready; those
   * past their expiry wait there for the sweep) and `ENDED` (status expired).
   */
  transferList: (userId: string, state: 'LIVE' | 'ENDED', expiryDate: number, slug: string) => ({
    gsi3pk: `LIST#${userId}#${state}`,
    gsi3sk: `${String(expiryDate).padStart(15, '0')}#${slug}`,
  }),
  transferListPartition: (userId: string, state: 'LIVE' | 'ENDED') => `LIST#${userId}#${state}`,
  /** gsi4 (sparse): a user's sent transfers nobody has downloaded yet, by expiry. */
  unseenTransfer: (userId: string, expiryDate: number, slug: string) => ({
    gsi4pk: `UNSEEN#${userId}`,
    gsi4sk: `${String(expiryDate).padStart(15, '0')}#${slug}`,
  }),
  unseenPartition: (userId: string) => `UNSEEN#${userId}`,
  /** expiry boundary for gsi3sk / gsi4sk range conditions: every key of `at` sorts before it */
  expiryBound: (at: number) => `${String(at).padStart(15, '0')}#~`,
  /** counters of a sender's listed transfers: `all`, `expired` (those the sweep marked) */
  transferStats: (userId: string) => ({ pk: `USER#${userId}`, sk: 'STATS#TRANSFERS' }),
  /** the scheduled reminder of a transfer's recipients, due 24 h before expiry (gsi2 partition REMIND) */
  reminder: (slug: string) => ({ pk: `TRANSFER#${slug}`, sk: 'REMIND' }),
  reminderIndex: (dueAt: number, slug: string) => ({
    gsi2pk: 'REMIND',
    gsi2sk: `${String(dueAt).padStart(15, '0')}#${slug}`,
  }),
  reminderPartition: 'REMIND',
  /** a forward too large to copy within its request, waiting for the forward-copy job (gsi2 partition COPY) */
  forwardCopy: (slug: string) => ({ pk: `TRANSFER#${slug}`, sk: 'COPY' }),
  forwardCopyIndex: (queuedAt: number, slug: string) => ({
    gsi2pk: 'COPY',
    gsi2sk: `${String(queuedAt).padStart(15, '0')}#${slug}`,
  }),
  forwardCopyPartition: 'COPY',
  /**
   * a file's completion claim, by when its lease runs out (gsi2 partition COMPLETING, sparse):
   * the complete-upload job's schedule starts again the claims whose job died
   */
  completingIndex: (leaseUntil: number, slug: string, fileId: string) => ({
    gsi2pk: 'COMPLETING',
    gsi2sk: `${String(leaseUntil).padStart(15, '0')}#${slug}#${fileId}`,
  }),
  completingPartition: 'COMPLETING',
  completingUpTo: (at: number) => `${String(at).padStart(15, '0')}#~`,

  // ---- the payments simulator's state (functions/adapters/payments/simulated/) ----
  /** the simulator's clock: an offset in seconds added to wall time, like a Stripe test clock */
  simpayClock: { pk: 'SIMPAY#CLOCK', sk: 'CLOCK' },
  /** one simulated Stripe object by its id (cus_, pm_, cs_, seti_, sub_, in_, re_, evt_ sim ids) */
  simpayObject: (id: string) => ({ pk: `SIMPAY#${id}`, sk: 'OBJECT' }),
  /** a simulated customer's invoice number counter (Stripe numbers invoices <prefix>-0001, -0002… per customer) */
  simpayInvoiceCounter: (customerId: string) => ({ pk: `SIMPAY#${customerId}`, sk: 'INVOICE_SEQ' }),
  /** gsi1: a simulated customer's subscriptions or invoices, oldest first */
  simpayCustomerList: (kind: 'SUBS' | 'INVOICES', customerId: string, created: number, id: string) => ({
    gsi1pk: `SIMPAY#${kind}#${customerId}`,
    gsi1sk: `${String(created).padStart(12, '0')}#${id}`,
  }),
  simpayCustomerListPartition: (kind: 'SUBS' | 'INVOICES', customerId: string) => `SIMPAY#${kind}#${customerId}`,
  /** gsi1: the simulator's event log in order (simulated time, then the order of writing) */
  simpayEventLog: (order: string) => ({ gsi1pk: 'SIMPAY#EVENTS', gsi1sk: order }),
  simpayEventLogPartition: 'SIMPAY#EVENTS',
  /** gsi2 (sparse): a simulated subscription's next due step (trial_will_end, period end, payment retry) */
  simpayDue: (dueAt: number, subscriptionId: string) => ({
    gsi2pk: 'SIMPAY#DUE',
    gsi2sk: `${String(dueAt).padStart(12, '0')}#${subscriptionId}`,
  }),
  simpayDuePartition: 'SIMPAY#DUE',
  simpayDueUpTo: (at: number) => `${String(at).padStart(12, '0')}#~`,
  /** gsi2 (sparse): events not delivered to the webhook yet, in log order */
  simpayUndelivered: (order: string) => ({ gsi2pk: 'SIMPAY#UNDELIVERED', gsi2sk: order }),
  simpayUndeliveredPartition: 'SIMPAY#UNDELIVERED',

  notification: (userId: string, at: number, id: string) => ({
    pk: `USER#${userId}`,
    sk: `NOTIFY#${String(at).padStart(15, '0')}#${id}`,
  }),
  notificationPrefix: 'NOTIFY#',
  /** gsi1 (sparse) on a notification while it is unread: counting them is a bounded Query */
  unreadNotification: (userId: string, at: number, id: string) => ({
    gsi1pk: `UNREAD#${userId}`,
    gsi1sk: `NOTIFY#${String(at).padStart(15, '0')}#${id}`,
  }),
  /** one row per download of a signed-in sender's transfers (analytics CSV) */
  downloadLog: (userId: string, at: number, id: string) => ({
    pk: `USER#${userId}`,
    sk: `DLOG#${String(at).padStart(15, '0')}#${id}`,
  }),
  downloadLogPrefix: 'DLOG#',
  /** per user and UTC day: downloads, `c#<country>`, `t#<slug>` counters and the recipients set */
  dayStats: (userId: string, day: string) => ({ pk: `USER#${userId}`, sk: `DAY#${day}` }),
  dayStatsPrefix: 'DAY#',
  /** per user and UTC month (yyyy-mm): the day counters summed over the month, plus `d#<dd>` downloads per day */
  monthStats: (userId: string, month: string) => ({ pk: `USER#${userId}`, sk: `MSTATS#${month}` }),

  /** A mailed 5-digit code: guest sender proof or registration step 2. */
  emailCode: (purpose: CodePurpose, email: string) => ({ pk: `CODE#${purpose}#${email}`, sk: 'CODE' }),
  /** A token proving an address (guest sender, registration) or allowing a password reset. */
  proofToken: (purpose: TokenPurpose, tokenHash: string) => ({ pk: `TOKEN#${purpose}#${tokenHash}`, sk: 'TOKEN' }),
  /** One item per account email, so an address can be taken only once. */
  userEmail: (email: string) => ({ pk: `EMAIL#${email}`, sk: 'USER' }),
  monthlyTransfers: (userId: string, month: string) => ({ pk: `USER#${userId}`, sk: `MONTH#${month}` }),
  /** one contact per address, case-insensitively (spec §5): the key holds it lower-cased, the item keeps it as written */
  contact: (userId: string, email: string) => ({ pk: `USER#${userId}`, sk: `CONTACT#${email.trim().toLowerCase()}` }),
  contactPrefix: 'CONTACT#',
  /** how many contacts the user has (MAX_CONTACTS is enforced on it) */
  contactStats: (userId: string) => ({ pk: `USER#${userId}`, sk: 'STATS#CONTACTS' }),
  feedback: (at: number, id: string) => ({ pk: 'FEEDBACK', sk: `${String(at).padStart(15, '0')}#${id}` }),
  extensionToken: (tokenHash: string) => ({ pk: `EXTENSION#${tokenHash}`, sk: 'REQUEST' }),
  /** storage reserved by a guest's verified sender address (the anon plan's storage) */
  guestStorage: (email: string) => ({ pk: `GUEST#${email}`, sk: 'STORAGE' }),
  /** failed attempts of one client on one subject (an address, a transfer) */
  clientFailures: (scope: string, subject: string, client: string) => ({
    pk: `FAIL#${scope}#${subject}`,
    sk: `CLIENT#${client}`,
  }),
  rateWindow: (scope: string, subject: string, windowStart: number) => ({
    pk: `RATE#${scope}#${subject}`,
    sk: `W#${windowStart}`,
  }),
  userProfile: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  /** a sign-in's session family: the refresh cookie's current secret and the access tokens it issued */
  session: (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' }),
  /** an access token ended before its expiry (logout, reuse of an old refresh cookie), by its `jti` */
  revokedAccessToken: (jti: string) => ({ pk: `REVOKED#${jti}`, sk: 'ACCESS' }),

  // ---- file requests (docs/data-model.md patterns 60-65) ----
  /** a file request, by its public id (`/r/{id}`) */
  request: (id: string) => ({ pk: `REQUEST#${id}`, sk: 'REQUEST' }),
  /** gsi1: a user's requests, newest last (own partition, apart from the transfers' `USER#`) */
  userRequests: (userId: string, createdAt: number, id: string) => ({
    gsi1pk: `REQUESTS#${userId}`,
    gsi1sk: `${String(createdAt).padStart(15, '0')}#${id}`,
  }),
  userRequestsPartition: (userId: string) => `REQUESTS#${userId}`,
  /** one finished upload to a request, by the upload's transfer slug */
  requestUpload: (requestId: string, slug: string) => ({ pk: `REQUEST#${requestId}`, sk: `UPLOAD#${slug}` }),
  requestUploadPrefix: 'UPLOAD#',

  // ---- billing (docs/data-model.md patterns B1-B7) ----
  /** the provider's customer -> our user, one item per customer (like `EMAIL#`): a customer belongs to one account */
  stripeCustomer: (customerId: string) => ({ pk: `STRIPECUST#${customerId}`, sk: 'USER' }),
  /** a processed webhook event, by the provider's event id: the same event twice changes the user once */
  paymentEvent: (eventId: string) => ({ pk: `PAYEVENT#${eventId}`, sk: 'EVENT' }),
  /** a lifetime code, by the SHA-256 of the code: single use across every account */
  sumoCode: (codeHash: string) => ({ pk: `SUMO#${codeHash}`, sk: 'CODE' }),

  // ---- custom domains (docs/data-model.md patterns D1-) ----
  /** a custom host name claimed by one user (like `EMAIL#`: a host belongs to one account), lower-case, no port */
  customDomain: (host: string) => ({ pk: `DOMAIN#${host}`, sk: 'CLAIM' }),

  // ---- teams and sharing (docs/data-model.md patterns T1-T9) ----
  /** the admin's seat counter: members + pending invites, raised only under `used < limit` */
  teamSeats: (adminId: string) => ({ pk: `TEAM#${adminId}`, sk: 'SEATS' }),
  /** a pending invite, by the admin's handle on it (resend, revoke) */
  teamInvite: (adminId: string, inviteId: string) => ({ pk: `TEAM#${adminId}`, sk: `INVITE#${inviteId}` }),
  teamInvitePrefix: 'INVITE#',
  /** a member of the admin's team */
  teamMember: (adminId: string, memberId: string) => ({ pk: `TEAM#${adminId}`, sk: `MEMBER#${memberId}` }),
  teamMemberPrefix: 'MEMBER#',
  teamPartition: (adminId: string) => `TEAM#${adminId}`,
  /** the invite link, by the SHA-256 of its token (single use: deleted on accept, resend, revoke) */
  inviteToken: (tokenHash: string) => ({ pk: `INVITETOKEN#${tokenHash}`, sk: 'INVITE' }),
  /** one pending invite per address across all teams (registration answers 409 email_invited while it lives) */
  invitedEmail: (email: string) => ({ pk: `INVITED#${email}`, sk: 'INVITE' }),
  /** a transfer shared with one team mate; gsi1 lists a user's shared transfers, newest last */
  transferShare: (slug: string, userId: string) => ({ pk: `TRANSFER#${slug}`, sk: `SHARE#${userId}` }),
  transferSharePrefix: 'SHARE#',
  sharedWith: (userId: string, createdAt: number, slug: string) => ({
    gsi1pk: `SHARED#${userId}`,
    gsi1sk: `${String(createdAt).padStart(15, '0')}#${slug}`,
  }),
  sharedWithPartition: (userId: string) => `SHARED#${userId}`,
  /** the user's side of the claim: which host, its ownership token, the last check's result */
  userCustomDomain: (userId: string) => ({ pk: `USER#${userId}`, sk: 'DOMAIN' }),
  /** gsi2 (sparse) on a pending claim: the scheduled check's queue, by when the next check is due */
  domainCheckIndex: (dueAt: number, host: string) => ({
    gsi2pk: 'DOMAINCHECK',
    gsi2sk: `${String(dueAt).padStart(15, '0')}#${host}`,
  }),
  domainCheckPartition: 'DOMAINCHECK',
  domainCheckUpTo: (at: number) => `${String(at).padStart(15, '0')}#~`,
  /** the CDN tenant of a verified host (CloudFront distribution tenant, or the local provider's record) */
  domainTenant: (host: string) => ({ pk: `DOMAIN#${host}`, sk: 'TENANT' }),
  /** gsi2 (sparse) on a tenant that must be created or deleted: the tenant job's queue */
  tenantSyncIndex: (queuedAt: number, host: string) => ({
    gsi2pk: 'TENANTSYNC',
    gsi2sk: `${String(queuedAt).padStart(15, '0')}#${host}`,
  }),
  tenantSyncPartition: 'TENANTSYNC',
  /** gsi1 (sparse) on a tenant that exists and is wanted: the hosts the app is served on (bucket CORS) */
  servedHostIndex: (host: string) => ({ gsi1pk: 'SERVEDHOST', gsi1sk: host }),
  servedHostPartition: 'SERVEDHOST',
  /** a sender email domain claimed by one user (an SES identity belongs to one account) */
  emailDomainClaim: (domain: string) => ({ pk: `MAILDOMAIN#${domain}`, sk: 'CLAIM' }),
  /** the user's sender email domain: the SES identity, its DKIM tokens and status */
  userEmailDomain: (userId: string) => ({ pk: `USER#${userId}`, sk: 'MAILDOMAIN' }),
  /** locally only: the email identity the SES emulator cannot keep (adapters/email-identities.ts) */
  localEmailIdentity: (domain: string) => ({ pk: `SESIDENTITY#${domain}`, sk: 'IDENTITY' }),

  // ---- branding (docs/data-model.md patterns BR1-BR3) ----
  /** the storage owner's download-page branding: background, accent colour, the powered-by choice (the logo is on the profile, spec §3 logoPic) */
  branding: (userId: string) => ({ pk: `USER#${userId}`, sk: 'BRANDING' }),

  // ---- Idempotency-Key records (docs/data-model.md pattern IK1) ----
  /** one caller's key: `scope` names the caller (a user, a guest's verified address, an upload token's transfer) */
  idempotencyKey: (scope: string, key: string) => ({ pk: `IDEM#${scope}`, sk: `KEY#${key}` }),

  // ---- webhooks and events (docs/data-model.md patterns WH1-WH8) ----
  /** a user's webhook endpoint (url, event types, secrets) */
  webhookEndpoint: (userId: string, endpointId: string) => ({ pk: `USER#${userId}`, sk: `WEBHOOK#${endpointId}` }),
  webhookEndpointPrefix: 'WEBHOOK#',
  /** how many endpoints the user has (the limit's conditional counter) and a team admin's choice for members */
  webhookSettings: (userId: string) => ({ pk: `USER#${userId}`, sk: 'WEBHOOKSETTINGS' }),
  /** one published event with deliveries: its body, signed as is by every attempt */
  webhookEvent: (eventId: string) => ({ pk: `WHEVENT#${eventId}`, sk: 'EVENT' }),
  /** one delivery of an event to an endpoint */
  webhookDelivery: (deliveryId: string) => ({ pk: `WHDELIVERY#${deliveryId}`, sk: 'DELIVERY' }),
  /** gsi1: an endpoint's delivery log, newest last */
  webhookLog: (endpointId: string, createdAt: number, deliveryId: string) => ({
    gsi1pk: `WHLOG#${endpointId}`,
    gsi1sk: `${String(createdAt).padStart(15, '0')}#${deliveryId}`,
  }),
  webhookLogPartition: (endpointId: string) => `WHLOG#${endpointId}`,
  /** gsi2 (sparse) on a pending delivery: the delivery job's queue, by when the next attempt is due */
  webhookDueIndex: (dueAt: number, deliveryId: string) => ({
    gsi2pk: 'WHDUE',
    gsi2sk: `${String(dueAt).padStart(15, '0')}#${deliveryId}`,
  }),
  webhookDuePartition: 'WHDUE',
  webhookDueUpTo: (at: number) => `${String(at).padStart(15, '0')}#~`,

  // ---- API keys (docs/data-model.md patterns K1-K6) ----
  /** an API key by its id (the middle of `sbk_<env>_<id>_<secret>`); holds the SHA-256 of the whole key */
  apiKey: (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'KEY' }),
  /** gsi1: a user's API keys, oldest first */
  userApiKeys: (userId: string, createdAt: number, keyId: string) => ({
    gsi1pk: `APIKEYS#${userId}`,
    gsi1sk: `${String(createdAt).padStart(15, '0')}#${keyId}`,
  }),
  userApiKeysPartition: (userId: string) => `APIKEYS#${userId}`,
  /** how many keys the user has (MAX_API_KEYS is enforced on it) */
  apiKeyStats: (userId: string) => ({ pk: `USER#${userId}`, sk: 'STATS#APIKEYS' }),
  /** a team admin's API key setting: whether the team's members may create and use keys */
  teamApiKeys: (adminId: string) => ({ pk: `TEAM#${adminId}`, sk: 'APIKEYS' }),
} as const;

/**
 * The review's keys (docs/data-model.md patterns RV1-RV10), apart from `keys` so the functions
 * that never touch a review do not carry them (one object is bundled whole).
 */
export const reviewKeys = {
  /** every review item of a transfer (comments, decisions, favourites) sorts under this prefix */
  prefix: 'REVIEW#',
  /** a review comment (thread or reply); its id is a UUIDv7, so a transfer's comments sort by time */
  comment: (slug: string, commentId: string) => ({ pk: `TRANSFER#${slug}`, sk: `REVIEW#C#${commentId}` }),
  commentPrefix: 'REVIEW#C#',
  /** a reviewer's latest decision on a subject (a file's first id, or `transfer`) */
  decision: (slug: string, subject: string, reviewer: string) => ({
    pk: `TRANSFER#${slug}`,
    sk: `REVIEW#D#${subject}#${reviewer}`,
  }),
  decisionPrefix: 'REVIEW#D#',
  /** a reviewer's favourite file */
  favourite: (slug: string, fileId: string, reviewer: string) => ({
    pk: `TRANSFER#${slug}`,
    sk: `REVIEW#F#${fileId}#${reviewer}`,
  }),
  favouritePrefix: 'REVIEW#F#',
  /** the review mail's batching state of a transfer: when the last one went, what waits for the next */
  mail: (slug: string) => ({ pk: `TRANSFER#${slug}`, sk: 'REVIEWMAIL' }),
  /** gsi2 (sparse) on a review mail marker with activity waiting: the review-mail job's queue, by when it is due */
  mailIndex: (dueAt: number, slug: string) => ({
    gsi2pk: 'REVIEWMAIL',
    gsi2sk: `${String(dueAt).padStart(15, '0')}#${slug}`,
  }),
  mailPartition: 'REVIEWMAIL',
  mailUpTo: (at: number) => `${String(at).padStart(15, '0')}#~`,
} as const;

/** Epoch seconds `secondsFromNow` ahead, for the table's ttl attribute. */
export function ttlIn(secondsFromNow: number, now = Date.now()): number {
  return Math.floor(now / 1000) + Math.ceil(secondsFromNow);
}

/** DynamoDB deletes expired items lazily (DynamoDB Local never does): reads treat them as absent. */
export function isLive(item: { ttl?: unknown } | undefined, now = Date.now()): boolean {
  if (!item) return false;
  return typeof item.ttl !== 'number' || item.ttl * 1000 > now;
}
