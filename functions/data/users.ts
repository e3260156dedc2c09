/**
 * Users in the single table (docs/data-model.md, patterns 24-29, 31-32): the profile under
 * `USER#<sub>/PROFILE` (spec §3 User), one `EMAIL#<email>` item per account so an address is
 * taken once, the monthly transfer counter, and the storage counter kept on the
 * profile of the storage owner (the team admin for team members). Contacts: data/contacts.ts.
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalWrite, isTransactionCancelled, table, transact, transactOr, type TransactItem } from './base';
import { isLive, keys } from './keys';
import { isRegionId, type RegionId } from '../domain/regions';
import type { RequestRules, RequestSettings } from '../domain/requests-api';
import type { TransferSettings } from '../domain/auth-api';
import { isExpiryPreset } from '../domain/expiry';
import type { CardView } from '../domain/billing-api';

/*
 * Stored settings are read field by field: each valid field kept, an unknown or broken one left
 * to its default. They were checked by transferSettingsSchema / requestSettingsSchema when saved;
 * reading them without those zod schemas keeps the schema modules out of every function that
 * reads a profile (the downloads function's bundle budget, test/infra/budgets.test.ts).
 */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

function storedTransferSettings(raw: unknown): Partial<TransferSettings> | undefined {
  if (!isObject(raw)) return undefined;
  return defined({
    expiryReminders: bool(raw.expiryReminders),
    downloadEmails: bool(raw.downloadEmails),
    defaultExpirySeconds:
      typeof raw.defaultExpirySeconds === 'number' && isExpiryPreset(raw.defaultExpirySeconds)
        ? raw.defaultExpirySeconds
        : undefined,
    defaultSendAs:
      raw.defaultSendAs === 'link' || raw.defaultSendAs === 'email'
        ? (raw.defaultSendAs as 'link' | 'email')
        : undefined,
    defaultMessage: typeof raw.defaultMessage === 'string' ? raw.defaultMessage : undefined,
  });
}

function storedRequestSettings(raw: unknown): RequestSettings | undefined {
  if (!isObject(raw)) return undefined;
  const rules = isObject(raw.defaultRules) ? raw.defaultRules : undefined;
  const defaultRules: RequestRules | undefined = rules
    ? defined({
        maxBytes: count(rules.maxBytes),
        allowedTypes: Array.isArray(rules.allowedTypes)
          ? rules.allowedTypes.filter((t): t is string => typeof t === 'string')
          : undefined,
        maxFiles: count(rules.maxFiles),
      })
    : undefined;
  return defined({
    defaultMessage: typeof raw.defaultMessage === 'string' ? raw.defaultMessage : undefined,
    defaultDueDays: count(raw.defaultDueDays),
    defaultRules,
    emailOnUpload: bool(raw.emailOnUpload),
  });
}

export interface UserProfile {
  readonly userId: string;
  readonly email: string;
  readonly fullName?: string;
  readonly greetingName?: string;
  readonly company?: string;
  readonly profilePicKey?: string;
  readonly logoPicKey?: string;
  readonly showLogoNav?: boolean;
  /** the enforced plan */
  readonly role?: string;
  /** the plan picked at sign-up, kept for checkout */
  readonly chosenRole?: string;
  readonly period?: string;
  readonly status?: string;
  readonly isTeamMember?: boolean;
  readonly parentAdminId?: string;
  readonly loginCount?: number;
  readonly storageUsed?: number;
  readonly lang?: string;
  readonly referrer?: string;
  readonly fingerprint?: Record<string, string>;
  readonly createdAt?: number;
  /** spec §3 transferSettings; absent fields: the defaults */
  readonly transferSettings?: Partial<TransferSettings>;
  /** the storage region new transfers and request uploads go to (absent: the deployment's default) */
  readonly region?: RegionId;
  /** spec §3 requestSettings, the defaults of a new file request (functions/domain/requests-api.ts) */
  readonly requestSettings?: RequestSettings;
  // ---- billing (data/billing.ts; `role` above is the enforced plan, `status` the subscription's) ----
  /** the provider's customer id (spec §3 User.stripeId) */
  readonly stripeId?: string;
  /** the subscription plan's own role (the enforced `role` adds the lifetime codes' tier) */
  readonly subscriptionRole?: string;
  readonly subscriptionId?: string;
  readonly priceId?: string;
  /** epoch ms */
  readonly trialEnd?: number;
  /** epoch ms */
  readonly periodEnd?: number;
  readonly cancelAtPeriodEnd?: boolean;
  readonly card?: CardView;
  /** epoch ms of the first non-zero paid invoice (the 30-day refund window) */
  readonly firstChargeAt?: number;
  /** epoch ms of the provider state last stored: an older state is ignored */
  readonly billingUpdatedAt?: number;
  /** lifetime codes redeemed, 0-8 (spec §3 isSumo) */
  readonly sumoCodes?: number;
  /** spec §2 customDomainOption, set with the custom domain's claim (data/custom-domains.ts) */
  readonly customDomainOption?: 'standard' | 'custom';
}

