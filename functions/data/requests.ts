/**
 * File requests in the single table (docs/data-model.md patterns 60-65): the request
 * under `REQUEST#<id>/REQUEST` (in gsi1 under `REQUESTS#<owner sub>` by creation time), and one
 * item per finished upload under `REQUEST#<id>/UPLOAD#<slug>`. An upload's files are a transfer
 * (data/transfers.ts, `requestId` set); the request's counters move in the same transaction
 * as the upload item that they count.
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalUpdate, conditionalWrite, queryAll, table, transact } from './base';
import { keys } from './keys';
import type { TransferRecord } from './transfers';
import { requestRulesSchema, type RequestRules, type RequestUpload } from '../domain/requests-api';

export interface RequestRecord {
  readonly id: string;
  readonly ownerId: string;
  readonly title: string;
  readonly message: string;
  /** epoch ms; null: none */
  readonly dueDate: number | null;
  readonly rules: RequestRules;
  readonly closed: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** finished uploads listed under the request now */
  readonly uploadCount: number;
  readonly totalBytes: number;
  readonly lastUploadAt: number | null;
}

/** An upload as stored under its request: the listed upload without its files, plus the request's id. */
export interface RequestUploadRecord extends Omit<RequestUpload, 'files'> {
  readonly requestId: string;
}

const num = (v: unknown, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

function requestFromItem(i: Record<string, unknown>): RequestRecord {
  return {
    id: String(i.id),
    ownerId: String(i.ownerId),
    title: String(i.title ?? ''),
    message: String(i.message ?? ''),
    dueDate: typeof i.dueDate === 'number' ? i.dueDate : null,
    rules: requestRulesSchema.safeParse(i.rules ?? {}).data ?? {},
    closed: i.closed === true,
    createdAt: num(i.createdAt),
    updatedAt: num(i.updatedAt, num(i.createdAt)),
    uploadCount: Math.max(0, num(i.uploadCount)),
    totalBytes: Math.max(0, num(i.totalBytes)),
    lastUploadAt: typeof i.lastUploadAt === 'number' ? i.lastUploadAt : null,
  };
}

function uploadFromItem(i: Record<string, unknown>): RequestUploadRecord {
  return {
    requestId: String(i.requestId),
    slug: String(i.slug),
    senderName: String(i.senderName ?? ''),
    senderEmail: String(i.senderEmail ?? ''),
    message: String(i.message ?? ''),
    uploadedAt: num(i.uploadedAt),
    expiryDate: num(i.expiryDate),
    fileCount: num(i.fileCount),
    totalBytes: num(i.totalBytes),
  };
}

/** Pattern 60: a new request. False when the id is taken (the caller draws another). */
export async function createRequest(r: RequestRecord): Promise<boolean> {
  const { dueDate, lastUploadAt, ...rest } = r;
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: {
        ...keys.request(r.id),
        ...keys.userRequests(r.ownerId, r.createdAt, r.id),
        entity: 'Request',
        ...rest,
        ...(dueDate !== null ? { dueDate } : {}),
        ...(lastUploadAt !== null ? { lastUploadAt } : {}),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Pattern 61 */
export async function getRequest(id: string): Promise<RequestRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.request(id), ConsistentRead: true });
  return out.Item && out.Item.entity === 'Request' ? requestFromItem(out.Item) : undefined;
}

/** Pattern 62: a user's requests, newest first (at most `limit`). */
export async function listUserRequests(ownerId: string, limit: number): Promise<RequestRecord[]> {
  const items = await queryAll(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.userRequestsPartition(ownerId) },
      ScanIndexForward: false,
    },
    limit,
  );
  return items.map(requestFromItem);
}

export interface RequestEdit {
  readonly closed?: boolean;
  readonly title?: string;
  readonly message?: string;
  /** null removes the due date */
  readonly dueDate?: number | null;
  readonly rules?: RequestRules;
}

