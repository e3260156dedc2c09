/**
 * Transfers in the single table (docs/data-model.md, patterns 4-16): the transfer item, its
 * files, the finished parts of multipart uploads, its download records and its ZIP builds,
 * all under `pk=TRANSFER#<slug>`. One exported function per access pattern.
 */
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../lib/clients';
import { config } from '../lib/env';
import { isLive, keys } from './keys';
import type { RegionId } from '../domain/regions';
import type { SendAs } from '../domain/validation';
import type { TransferStatus, UploadMode } from '../domain/transfer-api';

export interface TransferRecipient {
  readonly email: string;
  readonly recipientId: string;
  readonly name?: string;
}

export interface TransferRecord {
  readonly slug: string;
  readonly status: TransferStatus;
  readonly region: RegionId;
  /** guest transfers live in the region's anon bucket */
  readonly anon: boolean;
  readonly sendAs: SendAs;
  readonly senderId?: string;
  readonly senderEmail: string;
  readonly senderName?: string;
  readonly message: string;
  readonly lang: string;
  readonly recipients: readonly TransferRecipient[];
  readonly shareWith: readonly string[];
  readonly passwordHash?: string;
  readonly uploadTokenHash: string;
  /** the upload token (and resume) stop working after this (epoch ms) */
  readonly uploadTokenExpiresAt: number;
  readonly fileCount: number;
  readonly totalBytes: number;
  readonly createdAt: number;
  readonly dateSent?: number;
  readonly expirySeconds: number;
  readonly customExpiryDate?: number;
  readonly expiryDate: number;
  readonly totalDownloads: number;
  /** set once the sweep deleted the objects */
  readonly purged?: boolean;
  /** when the sweep should look at it next (mirrors gsi2sk); absent when nothing is due */
  readonly sweepDueAt?: number;
  /** signed-in sends: whose storage the bytes count against, how many, and the month of the send */
  readonly storageOwner?: string;
  readonly reservedBytes?: number;
  readonly sendMonth?: string;
  /** set once the reservation was given back */
  readonly storageReleased?: boolean;
}

export interface FileRecord {
  readonly slug: string;
  readonly fileId: string;
  readonly fileName: string;
  readonly itemPath?: string;
  readonly size: number;
  /** generated storage key; uploaded names are never keys */
  readonly key: string;
  readonly mode: UploadMode;
  readonly uploadId?: string;
  readonly partSize?: number;
  readonly partCount?: number;
  readonly status: 'pending' | 'uploaded';
  readonly createdAt: number;
}

export interface PartRecord {
  readonly partNumber: number;
  readonly etag: string;
  readonly size: number;
}

const table = () => config().tableName;

const STRIP = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk', 'entity', 'ttl'];
function strip<T>(item: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...item };
  for (const k of STRIP) delete out[k];
  return out as T;
}

export function isConditionFailure(err: unknown): boolean {
  return err instanceof ConditionalCheckFailedException || (err as { name?: string })?.name === 'ConditionalCheckFailedException';
}

async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await dynamo().send(new QueryCommand({ TableName: table(), ...input, ExclusiveStartKey }));
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/** BatchWrite in 25s, retrying unprocessed items with a short backoff. */
async function batchWrite(all: readonly WriteRequest[]): Promise<void> {
  for (let i = 0; i < all.length; i += 25) {
    let requests = all.slice(i, i + 25);
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt > 8) throw new Error('BatchWrite left unprocessed items');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out = await dynamo().send(new BatchWriteCommand({ RequestItems: { [table()]: [...requests] } }));
      requests = (out.UnprocessedItems?.[table()] ?? []) as WriteRequest[];
    }
  }
}

const batchPut = (items: Record<string, unknown>[]) => batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
const batchDelete = (keyList: readonly Record<string, unknown>[]) => batchWrite(keyList.map((Key) => ({ DeleteRequest: { Key } })));

function fileItem(f: FileRecord): Record<string, unknown> {
  return { ...keys.transferFile(f.slug, f.fileId), entity: 'TransferFile', ...f };
}