/** Kept for the transfer loop's callers: the fields it reads. */
export type SenderProfile = Pick<UserProfile, 'userId' | 'fullName' | 'role' | 'status' | 'parentAdminId'> & {
  readonly email?: string;
};

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function storedCard(raw: unknown): CardView | undefined {
  if (!isObject(raw) || typeof raw.brand !== 'string' || typeof raw.last4 !== 'string') return undefined;
  return { brand: raw.brand, last4: raw.last4, expMonth: num(raw.expMonth) ?? 0, expYear: num(raw.expYear) ?? 0 };
}

function fromItem(i: Record<string, unknown>): UserProfile {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const out: Record<string, unknown> = {
    userId: String(i.userId),
    email: String(i.email),
    fullName: str(i.fullName),
    greetingName: str(i.greetingName),
    company: str(i.company),
    profilePicKey: str(i.profilePicKey),
    logoPicKey: str(i.logoPicKey),
    showLogoNav: i.showLogoNav === true,
    role: str(i.role),
    chosenRole: str(i.chosenRole),
    period: str(i.period),
    status: str(i.status),
    isTeamMember: i.isTeamMember === true,
    parentAdminId: str(i.parentAdminID),
    loginCount: typeof i.loginCount === 'number' ? i.loginCount : 0,
    storageUsed: typeof i.storageUsed === 'number' ? i.storageUsed : 0,
    lang: str(i.lang),
    createdAt: typeof i.createdAt === 'number' ? i.createdAt : undefined,
    transferSettings: storedTransferSettings(i.transferSettings),
    region: isRegionId(i.region) ? i.region : undefined,
    requestSettings: storedRequestSettings(i.requestSettings),
    stripeId: str(i.stripeId),
    subscriptionRole: str(i.subscriptionRole),
    subscriptionId: str(i.subscriptionId),
    priceId: str(i.priceId),
    trialEnd: num(i.trialEnd),
    periodEnd: num(i.periodEnd),
    cancelAtPeriodEnd: i.cancelAtPeriodEnd === true ? true : undefined,
    card: storedCard(i.card),
    firstChargeAt: num(i.firstChargeAt),
    billingUpdatedAt: num(i.billingUpdatedAt),
    sumoCodes: num(i.sumoCodes),
    customDomainOption: i.customDomainOption === 'custom' ? 'custom' : undefined,
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as unknown as UserProfile;
}

/** Pattern 24 */
export async function getProfile(userId: string): Promise<UserProfile | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.userProfile(userId), ConsistentRead: true });
  if (!out.Item || !isLive(out.Item) || typeof out.Item.email !== 'string') return undefined;
  return fromItem(out.Item);
}

export async function getSenderProfile(userId: string): Promise<SenderProfile | undefined> {
  return getProfile(userId);
}

export function profileItem(p: UserProfile): Record<string, unknown> {
  const { parentAdminId, ...rest } = p;
  return {
    ...keys.userProfile(p.userId),
    entity: 'User',
    ...rest,
    ...(parentAdminId ? { parentAdminID: parentAdminId } : {}),
    role: p.role ?? 'free',
    storageUsed: p.storageUsed ?? 0,
    loginCount: p.loginCount ?? 0,
  };
}

/**
 * Pattern 25: a new account: the profile and the email claim in one transaction, so two
 * sign-ups of one address cannot both succeed. False when the email is taken.
 */
