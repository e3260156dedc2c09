/**
 * Writes on the transfer item by the TransferModal's actions that data/transfers.ts does not
 * cover (docs/data-model.md): the download password, the expiry choice shown in the modal, and
 * the queue of large forwards waiting for the forward-copy job.
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalUpdate, conditionalWrite, table } from './base';
import { keys } from './keys';

/**
 * Sets (a hash) or removes (null) the download password of a sent transfer whose files are
 * still kept. False when the transfer is gone, deleted or purged meanwhile.
 */
export async function setPasswordHash(slug: string, passwordHash: string | null): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(slug),
      UpdateExpression: passwordHash === null ? 'REMOVE passwordHash' : 'SET passwordHash = :h',
      ConditionExpression: 'attribute_exists(pk) AND #s IN (:ready, :expired) AND attribute_not_exists(purged)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':ready': 'ready',
        ':expired': 'expired',
        ...(passwordHash === null ? {} : { ':h': passwordHash }),
      },
    }),
  );
}

/**
 * The expiry the owner picked (a preset, or the custom-date marker with its date), kept beside
 * the expiryDate that data/transfers.ts changeExpiry wrote, so the TransferModal shows the choice.
 */
export async function setExpiryChoice(
  slug: string,
  expirySeconds: number,
  customExpiryDate: number | undefined,
): Promise<void> {
  await conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(slug),
      UpdateExpression:
        customExpiryDate === undefined
          ? 'SET expirySeconds = :s REMOVE customExpiryDate'
          : 'SET expirySeconds = :s, customExpiryDate = :c',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':s': expirySeconds,
        ...(customExpiryDate === undefined ? {} : { ':c': customExpiryDate }),
      },
    }),
  );
}

/** A forward waiting for the forward-copy job: the copy's slug and [source fileId, copy fileId] pairs. */
export interface QueuedCopy {
  readonly slug: string;
  readonly files: readonly (readonly [string, string])[];
}

/** Queues a forward's copy for the job (its own item beside the copy's record, on gsi2 partition COPY). */
export async function queueCopy(copy: QueuedCopy, now: number): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: {
      ...keys.forwardCopy(copy.slug),
      ...keys.forwardCopyIndex(now, copy.slug),
      entity: 'ForwardCopy',
      slug: copy.slug,
      files: copy.files.map((p) => [...p]),
      queuedAt: now,
    },
  });
}

/** Queued copies, oldest first, one page. */
export async function listQueuedCopies(limit: number, startKey?: Record<string, unknown>) {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p',
    ExpressionAttributeValues: { ':p': keys.forwardCopyPartition },
    Limit: limit,
    ExclusiveStartKey: startKey,
  });
  return { slugs: (out.Items ?? []).map((i) => String(i.slug)), next: out.LastEvaluatedKey };
}

/**
 * Claims a queued copy until `until`: one job run copies it at a time; a run that died leaves a
 * claim that lapses, and a later run takes it over. The queued pairs when claimed, else undefined.
 */
export async function claimCopy(slug: string, now: number, until: number): Promise<QueuedCopy | undefined> {
  const out = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key: keys.forwardCopy(slug),
      UpdateExpression: 'SET claimedUntil = :until',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(claimedUntil) OR claimedUntil < :now)',
      ExpressionAttributeValues: { ':until': until, ':now': now },
      ReturnValues: 'ALL_NEW',
    }),
  );
  if (!out) return undefined;
  const files = out.files;
  if (!Array.isArray(files)) return undefined;
  return {
    slug,
    files: files.filter(
      (p): p is [string, string] => Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'string'),
    ),
  };
}

/** The copy is done (sent, or failed and cleaned up). */
export async function dequeueCopy(slug: string): Promise<void> {
  await ddb().delete({ TableName: table(), Key: keys.forwardCopy(slug) });
}
