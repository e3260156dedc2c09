/**
 * Billing in the single table (docs/data-model.md patterns B1-B7): the billing fields
 * on the user's profile, the customer -> user lookup, processed webhook events and lifetime
 * codes. The simulated provider's own customers, subscriptions and invoices are its items
 * (functions/adapters/payments/simulated/), not these.
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalWrite, table, transact } from './base';
import { isLive, keys, ttlIn } from './keys';
import type { BillingState } from '../domain/billing';
import type { Role } from '../domain/plans';

/** How long a processed event id is remembered: Stripe retries an event for up to 3 days. */
export const EVENT_MEMORY_SECONDS = 30 * 86_400;

// ---- B1: customer -> user ----------------------------------------------------------------------

/** The account a provider customer belongs to, if linked. */
export async function userIdByCustomer(customerId: string): Promise<string | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.stripeCustomer(customerId), ConsistentRead: true });
  return typeof out.Item?.userId === 'string' ? out.Item.userId : undefined;
}

/**
 * Links a customer to a user once (condition: not linked yet, or to this user). False when
 * the customer already belongs to another account: nothing changes.
 */
export async function linkCustomer(customerId: string, userId: string, now: number): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: { ...keys.stripeCustomer(customerId), entity: 'StripeCustomer', userId, linkedAt: now },
      ConditionExpression: 'attribute_not_exists(pk) OR userId = :u',
      ExpressionAttributeValues: { ':u': userId },
    }),
  );
}

/** The user's customer id, once: set only while the profile has none (or this one). */
export async function setStripeId(userId: string, customerId: string): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.userProfile(userId),
      UpdateExpression: 'SET stripeId = :c',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(stripeId) OR stripeId = :c)',
      ExpressionAttributeValues: { ':c': customerId },
    }),
  );
}

// ---- B2: processed events ------------------------------------------------------------------------

/** Claims a webhook event by id (conditional put). False when it was processed already. */
export async function claimEvent(eventId: string, type: string, now: number): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: {
        ...keys.paymentEvent(eventId),
        entity: 'PaymentEvent',
        type,
        processedAt: now,
        ttl: ttlIn(EVENT_MEMORY_SECONDS, now),
      },
      // an expired item (DynamoDB deletes lazily) no longer counts
      ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':now': Math.floor(now / 1000) },
    }),
  );
}

/** Gives a claim back when processing failed, so the provider's retry is processed. */
export async function releaseEvent(eventId: string): Promise<void> {
  await ddb().delete({ TableName: table(), Key: keys.paymentEvent(eventId) });
}

export async function eventProcessed(eventId: string, now = Date.now()): Promise<boolean> {
  const out = await ddb().get({ TableName: table(), Key: keys.paymentEvent(eventId), ConsistentRead: true });
  return isLive(out.Item, now);
}

// ---- B3: the billing state on the profile --------------------------------------------------------

/** What the write was conditioned on: the stored state time and code count it was decided from. */
export interface ReadVersion {
  readonly billingUpdatedAt: number | null;
  readonly sumoCodes: number;
}

function versionCondition(v: ReadVersion, values: Record<string, unknown>): string {
  const parts = ['attribute_exists(pk)'];
  if (v.billingUpdatedAt === null) parts.push('attribute_not_exists(billingUpdatedAt)');
  else {
    parts.push('billingUpdatedAt = :readAt');
    values[':readAt'] = v.billingUpdatedAt;
  }
  if (v.sumoCodes === 0) parts.push('(attribute_not_exists(sumoCodes) OR sumoCodes = :zero)');
  else parts.push('sumoCodes = :readCodes');
  values[v.sumoCodes === 0 ? ':zero' : ':readCodes'] = v.sumoCodes;
  return parts.join(' AND ');
}

/**
 * Stores a subscription state and the enforced role it gives, only if the profile is still as
 * read (optimistic: a concurrent event or redeemed code makes the caller read and decide again).
 * False when the profile changed meanwhile.
 */