export async function createProfile(p: UserProfile): Promise<boolean> {
  // A concurrent sign-up of the same address may cancel it with a conflict rather than a failed condition.
  return transact(
    [
      {
        Put: {
          TableName: table(),
          Item: { ...keys.userEmail(p.email), entity: 'UserEmail', userId: p.userId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: table(), Item: profileItem(p), ConditionExpression: 'attribute_not_exists(pk)' } },
    ],
    isTransactionCancelled,
  );
}

/** Writes a profile as is (tests and the seed script); the email claim too. */
export async function putSenderProfile(p: Partial<UserProfile> & { userId: string; email: string }): Promise<void> {
  await ddb().put({ TableName: table(), Item: profileItem(p as UserProfile) });
  await ddb().put({ TableName: table(), Item: { ...keys.userEmail(p.email), entity: 'UserEmail', userId: p.userId } });
}

/** Pattern 26: the account of an address, if any. */
export async function userIdByEmail(email: string): Promise<string | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.userEmail(email), ConsistentRead: true });
  return typeof out.Item?.userId === 'string' ? out.Item.userId : undefined;
}

/** BatchGetItem in 100s, retrying unprocessed keys; returns the items found. */
async function batchGet(keyList: readonly Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keyList.length; i += 100) {
    let pending: Record<string, unknown>[] = keyList.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 8) throw new Error('BatchGet left unprocessed keys');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out = await ddb().batchGet({ RequestItems: { [table()]: { Keys: pending } } });
      found.push(...((out.Responses?.[table()] ?? []) as Record<string, unknown>[]));
      pending = (out.UnprocessedKeys?.[table()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
}

/** Pattern 32: the interface language of each address that has an account with one set. */
export async function languagesOf(emails: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(emails)];
  if (unique.length === 0) return new Map();
  const emailOfPk = new Map(unique.map((e) => [keys.userEmail(e).pk, e]));
  const claims = await batchGet(unique.map((e) => keys.userEmail(e)));
  const userOf = new Map<string, string>();
  for (const c of claims) {
    const email = emailOfPk.get(String(c.pk));
    if (typeof c.userId === 'string' && email) userOf.set(c.userId, email);
  }
  if (userOf.size === 0) return new Map();
  const profiles = await batchGet([...userOf.keys()].map((id) => keys.userProfile(id)));
  const langs = new Map<string, string>();
  for (const p of profiles) {
    const email = userOf.get(String(p.userId));
    if (email && typeof p.lang === 'string' && p.lang !== '') langs.set(email, p.lang);
  }
  return langs;
}

export async function countLogin(userId: string): Promise<number> {
  const out = await ddb().update({
    TableName: table(),
    Key: keys.userProfile(userId),
    UpdateExpression: 'ADD loginCount :one',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':one': 1 },
    ReturnValues: 'UPDATED_NEW',
  });
  return Number(out.Attributes?.loginCount ?? 0);
}

const EDITABLE = [
  'fullName',
  'greetingName',
  'company',
  'profilePicKey',
  'logoPicKey',
  'showLogoNav',
  'transferSettings',
  'requestSettings',
] as const;
export type ProfileEdit = Partial<Pick<UserProfile, (typeof EDITABLE)[number]>>;

/** Pattern 27: the user's own editable fields; '' removes a text field. */
export async function updateProfile(userId: string, edit: ProfileEdit): Promise<void> {
  const sets: string[] = [];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const field of EDITABLE) {
    const value = edit[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === '') removes.push(`#${field}`);
    else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  if (sets.length === 0 && removes.length === 0) return;
  await ddb().update({
    TableName: table(),
    Key: keys.userProfile(userId),
    UpdateExpression: [
      sets.length ? `SET ${sets.join(', ')}` : '',
      removes.length ? `REMOVE ${removes.join(', ')}` : '',
    ]
      .join(' ')
      .trim(),
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  });
}

/** Pattern S1 (docs/data-model.md): the storage region the user picked on /dash/data-residency. */
export async function setStorageRegion(userId: string, region: RegionId): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.userProfile(userId),
    UpdateExpression: 'SET #region = :region',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#region': 'region' },
    ExpressionAttributeValues: { ':region': region },
  });
}

/** Pattern 28: sends this calendar month (UTC). */
export async function monthlyTransfers(userId: string, month: string): Promise<number> {
  const out = await ddb().get({ TableName: table(), Key: keys.monthlyTransfers(userId, month), ConsistentRead: true });
  return typeof out.Item?.count === 'number' ? out.Item.count : 0;
}

export type ReservationFailure = 'storage_full' | 'over_transfer_limit';

