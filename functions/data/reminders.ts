/**
 * Reminders of a transfer's recipients (docs/data-model.md): one item per email transfer,
 * `TRANSFER#<slug>/REMIND`, queued on gsi2 (partition `REMIND`, sorted by when the scheduled
 * reminder is due) while it has work ahead. It keeps who the scheduled reminder mailed (a string
 * set, claimed one address at a time with a condition, so a recipient is mailed once even when
 * two runs overlap) and when each recipient was last reminded (a map, for the dashboard).
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalWrite, queryAll, table } from './base';
import { keys } from './keys';

export interface ReminderRecord {
  readonly slug: string;
  /** when the scheduled reminder is due (epoch ms) */
  readonly dueAt?: number;
  /** in the job's queue (gsi2) */
  readonly queued: boolean;
  /** addresses the scheduled reminder has mailed (or is mailing) */
  readonly reminded: readonly string[];
  /** last reminder per address, scheduled or asked for by the sender (epoch ms) */
  readonly remindedAt: Readonly<Record<string, number>>;
}

/** Puts the reminder in the queue at `dueAt` (creates it, or moves it; who was reminded stays). */
export async function queueReminder(slug: string, dueAt: number): Promise<void> {
  const index = keys.reminderIndex(dueAt, slug);
  await ddb().update({
    TableName: table(),
    Key: keys.reminder(slug),
    UpdateExpression: 'SET entity = :e, slug = :s, dueAt = :d, gsi2pk = :gpk, gsi2sk = :gsk',
    ExpressionAttributeValues: {
      ':e': 'Reminder',
      ':s': slug,
      ':d': dueAt,
      ':gpk': index.gsi2pk,
      ':gsk': index.gsi2sk,
    },
  });
}

export async function getReminder(slug: string): Promise<ReminderRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.reminder(slug), ConsistentRead: true });
  const i = out.Item;
  if (!i) return undefined;
  const reminded = i.reminded instanceof Set ? [...(i.reminded as Set<string>)] : [];
  const remindedAt: Record<string, number> = {};
  if (i.remindedAt && typeof i.remindedAt === 'object') {
    for (const [email, at] of Object.entries(i.remindedAt as Record<string, unknown>))
      if (typeof at === 'number') remindedAt[email] = at;
  }
  return {
    slug,
    ...(typeof i.dueAt === 'number' ? { dueAt: i.dueAt } : {}),
    queued: typeof i.gsi2pk === 'string',
    reminded,
    remindedAt,
  };
}

/** Reminders due by `now`, soonest first, one page (gsi2, partition REMIND). */
export async function listRemindersDue(now: number, limit: number, startKey?: Record<string, unknown>) {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p AND gsi2sk <= :upTo',
    ExpressionAttributeValues: { ':p': keys.reminderPartition, ':upTo': keys.expiryBound(now) },
    Limit: limit,
    ExclusiveStartKey: startKey,
  });
  return { slugs: (out.Items ?? []).map((i) => String(i.slug)), next: out.LastEvaluatedKey };
}

/**
 * Claims one recipient for the scheduled reminder: true for exactly one caller per address,
 * ever (the address joins the `reminded` set under the condition that it is not in it yet).
 */
export async function claimRecipient(slug: string, email: string): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.reminder(slug),
      UpdateExpression: 'ADD reminded :one',
      ConditionExpression: 'attribute_exists(pk) AND NOT contains(reminded, :email)',
      ExpressionAttributeValues: { ':one': new Set([email]), ':email': email },
    }),
  );
}

/** Gives a claim back (its mail could not be sent), so a later run tries again. */
export async function releaseRecipient(slug: string, email: string): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.reminder(slug),
    UpdateExpression: 'DELETE reminded :one',
    ExpressionAttributeValues: { ':one': new Set([email]) },
  });
}

/** Notes when these recipients were reminded (the item is created when missing, outside the queue). */
export async function recordReminded(slug: string, emails: readonly string[], at: number): Promise<void> {
  if (emails.length === 0) return;
  await ddb().update({
    TableName: table(),
    Key: keys.reminder(slug),
    UpdateExpression: 'SET entity = :e, slug = :s, remindedAt = if_not_exists(remindedAt, :empty)',
    ExpressionAttributeValues: { ':e': 'Reminder', ':s': slug, ':empty': {} },
  });
  // 100 addresses per update keeps each expression well inside DynamoDB's limits.
  for (let i = 0; i < emails.length; i += 100) {
    const chunk = emails.slice(i, i + 100);
    await ddb().update({
      TableName: table(),
      Key: keys.reminder(slug),
      UpdateExpression: `SET ${chunk.map((_, j) => `remindedAt.#e${j} = :at`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(chunk.map((email, j) => [`#e${j}`, email])),
      ExpressionAttributeValues: { ':at': at },
    });
  }
}

/**
 * Takes the reminder out of the queue, unless it was moved since it was read (`dueAt` changed:
 * the expiry changed and the new due time stands). True when it was taken out.
 */
export async function unqueueReminder(slug: string, expectedDueAt: number): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.reminder(slug),
      UpdateExpression: 'REMOVE gsi2pk, gsi2sk',
      ConditionExpression: 'dueAt = :d',
      ExpressionAttributeValues: { ':d': expectedDueAt },
    }),
  );
}

/** Moves a queued reminder to a later due time, unless it was moved since it was read. */
export async function requeueReminder(slug: string, expectedDueAt: number, dueAt: number): Promise<boolean> {
  const index = keys.reminderIndex(dueAt, slug);
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.reminder(slug),
      UpdateExpression: 'SET dueAt = :d, gsi2pk = :gpk, gsi2sk = :gsk',
      ConditionExpression: 'dueAt = :expected',
      ExpressionAttributeValues: {
        ':d': dueAt,
        ':expected': expectedDueAt,
        ':gpk': index.gsi2pk,
        ':gsk': index.gsi2sk,
      },
    }),
  );
}

/**
 * Pattern 14 read whole, addresses only: every recipient whose own link was used to download,
 * lower-cased (all pages: a popular transfer has more downloads than the dashboard lists).
 */
export async function downloadedBy(slug: string): Promise<Set<string>> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.downloadPrefix },
    ProjectionExpression: 'receiverEmail',
  });
  return new Set(items.flatMap((i) => (typeof i.receiverEmail === 'string' ? [i.receiverEmail.toLowerCase()] : [])));
}

/** A deleted transfer's reminder goes. */
export async function deleteReminder(slug: string): Promise<void> {
  await ddb().delete({ TableName: table(), Key: keys.reminder(slug) });
}