/** Pattern 4: create a transfer and its files. False when the slug is taken (caller retries). */
export async function createTransfer(t: TransferRecord, files: readonly FileRecord[]): Promise<boolean> {
  const item: Record<string, unknown> = { ...keys.transfer(t.slug), entity: 'Transfer', ...t };
  if (t.senderId) Object.assign(item, keys.userTransfers(t.senderId, t.createdAt, t.slug));
  if (t.sweepDueAt !== undefined) Object.assign(item, keys.sweepIndex(t.sweepDueAt, t.slug));
  try {
    await dynamo().send(new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
  await batchPut(files.map(fileItem));
  return true;
}

/** Pattern 5 */
export async function getTransfer(slug: string): Promise<TransferRecord | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.transfer(slug), ConsistentRead: true }));
  return out.Item && isLive(out.Item) ? strip<TransferRecord>(out.Item) : undefined;
}

/** Pattern 6: all files of a transfer (any status). */
export async function listFiles(slug: string): Promise<FileRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.filePrefix },
    ConsistentRead: true,
  });
  return items.map((i) => strip<FileRecord>(i)).sort((a, b) => a.createdAt - b.createdAt || a.fileId.localeCompare(b.fileId));
}

export async function getFile(slug: string, fileId: string): Promise<FileRecord | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.transferFile(slug, fileId), ConsistentRead: true }));
  return out.Item ? strip<FileRecord>(out.Item) : undefined;
}

/** Pattern 7: add files to an existing transfer, with a new upload token. */
export async function addFiles(slug: string, files: readonly FileRecord[], uploadTokenHash: string, uploadTokenExpiresAt: number): Promise<void> {
  await batchPut(files.map(fileItem));
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.transfer(slug),
      UpdateExpression: 'SET uploadTokenHash = :h, uploadTokenExpiresAt = :e',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':h': uploadTokenHash, ':e': uploadTokenExpiresAt },
    }),
  );
}

/** Removes file items (and their parts) of files that were cancelled before they finished. */
export async function deleteFiles(slug: string, fileIds: readonly string[]): Promise<void> {
  for (const fileId of fileIds) {
    const parts = await listParts(slug, fileId);
    await batchDelete([keys.transferFile(slug, fileId), ...parts.map((p) => keys.transferPart(slug, fileId, p.partNumber))]);
  }
}

/**
 * A pending file whose stored object was wrong starts over: its recorded parts go, and a
 * multipart file gets the new upload id. Returns false when the file is no longer pending.
 */
export async function resetFileUpload(slug: string, fileId: string, uploadId: string | undefined): Promise<boolean> {
  const parts = await listParts(slug, fileId);
  await batchDelete(parts.map((p) => keys.transferPart(slug, fileId, p.partNumber)));
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.transferFile(slug, fileId),
        UpdateExpression: uploadId ? 'SET uploadId = :id' : 'SET #s = :p',
        ConditionExpression: '#s = :p',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':p': 'pending', ...(uploadId ? { ':id': uploadId } : {}) },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Pattern 8: record a finished part (a re-upload of the same part overwrites it). */
export async function putPart(slug: string, fileId: string, part: PartRecord): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: { ...keys.transferPart(slug, fileId, part.partNumber), entity: 'TransferPart', fileId, ...part },
    }),
  );
}

/** Pattern 9: the recorded parts of one file, in part order. */
export async function listParts(slug: string, fileId: string): Promise<PartRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.partPrefix(fileId) },
    ConsistentRead: true,
  });
  return items.map((i) => ({ partNumber: Number(i.partNumber), etag: String(i.etag), size: Number(i.size) }));
}

export async function markFileUploaded(slug: string, fileId: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET #s = :u',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':u': 'uploaded' },
    }),
  );
}

/**
 * Pattern 10: the send is complete. Moves uploading -> ready once (true) and always refreshes
 * the totals; a later call (after add-files) only updates the totals (false).
 */
export async function markSent(
  slug: string,
  v: { dateSent: number; expiryDate: number; fileCount: number; totalBytes: number },
): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.transfer(slug),
        UpdateExpression: 'SET #s = :ready, dateSent = :d, expiryDate = :x, fileCount = :n, totalBytes = :b, sweepDueAt = :x, gsi2pk = :gpk, gsi2sk = :gsk',
        ConditionExpression: '#s = :uploading',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':ready': 'ready',
          ':uploading': 'uploading',
          ':d': v.dateSent,
          ':x': v.expiryDate,
          ':n': v.fileCount,
          ':b': v.totalBytes,
          ':gpk': keys.sweepPartition,
          ':gsk': keys.sweepIndex(v.expiryDate, slug).gsi2sk,
        },
      }),
    );
    return true;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.transfer(slug),
      UpdateExpression: 'SET fileCount = :n, totalBytes = :b',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':n': v.fileCount, ':b': v.totalBytes },
    }),
  );
  return false;
}