/** Storage owners are account ids, or `guest:<address>` for a guest's verified sender address. */
export const GUEST_OWNER_PREFIX = 'guest:';
export const guestOwner = (email: string) => `${GUEST_OWNER_PREFIX}${email}`;

/** The item whose `storageUsed` a reservation changes, and whether it must exist already. */
function storageLedger(owner: string): { Key: Record<string, string>; mustExist: boolean } {
  return owner.startsWith(GUEST_OWNER_PREFIX)
    ? { Key: keys.guestStorage(owner.slice(GUEST_OWNER_PREFIX.length)), mustExist: false }
    : { Key: keys.userProfile(owner), mustExist: true };
}

/**
 * The ledger update that adds bytes the product stored for a transfer after its send
 * (an image's thumbnail) to its owner's storage, as one item of the caller's transaction.
 * No limit: a few kilobytes beside an image the owner already had room for.
 */
export function storedBytesUpdate(owner: string, bytes: number): TransactItem {
  const ledger = storageLedger(owner);
  return {
    Update: {
      TableName: table(),
      Key: ledger.Key,
      UpdateExpression: 'ADD storageUsed :b',
      ...(ledger.mustExist ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
      ExpressionAttributeValues: { ':b': bytes },
    },
  };
}

/** Storage a guest address has reserved now (pattern 29 on `GUEST#<email>/STORAGE`). */
export async function guestStorageUsed(email: string): Promise<number> {
  const out = await ddb().get({ TableName: table(), Key: keys.guestStorage(email), ConsistentRead: true });
  return typeof out.Item?.storageUsed === 'number' ? out.Item.storageUsed : 0;
}

/**
 * Pattern 29: reserves `bytes` of the owner's storage and, when `monthlyLimit` is set, one of
 * this month's sends, in one transaction: both pass their condition or nothing changes. DynamoDB
 * conditions cannot add, so "used + bytes <= limit" is written "used <= limit - bytes".
 */
export async function reserveSend(
  owner: string,
  bytes: number,
  storageLimit: number,
  month: { key: string; limit: number | null } | null,
): Promise<ReservationFailure | null> {
  const maxBefore = storageLimit - bytes;
  if (maxBefore < 0) return 'storage_full';
  const ledger = storageLedger(owner);
  const items: TransactItem[] = [
    {
      Update: {
        TableName: table(),
        Key: ledger.Key,
        UpdateExpression: 'ADD storageUsed :b',
        ConditionExpression: `${ledger.mustExist ? 'attribute_exists(pk) AND ' : ''}(attribute_not_exists(storageUsed) OR storageUsed <= :max)`,
        ExpressionAttributeValues: { ':b': bytes, ':max': maxBefore },
      },
    },
  ];
  if (month) {
    items.push({
      Update: {
        TableName: table(),
        Key: keys.monthlyTransfers(owner, month.key),
        UpdateExpression: 'SET entity = :e ADD #c :one',
        ExpressionAttributeNames: { '#c': 'count' },
        ...(month.limit === null
          ? { ExpressionAttributeValues: { ':e': 'MonthlyTransfers', ':one': 1 } }
          : {
              ConditionExpression: 'attribute_not_exists(#c) OR #c < :limit',
              ExpressionAttributeValues: { ':e': 'MonthlyTransfers', ':one': 1, ':limit': month.limit },
            }),
      },
    });
  }
  return transactOr(items, ['storage_full', 'over_transfer_limit'] as const);
}

/** Gives reserved bytes (and, for an unsent transfer, its monthly send) back. */
export async function releaseSend(owner: string, bytes: number, month: string | null): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: storageLedger(owner).Key,
    UpdateExpression: 'ADD storageUsed :b',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':b': -bytes },
  });
  if (month) {
    await conditionalWrite(() =>
      ddb().update({
        TableName: table(),
        Key: keys.monthlyTransfers(owner, month),
        UpdateExpression: 'ADD #c :m',
        ConditionExpression: 'attribute_exists(pk) AND #c > :zero',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':m': -1, ':zero': 0 },
      }),
    );
  }
}

export async function putFeedback(v: Record<string, unknown>, at: number, id: string): Promise<void> {
  await ddb().put({ TableName: table(), Item: { ...keys.feedback(at, id), entity: 'Feedback', ...v, time: at } });
}