/** Pattern 63: the owner's edit (close, reopen, text, due date, rules). Undefined when the request is not the owner's or is gone. */
export async function updateRequest(
  id: string,
  ownerId: string,
  edit: RequestEdit,
  now: number,
): Promise<RequestRecord | undefined> {
  const sets = ['updatedAt = :now'];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now, ':owner': ownerId };
  for (const field of ['closed', 'title', 'message', 'dueDate', 'rules'] as const) {
    const value = edit[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) removes.push(`#${field}`);
    else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  const out = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key: keys.request(id),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND ownerId = :owner',
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return out ? requestFromItem(out) : undefined;
}

/**
 * Pattern 64: a visitor's upload is complete. In one transaction: its transfer moves
 * uploading -> ready (dates, totals, into the sweep's index; never into a sender's list), the
 * upload item is written under the request, and the request's counters grow. False when the
 * transfer was not uploading any more (a repeated completion changes nothing).
 */
export async function finishUpload(
  t: Pick<TransferRecord, 'slug' | 'requestId'>,
  upload: RequestUploadRecord,
): Promise<boolean> {
  if (!t.requestId) throw new Error(`finishUpload: ${t.slug} is not a request upload`);
  const sets: Record<string, unknown> = {
    dateSent: upload.uploadedAt,
    expiryDate: upload.expiryDate,
    fileCount: upload.fileCount,
    totalBytes: upload.totalBytes,
    sweepDueAt: upload.expiryDate,
    ...keys.sweepIndex(upload.expiryDate, t.slug),
  };
  const names = Object.keys(sets);
  return transact([
    {
      Update: {
        TableName: table(),
        Key: keys.transfer(t.slug),
        UpdateExpression: `SET #s = :ready, ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
        ConditionExpression: '#s = :uploading AND requestId = :rid',
        ExpressionAttributeNames: { '#s': 'status', ...Object.fromEntries(names.map((n, i) => [`#a${i}`, n])) },
        ExpressionAttributeValues: {
          ':ready': 'ready',
          ':uploading': 'uploading',
          ':rid': t.requestId,
          ...Object.fromEntries(names.map((n, i) => [`:v${i}`, sets[n]])),
        },
      },
    },
    {
      Put: {
        TableName: table(),
        Item: { ...keys.requestUpload(t.requestId, t.slug), entity: 'RequestUpload', ...upload },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: table(),
        Key: keys.request(t.requestId),
        UpdateExpression: 'SET lastUploadAt = :at ADD uploadCount :one, totalBytes :b',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': upload.uploadedAt, ':one': 1, ':b': upload.totalBytes },
      },
    },
  ]);
}

/** Pattern 65: the finished uploads of a request (newest first, at most `limit`). */
export async function listUploads(requestId: string, limit: number): Promise<RequestUploadRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.request(requestId).pk, ':p': keys.requestUploadPrefix },
    ConsistentRead: true,
  });
  return items
    .map(uploadFromItem)
    .sort((a, b) => b.uploadedAt - a.uploadedAt || a.slug.localeCompare(b.slug))
    .slice(0, limit);
}

export async function getUpload(requestId: string, slug: string): Promise<RequestUploadRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.requestUpload(requestId, slug), ConsistentRead: true });
  return out.Item ? uploadFromItem(out.Item) : undefined;
}

/**
 * Pattern 64b: an upload leaves its request (the owner deleted it, or the sweep purged its files):
 * the upload item goes and the request's counters drop, in one transaction conditioned on the
 * item being there, so a second removal changes nothing (false).
 */
export async function removeUpload(requestId: string, slug: string): Promise<boolean> {
  const upload = await getUpload(requestId, slug);
  if (!upload) return false;
  return transact([
    {
      Delete: {
        TableName: table(),
        Key: keys.requestUpload(requestId, slug),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    {
      Update: {
        TableName: table(),
        Key: keys.request(requestId),
        UpdateExpression: 'ADD uploadCount :minus, totalBytes :b',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':minus': -1, ':b': -upload.totalBytes },
      },
    },
  ]);
}
