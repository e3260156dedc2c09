/**
 * Custom domains in the single table (docs/data-model.md patterns D1-): one claim
 * item per host name under `DOMAIN#<host>/CLAIM`, so a host belongs to one account. Its
 * attributes: `userId` (the claiming user), `status` (`pending` until the DNS records check
 * out, then `verified`; see `CustomDomainStatus`), `createdAt`, `checkedAt` (epoch ms).
 */
import { ddb } from '../lib/clients/dynamodb';
import type { CustomDomainOption, RecordProblem } from '../domain/custom-domains';
import { claimUnique, conditionalWrite, isTransactionCancelled, table, transact, type TransactItem } from './base';
import { isLive, keys } from './keys';

export type CustomDomainStatus = 'pending' | 'verified' | 'failed';

/** A host name as claims store it: lower-case, without a trailing dot or a port. */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

/** The user whose verified custom domain `host` is (undefined: no one's, or not verified yet). */
export async function liveDomainOwner(host: string): Promise<string | undefined> {
  const out = await ddb().get({
    TableName: table(),
    Key: keys.customDomain(normalizeHost(host)),
    ConsistentRead: true,
  });
  const item = out.Item;
  if (!item || !isLive(item) || item.status !== 'verified' || typeof item.userId !== 'string') return undefined;
  return item.userId;
}

// ---- domain settings: the claims' writes (docs/data-model.md D2-D9) ----------------

type TransactItems = TransactItem[];

/** The user's side of a claim (`USER#<id>/DOMAIN`). */
export interface UserDomainRecord {
  readonly host: string;
  /** the ownership TXT record's token */
  readonly token: string;
  readonly status: CustomDomainStatus;
  readonly problems: readonly RecordProblem[];
  readonly createdAt: number;
  readonly checkedAt?: number;
  /** pending claims: when the scheduled check looks again */
  readonly nextCheckAt?: number;
  /** failed checks in a row (the backoff's exponent) */
  readonly failedChecks: number;
}

function problemsOf(raw: unknown): RecordProblem[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((p: Record<string, unknown>) =>
    (p?.record === 'cname' || p?.record === 'txt') && (p.state === 'missing' || p.state === 'wrong')
      ? [
          {
            record: p.record,
            state: p.state,
            ...(typeof p.found === 'string' ? { found: p.found } : {}),
          } as RecordProblem,
        ]
      : [],
  );
}

/** D2: the caller's custom domain, if any. */
export async function getUserDomain(userId: string): Promise<UserDomainRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.userCustomDomain(userId), ConsistentRead: true });
  const i = out.Item;
  if (!i || typeof i.host !== 'string' || typeof i.token !== 'string') return undefined;
  const status: CustomDomainStatus = i.status === 'verified' || i.status === 'failed' ? i.status : 'pending';
  return {
    host: i.host,
    token: i.token,
    status,
    problems: problemsOf(i.problems),
    createdAt: Number(i.createdAt ?? 0),
    ...(typeof i.checkedAt === 'number' ? { checkedAt: i.checkedAt } : {}),
    ...(typeof i.nextCheckAt === 'number' ? { nextCheckAt: i.nextCheckAt } : {}),
    failedChecks: typeof i.failedChecks === 'number' ? i.failedChecks : 0,
  };
}

export type ClaimFailure = 'taken' | 'already_set';

/**
 * D3: claims `host` for `userId`: the claim (only if no one holds the host) and the user's side
 * (only if the user has no domain yet) in one transaction, queued for the scheduled check.
 */
export async function claimDomain(
  userId: string,
  host: string,
  token: string,
  now: number,
  firstCheckAt: number,
): Promise<ClaimFailure | null> {
  return claimUnique(
    {
      ...keys.customDomain(host),
      ...keys.domainCheckIndex(firstCheckAt, host),
      entity: 'CustomDomain',
      host,
      userId,
      status: 'pending',
      createdAt: now,
    },
    {
      ...keys.userCustomDomain(userId),
      entity: 'UserDomain',
      host,
      token,
      status: 'pending',
      problems: [],
      createdAt: now,
      nextCheckAt: firstCheckAt,
      failedChecks: 0,
    },
  );
}