/** Pattern 11: status change with an optional new sweep due time (undefined removes it from the sweep). */
export async function setStatus(
  slug: string,
  status: TransferStatus,
  opts: { from?: readonly TransferStatus[]; sweepDueAt?: number; purged?: boolean; expectedSweepDueAt?: number } = {},
): Promise<boolean> {
  const names: Record<string, string> = { '#s': 'status' };
  const values: Record<string, unknown> = { ':s': status };
  const sets = ['#s = :s'];
  const removes: string[] = [];
  if (opts.sweepDueAt === undefined) removes.push('sweepDueAt', 'gsi2pk', 'gsi2sk');
  else {
    sets.push('sweepDueAt = :due', 'gsi2pk = :gpk', 'gsi2sk = :gsk');
    Object.assign(values, { ':due': opts.sweepDueAt, ':gpk': keys.sweepPartition, ':gsk': keys.sweepIndex(opts.sweepDueAt, slug).gsi2sk });
  }
  if (opts.purged !== undefined) {
    sets.push('purged = :p');
    values[':p'] = opts.purged;
  }
  const conditions = ['attribute_exists(pk)'];
  if (opts.from) {
    conditions.push(`#s IN (${opts.from.map((_, i) => `:f${i}`).join(', ')})`);
    opts.from.forEach((f, i) => (values[`:f${i}`] = f));
  }
  if (opts.expectedSweepDueAt !== undefined) {
    conditions.push('sweepDueAt = :expDue');
    values[':expDue'] = opts.expectedSweepDueAt;
  }
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.transfer(slug),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Pattern 12: an approved extension: new expiry, back to ready, sweep due at the new expiry. Fails once purged. */
export async function extendExpiry(slug: string, expiryDate: number): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.transfer(slug),
        UpdateExpression: 'SET #s = :ready, expiryDate = :x, sweepDueAt = :x, gsi2pk = :gpk, gsi2sk = :gsk',
        ConditionExpression: 'attribute_exists(pk) AND #s IN (:ready, :expired) AND attribute_not_exists(purged)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':ready': 'ready',
          ':expired': 'expired',
          ':x': expiryDate,
          ':gpk': keys.sweepPartition,
          ':gsk': keys.sweepIndex(expiryDate, slug).gsi2sk,
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export interface ZipRecord {
  readonly contentHash: string;
  readonly status: 'building' | 'ready' | 'failed';
  readonly key: string;
  readonly startedAt: number;
  readonly size?: number;
  readonly error?: string;
}

/** Pattern 15 */
export async function getZip(slug: string, contentHash: string): Promise<ZipRecord | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: keys.transferZip(slug, contentHash), ConsistentRead: true }));
  return out.Item ? strip<ZipRecord>(out.Item) : undefined;
}

/**
 * Claims the build of a ZIP: succeeds when there is no record, or the previous attempt failed or
 * is older than `staleBefore` (a crashed build). Two concurrent clicks start one build.
 */
export async function claimZipBuild(slug: string, z: ZipRecord, staleBefore: number): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...keys.transferZip(slug, z.contentHash), entity: 'TransferZip', slug, ...z },
        ConditionExpression: 'attribute_not_exists(pk) OR #s = :failed OR (#s = :building AND startedAt < :stale)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed', ':building': 'building', ':stale': staleBefore },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function finishZip(slug: string, contentHash: string, result: { status: 'ready'; size: number } | { status: 'failed'; error: string }): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.transferZip(slug, contentHash),
      UpdateExpression: result.status === 'ready' ? 'SET #s = :s, size = :v' : 'SET #s = :s, #e = :v',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: result.status === 'ready' ? { '#s': 'status' } : { '#s': 'status', '#e': 'error' },
      ExpressionAttributeValues: { ':s': result.status, ':v': result.status === 'ready' ? result.size : result.error },
    }),
  );
}

export async function listZips(slug: string): Promise<ZipRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.zipPrefix },
  });
  return items.map((i) => strip<ZipRecord>(i));
}

/** Pattern 16: transfers whose next expiry step is due, oldest first, one page. */
export async function listSweepDue(now: number, limit: number, startKey?: Record<string, unknown>) {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p AND gsi2sk <= :upTo',
      ExpressionAttributeValues: { ':p': keys.sweepPartition, ':upTo': keys.sweepUpTo(now) },
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { slugs: (out.Items ?? []).map((i) => String(i.pk).replace(/^TRANSFER#/u, '')), next: out.LastEvaluatedKey };
}