export async function putBillingState(
  userId: string,
  state: BillingState,
  role: Role,
  read: ReadVersion,
): Promise<boolean> {
  const values: Record<string, unknown> = {
    ':role': role,
    ':subRole': state.subscriptionRole,
    ':status': state.status,
    ':stripeId': state.stripeId,
    ':subId': state.subscriptionId,
    ':cancel': state.cancelAtPeriodEnd,
    ':at': state.at,
  };
  const sets = [
    '#role = :role',
    'subscriptionRole = :subRole',
    '#status = :status',
    'stripeId = :stripeId',
    'subscriptionId = :subId',
    'cancelAtPeriodEnd = :cancel',
    'billingUpdatedAt = :at',
  ];
  const removes: string[] = [];
  const optional: [string, unknown][] = [
    ['priceId', state.priceId],
    ['period', state.period],
    ['trialEnd', state.trialEnd],
    ['periodEnd', state.periodEnd],
    ['card', state.card],
  ];
  const names: Record<string, string> = { '#role': 'role', '#status': 'status' };
  for (const [field, value] of optional) {
    names[`#${field}`] = field;
    if (value === null || value === undefined) removes.push(`#${field}`);
    else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  const condition = versionCondition(read, values);
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.userProfile(userId),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/** B4: the first non-zero paid invoice starts the refund window; later ones change nothing. */
export async function setFirstCharge(userId: string, at: number): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.userProfile(userId),
    UpdateExpression: 'SET firstChargeAt = if_not_exists(firstChargeAt, :at)',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':at': at },
  });
}

/** After a refund: the window is used, so it is not offered again for this account. */
export async function clearFirstCharge(userId: string): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.userProfile(userId),
    UpdateExpression: 'REMOVE firstChargeAt',
    ConditionExpression: 'attribute_exists(pk)',
  });
}

// ---- B5-B7: lifetime codes -----------------------------------------------------------------------

export interface SumoCodeItem {
  readonly codeHash: string;
  readonly batch: string;
  readonly createdAt: number;
  readonly redeemedBy?: string;
  readonly redeemedAt?: number;
}

/** B5: a new code (condition: its hash is new). False on the (never seen) collision. */
export async function putSumoCode(codeHash: string, batch: string, now: number): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: { ...keys.sumoCode(codeHash), entity: 'SumoCode', batch, createdAt: now },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getSumoCode(codeHash: string): Promise<SumoCodeItem | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.sumoCode(codeHash), ConsistentRead: true });
  if (!out.Item) return undefined;
  const i = out.Item;
  return {
    codeHash,
    batch: String(i.batch ?? ''),
    createdAt: Number(i.createdAt ?? 0),
    ...(typeof i.redeemedBy === 'string' ? { redeemedBy: i.redeemedBy } : {}),
    ...(typeof i.redeemedAt === 'number' ? { redeemedAt: i.redeemedAt } : {}),
  };
}

/**
 * B6: redeems a code for a user in one transaction: the code is claimed (it exists and nobody
 * redeemed it) and the user's count goes from `read.sumoCodes` to +1 with the role it gives
 * (condition: the profile is as read; the read count is under `max`). False when either condition
 * failed; the caller reads again to say which.
 */
export async function redeemSumoCode(
  userId: string,
  codeHash: string,
  role: Role,
  read: ReadVersion,
  max: number,
  now: number,
): Promise<boolean> {
  // The count read is the condition (versionCondition), so checking it here bounds the write.
  if (read.sumoCodes + 1 > max) return false;
  const values: Record<string, unknown> = { ':role': role, ':next': read.sumoCodes + 1 };
  const condition = versionCondition(read, values);
  return transact([
    {
      Update: {
        TableName: table(),
        Key: keys.sumoCode(codeHash),
        UpdateExpression: 'SET redeemedBy = :u, redeemedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(redeemedBy)',
        ExpressionAttributeValues: { ':u': userId, ':now': now },
      },
    },
    {
      Update: {
        TableName: table(),
        Key: keys.userProfile(userId),
        UpdateExpression: 'SET sumoCodes = :next, #role = :role',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: values,
      },
    },
  ]);
}