export interface CheckOutcome {
  readonly status: CustomDomainStatus;
  readonly problems: readonly RecordProblem[];
  readonly checkedAt: number;
  /** null: no further scheduled check (verified or failed) */
  readonly nextCheckAt: number | null;
  readonly failedChecks: number;
}

const profileOption = (userId: string, option: CustomDomainOption): TransactItems[number] => ({
  Update: {
    TableName: table(),
    Key: keys.userProfile(userId),
    UpdateExpression: 'SET customDomainOption = :o',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':o': option },
  },
});

/**
 * D4: a check's result on both sides of the claim (only while `userId` still holds `host`);
 * a verified host also sets the profile's customDomainOption and queues its CDN tenant.
 * False when the claim was released meanwhile.
 */
export async function saveCheck(userId: string, host: string, r: CheckOutcome): Promise<boolean> {
  const queue =
    r.nextCheckAt !== null
      ? { ':gpk': keys.domainCheckPartition, ':gsk': keys.domainCheckIndex(r.nextCheckAt, host).gsi2sk }
      : {};
  const items: TransactItems = [
    {
      Update: {
        TableName: table(),
        Key: keys.customDomain(host),
        UpdateExpression: `SET #s = :s, checkedAt = :c${r.nextCheckAt !== null ? ', gsi2pk = :gpk, gsi2sk = :gsk' : ' REMOVE gsi2pk, gsi2sk'}`,
        ConditionExpression: 'userId = :u',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': r.status, ':c': r.checkedAt, ':u': userId, ...queue },
      },
    },
    {
      Update: {
        TableName: table(),
        Key: keys.userCustomDomain(userId),
        UpdateExpression: `SET #s = :s, checkedAt = :c, problems = :p, failedChecks = :f${r.nextCheckAt !== null ? ', nextCheckAt = :n' : ' REMOVE nextCheckAt'}`,
        ConditionExpression: 'host = :h',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':s': r.status,
          ':c': r.checkedAt,
          ':p': r.problems.map((p) => ({ ...p })),
          ':f': r.failedChecks,
          ':h': host,
          ...(r.nextCheckAt !== null ? { ':n': r.nextCheckAt } : {}),
        },
      },
    },
  ];
  if (r.status === 'verified') {
    items.push(profileOption(userId, 'custom'));
    items.push({
      Put: {
        TableName: table(),
        Item: {
          ...keys.domainTenant(host),
          ...keys.tenantSyncIndex(r.checkedAt, host),
          entity: 'DomainTenant',
          host,
          want: 'present',
          queuedAt: r.checkedAt,
        },
      },
    });
  }
  // Any cancellation (a failed condition, or a release racing it) drops the result, as a released claim does.
  return transact(items, isTransactionCancelled);
}

/**
 * D5: releases the caller's domain: both sides of the claim go, the profile's option returns to
 * 'standard' and a tenant, if one was made, is queued for deletion. Returns the released host.
 */
export async function releaseDomain(userId: string, now: number): Promise<string | undefined> {
  const mine = await getUserDomain(userId);
  if (!mine) return undefined;
  await ddb().transactWrite({
    TransactItems: [
      {
        Delete: {
          TableName: table(),
          Key: keys.customDomain(mine.host),
          ConditionExpression: 'attribute_not_exists(pk) OR userId = :u',
          ExpressionAttributeValues: { ':u': userId },
        },
      },
      {
        Delete: {
          TableName: table(),
          Key: keys.userCustomDomain(userId),
          ConditionExpression: 'host = :h',
          ExpressionAttributeValues: { ':h': mine.host },
        },
      },
      profileOption(userId, 'standard'),
    ],
  });
  // The tenant's deletion is queued apart: most released domains never had one (never verified).
  await conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.domainTenant(mine.host),
      UpdateExpression: 'SET want = :absent, queuedAt = :now, gsi2pk = :gpk, gsi2sk = :gsk REMOVE gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':absent': 'absent',
        ':now': now,
        ':gpk': keys.tenantSyncPartition,
        ':gsk': keys.tenantSyncIndex(now, mine.host).gsi2sk,
      },
    }),
  );
  return mine.host;
}

