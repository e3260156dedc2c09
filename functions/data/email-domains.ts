/**
 * Sender email domains in the single table (docs/data-model.md D10-D12): the claim
 * `MAILDOMAIN#<domain>/CLAIM` (one account per domain, as SES keeps one identity per domain
 * per account) and the user's side `USER#<id>/MAILDOMAIN` with the identity's DKIM tokens and
 * its last known status (spec §3 pmDomain {ID, DKIMUpdateStatus}).
 */
import { ddb } from '../lib/clients/dynamodb';
import { claimUnique, table } from './base';
import { keys } from './keys';
import type { DkimStatus } from '../domain/custom-domains';

export interface UserEmailDomain {
  readonly domain: string;
  readonly dkimTokens: readonly string[];
  readonly status: DkimStatus;
  readonly createdAt: number;
  readonly checkedAt?: number;
}

/** D10: the user's sender domain. */
export async function getUserEmailDomain(userId: string): Promise<UserEmailDomain | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.userEmailDomain(userId), ConsistentRead: true });
  const i = out.Item;
  if (!i || typeof i.domain !== 'string') return undefined;
  return {
    domain: i.domain,
    dkimTokens: Array.isArray(i.dkimTokens) ? i.dkimTokens.filter((t): t is string => typeof t === 'string') : [],
    status: (typeof i.status === 'string' ? i.status : 'PENDING') as DkimStatus,
    createdAt: Number(i.createdAt ?? 0),
    ...(typeof i.checkedAt === 'number' ? { checkedAt: i.checkedAt } : {}),
  };
}

/** D11: claims `domain` for `userId` (no one else's, and the user has none yet). */
export async function claimEmailDomain(
  userId: string,
  domain: string,
  now: number,
): Promise<'taken' | 'already_set' | null> {
  return claimUnique(
    { ...keys.emailDomainClaim(domain), entity: 'EmailDomain', domain, userId, createdAt: now },
    {
      ...keys.userEmailDomain(userId),
      entity: 'UserEmailDomain',
      domain,
      dkimTokens: [],
      status: 'NOT_STARTED',
      createdAt: now,
    },
  );
}

/** D10: the identity's tokens and status as SES (or the local adapter) reported them. */
export async function saveEmailDomainState(
  userId: string,
  domain: string,
  tokens: readonly string[],
  status: DkimStatus,
  checkedAt: number,
): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.userEmailDomain(userId),
    UpdateExpression: 'SET dkimTokens = :t, #s = :s, checkedAt = :c',
    ConditionExpression: '#d = :d',
    ExpressionAttributeNames: { '#s': 'status', '#d': 'domain' },
    ExpressionAttributeValues: { ':t': [...tokens], ':s': status, ':c': checkedAt, ':d': domain },
  });
}

/** D12: releases the user's sender domain (both sides); returns it. */
export async function releaseEmailDomain(userId: string): Promise<string | undefined> {
  const mine = await getUserEmailDomain(userId);
  if (!mine) return undefined;
  await ddb().transactWrite({
    TransactItems: [
      {
        Delete: {
          TableName: table(),
          Key: keys.emailDomainClaim(mine.domain),
          ConditionExpression: 'attribute_not_exists(pk) OR userId = :u',
          ExpressionAttributeValues: { ':u': userId },
        },
      },
      { Delete: { TableName: table(), Key: keys.userEmailDomain(userId) } },
    ],
  });
  return mine.domain;
}