/** D6: pending claims whose scheduled check is due, oldest first. */
export async function dueDomainChecks(now: number, limit: number): Promise<{ host: string; userId: string }[]> {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p AND gsi2sk <= :upTo',
    ExpressionAttributeValues: { ':p': keys.domainCheckPartition, ':upTo': keys.domainCheckUpTo(now) },
    Limit: limit,
  });
  return (out.Items ?? []).flatMap((i) =>
    typeof i.host === 'string' && typeof i.userId === 'string' ? [{ host: i.host, userId: i.userId }] : [],
  );
}

export interface TenantRecord {
  readonly host: string;
  readonly want: 'present' | 'absent';
  /** the provider's tenant id once created */
  readonly tenantId?: string;
  /** the provider's ETag of the tenant (CloudFront needs it to delete) */
  readonly etag?: string;
}

function tenantOf(i: Record<string, unknown> | undefined): TenantRecord | undefined {
  if (!i || typeof i.host !== 'string') return undefined;
  return {
    host: i.host,
    want: i.want === 'absent' ? 'absent' : 'present',
    ...(typeof i.tenantId === 'string' ? { tenantId: i.tenantId } : {}),
    ...(typeof i.etag === 'string' ? { etag: i.etag } : {}),
  };
}

/** D7: the CDN tenant record of a host. */
export async function getTenant(host: string): Promise<TenantRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.domainTenant(host), ConsistentRead: true });
  return tenantOf(out.Item);
}

/** D8: tenants waiting to be created or deleted, oldest first. */
export async function queuedTenants(limit: number): Promise<TenantRecord[]> {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.tenantSyncPartition },
    Limit: limit,
  });
  return (out.Items ?? []).flatMap((i) => tenantOf(i) ?? []);
}

/** D9: a created tenant (leaves the queue), unless the host was released meanwhile. */
export async function tenantCreated(host: string, tenantId: string, etag: string | undefined): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.domainTenant(host),
      UpdateExpression: `SET tenantId = :id${etag ? ', etag = :etag' : ''}, gsi1pk = :spk, gsi1sk = :ssk REMOVE gsi2pk, gsi2sk`,
      ConditionExpression: 'want = :present',
      ExpressionAttributeValues: {
        ':id': tenantId,
        ':present': 'present',
        ':spk': keys.servedHostPartition,
        ':ssk': keys.servedHostIndex(host).gsi1sk,
        ...(etag ? { ':etag': etag } : {}),
      },
    }),
  );
}

/** D9: a deleted tenant's record goes, unless the host was claimed and verified again meanwhile. */
export async function tenantDeleted(host: string): Promise<void> {
  await conditionalWrite(() =>
    ddb().delete({
      TableName: table(),
      Key: keys.domainTenant(host),
      ConditionExpression: 'want = :absent',
      ExpressionAttributeValues: { ':absent': 'absent' },
    }),
  );
}

/**
 * D14: every host the app is served on (tenant made and still wanted), for the buckets' CORS.
 * One small partition read whole, page by page (about 60 bytes a host).
 */
export async function servedHosts(): Promise<string[]> {
  const hosts: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().query({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': keys.servedHostPartition },
      ProjectionExpression: 'host',
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    for (const i of out.Items ?? []) if (typeof i.host === 'string') hosts.push(i.host);
    start = out.LastEvaluatedKey;
  } while (start);
  return hosts;
}

/** The host of a verified claim whose tenant exists: what a web server may serve the app on. */
export async function servedCustomHost(host: string): Promise<boolean> {
  const h = normalizeHost(host);
  const [owner, tenant] = await Promise.all([liveDomainOwner(h), getTenant(h)]);
  return owner !== undefined && tenant?.want === 'present' && tenant.tenantId !== undefined;
}
