/**
 * Transfers in the single table (docs/data-model.md, patterns 4-16): the transfer item, its
 * files, the finished parts of multipart uploads, its download records and its ZIP builds,
 * all under `pk=TRANSFER#<slug>`. One exported function per access pattern.
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalUpdate, conditionalWrite, queryAll, table, transact, type TransactItem } from './base';
import { isLive, keys } from './keys';
import type { RegionId } from '../domain/regions';
import type { SendAs } from '../domain/validation';
import type { TransferStatus, UploadMode } from '../domain/transfer-api';
import type { Recording } from '../domain/previews';
import type { ScanStatus } from '../domain/malware-scan';
import type { RecipientAccessConfig } from '../domain/recipient-access';
import type { ReviewSettings } from '../domain/review';
import type { ReviewCounters } from './reviews';

export interface TransferRecipient {
  readonly email: string;
  readonly recipientId: string;
  readonly name?: string;
}

export interface TransferRecord extends ReviewCounters {
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
  /** the first file's base name (spec §3 creation payload `fileName`), for list rows */
  readonly fileName?: string;
  /** lower-case file names and recipient addresses, what the dashboard's search looks in */
  readonly searchText?: string;
  /** the slug this transfer was forwarded (copied) from */
  readonly forwardedFrom?: string;
  /** when the sender first asked for the transfer's completion (a background file completion finishes it) */
  readonly completeRequestedAt?: number;
  /** a visitor's upload to this file request (storageOwner is the requester; never listed as a send) */
  readonly requestId?: string;
  /** the malware scan's state of its files (domain/malware-scan.ts transferScanState); absent before scanning existed */
  readonly scanState?: ScanStatus;
  /** an operator disabled it after an abuse report (epoch ms): the link answers 410, the objects are kept */
  readonly disabledAt?: number;
  readonly disabledReportId?: string;
  /**
   * shared at the start (a link send, or an email send whose recipients were mailed at creation):
   * the download page serves its complete files while the upload runs, and a cancel withdraws it
   */
  readonly liveAt?: number;
  /** the recipients were mailed at creation (epoch ms): the completion does not mail them again */
  readonly recipientsMailedAt?: number;
  /** verified recipients: each download needs a code mailed to an allowed address (data/recipient-access.ts) */
  readonly recipientAccess?: RecipientAccessConfig;
  /** review on (signed-in senders only): recipients comment and approve (data/reviews.ts); counters in ReviewCounters */
  readonly review?: ReviewSettings;
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
  /** completing: the complete-upload job is putting its parts together (services/completion.ts) */
  readonly status: 'pending' | 'completing' | 'uploaded';
  /** while completing: the claim that runs it, and when that claim is taken for dead */
  readonly completeAttempt?: string;
  readonly completeLeaseUntil?: number;
  /** how often the schedule started a dead claim again (data/transfers.ts claimStaleCompletion) */
  readonly completeRestarts?: number;
  /** why its upload was last reset (the job's reset is told by the next complete call) */
  readonly resetCode?: string;
  readonly resetMessage?: string;
  readonly createdAt: number;
  /** a recording of the send form (sent as voiceMemo / recordedVideos) */
  readonly recording?: Recording;
  /** the image's thumbnail, made once by the thumbnails job (data/thumbnails.ts) */
  readonly thumbStatus?: 'building' | 'ready' | 'failed';
  readonly thumbStartedAt?: number;
  readonly thumbBytes?: number;
  /** the malware scan (set to pending when the upload completes); absent: completed before scanning existed */
  readonly scanStatus?: ScanStatus;
  /** what the scanner found (infected) or why it could not decide (error) */
  readonly scanFinding?: string;
  /** `guardduty`, `clamav` or `eicar` */
  readonly scanner?: string;
  readonly scannedAt?: number;
  /**
   * CRC-32 of the file's bytes (unsigned), as its uploader computed it: part by part for a
   * multipart file, joined by crc32Combine. The composed ZIP's descriptors and directory carry
   * it (docs/decisions/0072); absent for files uploaded before it was recorded.
   */
  readonly crc32?: number;
  /**
   * its multipart upload keeps S3's full-object CRC-32, so the completion hands S3 `crc32` to
   * check; absent for uploads started before S3 was asked to keep it
   */
  readonly fullCrc32?: true;
  /** when the upload completed (epoch ms): a single file's piece of the live upload's rate */
  readonly uploadedAt?: number;
  /**
   * SHA-256 of the file's bytes (lowercase hex), computed by the digest job after the file
   * completed (services/digest.ts); absent while it is being computed.
   */
  readonly sha256?: string;
  /** while digesting: the claim that runs it, and when that claim is taken for dead */
  readonly digestAttempt?: string;
  readonly digestLeaseUntil?: number;
  /**
   * a digest paused at a run's deadline: the bytes hashed so far, the hash's saved state after
   * them, and the object's ETag they were read from (a changed object starts over)
   */
  readonly digestOffset?: number;
  readonly digestState?: Uint8Array;
  readonly digestEtag?: string;
}

export interface PartRecord {
  readonly partNumber: number;
  readonly etag: string;
  readonly size: number;
  /** CRC-32 of the part's bytes, as the uploader computed it */
  readonly crc32?: number;
  /** when it was recorded (epoch ms): the live upload's rate */
  readonly at?: number;
}

/** Someone waiting for a transfer still uploading ("Mail me when it's complete"). */
export interface WatcherRecord {
  readonly email: string;
  readonly lang: string;
  readonly createdAt: number;
}

const STRIP = [
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'gsi4pk',
  'gsi4sk',
  'entity',
  'ttl',
];
function strip<T>(item: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...item };
  for (const k of STRIP) delete out[k];
  return out as T;
}

/** Pattern 34: the counters of a sender's listed transfers move with the write that changes them. */
function statsDelta(senderId: string, delta: { all?: number; expired?: number }): TransactItem {
  const parts = Object.entries(delta).filter(([, v]) => v !== undefined && v !== 0);
  return {
    Update: {
      TableName: table(),
      Key: keys.transferStats(senderId),
      UpdateExpression: `SET entity = :e ADD ${parts.map(([k]) => `#${k} :${k}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(parts.map(([k]) => [`#${k}`, k])),
      ExpressionAttributeValues: { ':e': 'TransferStats', ...Object.fromEntries(parts.map(([k, v]) => [`:${k}`, v])) },
    },
  };
}

/** The list-index keys of a sent transfer of a signed-in sender (gsi1 by send time, gsi3 by expiry, gsi4 while unseen). */
function listKeys(
  t: { senderId: string; slug: string; createdAt: number; expiryDate: number; totalDownloads: number },
  state: 'LIVE' | 'ENDED',
) {
  return {
    ...keys.userTransfers(t.senderId, t.createdAt, t.slug),
    ...keys.transferList(t.senderId, state, t.expiryDate, t.slug),
    ...(state === 'LIVE' && t.totalDownloads === 0 ? keys.unseenTransfer(t.senderId, t.expiryDate, t.slug) : {}),
  };
}

/** The transfer item as stored (index keys included), for writes that move it between indexes. */
async function getTransferItem(slug: string): Promise<Record<string, unknown> | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.transfer(slug), ConsistentRead: true });
  return out.Item && isLive(out.Item) ? out.Item : undefined;
}

/** Listed: a sent transfer of a signed-in sender, in the dashboard's list index. */
function listedOwner(item: Record<string, unknown>): string | undefined {
  return typeof item.gsi3pk === 'string' && typeof item.senderId === 'string' ? item.senderId : undefined;
}

type WriteRequest =
  | { PutRequest: { Item: Record<string, unknown> } }
  | { DeleteRequest: { Key: Record<string, unknown> } };

/** BatchWrite in 25s, retrying unprocessed items with a short backoff. */
async function batchWrite(all: readonly WriteRequest[]): Promise<void> {
  for (let i = 0; i < all.length; i += 25) {
    let requests = all.slice(i, i + 25);
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt > 8) throw new Error('BatchWrite left unprocessed items');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out = await ddb().batchWrite({ RequestItems: { [table()]: [...requests] } });
      requests = (out.UnprocessedItems?.[table()] ?? []) as WriteRequest[];
    }
  }
}

const batchPut = (items: Record<string, unknown>[]) => batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
const batchDelete = (keyList: readonly Record<string, unknown>[]) =>
  batchWrite(keyList.map((Key) => ({ DeleteRequest: { Key } })));

function fileItem(f: FileRecord): Record<string, unknown> {
  return { ...keys.transferFile(f.slug, f.fileId), entity: 'TransferFile', ...f };
}

/** Pattern 4: create a transfer and its files. False when the slug is taken (caller retries). */
export async function createTransfer(t: TransferRecord, files: readonly FileRecord[]): Promise<boolean> {
  // The list index keys arrive with the send (markSent): an upload in progress is not listed.
  const item: Record<string, unknown> = { ...keys.transfer(t.slug), entity: 'Transfer', ...t };
  if (t.sweepDueAt !== undefined) Object.assign(item, keys.sweepIndex(t.sweepDueAt, t.slug));
  const created = await conditionalWrite(() =>
    ddb().put({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
  if (!created) return false;
  await batchPut(files.map(fileItem));
  return true;
}

/** Pattern 5 */
export async function getTransfer(slug: string): Promise<TransferRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.transfer(slug), ConsistentRead: true });
  return out.Item && isLive(out.Item) ? strip<TransferRecord>(out.Item) : undefined;
}

/** Pattern 6: all files of a transfer (any status). */
export async function listFiles(slug: string): Promise<FileRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.filePrefix },
    ConsistentRead: true,
  });
  return items
    .map((i) => strip<FileRecord>(i))
    .sort((a, b) => a.createdAt - b.createdAt || a.fileId.localeCompare(b.fileId));
}

export async function getFile(slug: string, fileId: string): Promise<FileRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.transferFile(slug, fileId), ConsistentRead: true });
  return out.Item ? strip<FileRecord>(out.Item) : undefined;
}

/** Pattern 7: add files to an existing transfer, with a new upload token. */
export async function addFiles(
  slug: string,
  files: readonly FileRecord[],
  uploadTokenHash: string,
  uploadTokenExpiresAt: number,
): Promise<void> {
  await batchPut(files.map(fileItem));
  await ddb().update({
    TableName: table(),
    Key: keys.transfer(slug),
    UpdateExpression: 'SET uploadTokenHash = :h, uploadTokenExpiresAt = :e',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':h': uploadTokenHash, ':e': uploadTokenExpiresAt },
  });
}

/** Removes file items (and their parts) of files that were cancelled before they finished. */
export async function deleteFiles(slug: string, fileIds: readonly string[]): Promise<void> {
  for (const fileId of fileIds) {
    const parts = await listParts(slug, fileId);
    await batchDelete([
      keys.transferFile(slug, fileId),
      ...parts.map((p) => keys.transferPart(slug, fileId, p.partNumber)),
    ]);
  }
}

/**
 * A pending file whose stored object was wrong starts over: its recorded parts go, and a
 * multipart file gets the new upload id. Returns false when the file is no longer pending.
 */
export async function resetFileUpload(
  slug: string,
  fileId: string,
  uploadId: string | undefined,
  reason?: { code: string; message: string },
): Promise<boolean> {
  const parts = await listParts(slug, fileId);
  await batchDelete(parts.map((p) => keys.transferPart(slug, fileId, p.partNumber)));
  const sets = [
    '#s = :p',
    ...(uploadId ? ['uploadId = :id'] : []),
    ...(reason ? ['resetCode = :rc', 'resetMessage = :rm'] : []),
  ];
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: `SET ${sets.join(', ')} REMOVE completeAttempt, completeLeaseUntil, completeRestarts, gsi2pk, gsi2sk${reason ? '' : ', resetCode, resetMessage'}`,
      ConditionExpression: '#s IN (:p, :c)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':p': 'pending',
        ':c': 'completing',
        ...(uploadId ? { ':id': uploadId } : {}),
        ...(reason ? { ':rc': reason.code, ':rm': reason.message } : {}),
      },
    }),
  );
}

/**
 * Claims a file's background completion for `attempt` until `leaseUntil`: from pending, from a
 * claim whose lease ran out by `now` (its job died), or again by the same attempt (a retried
 * delivery of its job). False when another live claim holds it or the file is uploaded.
 */
export async function claimFileCompletion(
  slug: string,
  fileId: string,
  attempt: string,
  leaseUntil: number,
  now: number,
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET #s = :c, completeAttempt = :a, completeLeaseUntil = :l, gsi2pk = :gpk, gsi2sk = :gsk',
      ConditionExpression:
        'attribute_exists(pk) AND (#s = :p OR (#s = :c AND (completeAttempt = :a OR attribute_not_exists(completeLeaseUntil) OR completeLeaseUntil < :now)))',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':p': 'pending',
        ':c': 'completing',
        ':a': attempt,
        ':l': leaseUntil,
        ':now': now,
        ...indexValues(keys.completingIndex(leaseUntil, slug, fileId)),
      },
    }),
  );
}

function indexValues(index: { gsi2pk: string; gsi2sk: string }) {
  return { ':gpk': index.gsi2pk, ':gsk': index.gsi2sk };
}

/** Completion claims whose lease ran out by `now` (their job died or gave up), oldest first, one page. */
export async function listStaleCompletions(now: number, limit: number): Promise<{ slug: string; fileId: string }[]> {
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p AND gsi2sk < :upTo',
    ExpressionAttributeValues: { ':p': keys.completingPartition, ':upTo': keys.completingUpTo(now - 1) },
    Limit: limit,
  });
  return (out.Items ?? []).map((i) => ({
    slug: String(i.pk).replace(/^TRANSFER#/u, ''),
    fileId: String(i.sk).replace(/^FILE#/u, ''),
  }));
}

/**
 * The schedule's claim of a dead completion: like claimFileCompletion once its lease ran out,
 * counted, and refused once `maxRestarts` restarts were spent (a client's complete call still can).
 */
export async function claimStaleCompletion(
  slug: string,
  fileId: string,
  attempt: string,
  leaseUntil: number,
  now: number,
  maxRestarts: number,
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression:
        'SET completeAttempt = :a, completeLeaseUntil = :l, gsi2pk = :gpk, gsi2sk = :gsk ADD completeRestarts :one',
      ConditionExpression:
        '#s = :c AND (attribute_not_exists(completeLeaseUntil) OR completeLeaseUntil < :now) AND (attribute_not_exists(completeRestarts) OR completeRestarts < :max)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':c': 'completing',
        ':a': attempt,
        ':l': leaseUntil,
        ':now': now,
        ':one': 1,
        ':max': maxRestarts,
        ...indexValues(keys.completingIndex(leaseUntil, slug, fileId)),
      },
    }),
  );
}

/** The schedule gives a claim up (restarts spent, or its transfer is gone): out of its queue, nothing else. */
export async function dropStaleCompletion(slug: string, fileId: string): Promise<void> {
  await conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'REMOVE gsi2pk, gsi2sk',
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

/**
 * The claim's end: uploaded (scan pending, `crc32` recorded when known), once; false when
 * `attempt` no longer holds it.
 */
export async function finishFileCompletion(
  slug: string,
  fileId: string,
  attempt: string,
  crc32?: number,
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: `SET #s = :u, scanStatus = :sp, uploadedAt = :at${crc32 === undefined ? '' : ', crc32 = :crc'} REMOVE completeAttempt, completeLeaseUntil, completeRestarts, gsi2pk, gsi2sk, resetCode, resetMessage`,
      ConditionExpression: '#s = :c AND completeAttempt = :a',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':u': 'uploaded',
        ':at': Date.now(),
        ':sp': 'pending',
        ':c': 'completing',
        ':a': attempt,
        ...(crc32 === undefined ? {} : { ':crc': crc32 }),
      },
    }),
  );
}

/** A failed attempt gives its lease up, so the next complete call starts the job again at once. */
export async function expireFileCompletion(slug: string, fileId: string, attempt: string): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET completeLeaseUntil = :z, gsi2pk = :gpk, gsi2sk = :gsk',
      ConditionExpression: '#s = :c AND completeAttempt = :a',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':c': 'completing',
        ':a': attempt,
        ':z': 0,
        ...indexValues(keys.completingIndex(0, slug, fileId)),
      },
    }),
  );
}

/** The sender asked for the transfer's completion (the first time counts; later calls keep it). */
export async function requestTransferCompletion(slug: string, now: number): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.transfer(slug),
    UpdateExpression: 'SET completeRequestedAt = if_not_exists(completeRequestedAt, :now)',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':now': now },
  });
}

/** Pattern 8: record a finished part (a re-upload of the same part overwrites it). */
export async function putPart(slug: string, fileId: string, part: PartRecord): Promise<void> {
  await ddb().put({
    TableName: table(),
    Item: { ...keys.transferPart(slug, fileId, part.partNumber), entity: 'TransferPart', fileId, ...part },
  });
}

/** Parts of the transfer's files at once (one PutItem for one, else BatchWriteItem in 25s): idempotent. */
export async function putParts(slug: string, parts: readonly { fileId: string; part: PartRecord }[]): Promise<void> {
  if (parts.length === 1) return putPart(slug, parts[0]!.fileId, parts[0]!.part);
  await batchPut(
    parts.map(({ fileId, part }) => ({
      ...keys.transferPart(slug, fileId, part.partNumber),
      entity: 'TransferPart',
      fileId,
      ...part,
    })),
  );
}

/** Pattern 9: the recorded parts of one file, in part order. */
export async function listParts(slug: string, fileId: string): Promise<PartRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.partPrefix(fileId) },
    ConsistentRead: true,
  });
  return items.map(partOf);
}

function partOf(i: Record<string, unknown>): PartRecord {
  return {
    partNumber: Number(i.partNumber),
    etag: String(i.etag),
    size: Number(i.size),
    ...(typeof i.crc32 === 'number' ? { crc32: i.crc32 } : {}),
    ...(typeof i.at === 'number' ? { at: i.at } : {}),
  };
}

/** Pattern 9b: every recorded part of the transfer, with its file (the live upload's progress). */
export async function listTransferParts(slug: string): Promise<(PartRecord & { fileId: string })[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.allPartsPrefix },
  });
  return items.map((i) => ({ ...partOf(i), fileId: String(i.fileId) }));
}

/**
 * Pattern 9c: `email` waits for the transfer's completion; false when already waiting (one
 * mail per address). The item goes with the table's ttl once the upload can no longer finish.
 */
export async function putWatcher(slug: string, w: WatcherRecord, ttl: number): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: { ...keys.transferWatcher(slug, w.email), entity: 'TransferWatcher', ...w, ttl },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Pattern 9d: who waits for the transfer's completion. */
export async function listWatchers(slug: string): Promise<WatcherRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.watcherPrefix },
    ConsistentRead: true,
  });
  return items
    .filter((i) => isLive(i))
    .map((i) => ({ email: String(i.email), lang: String(i.lang), createdAt: Number(i.createdAt) }));
}

/**
 * The upload is complete: the file waits for its malware scan before anyone may download it.
 * `crc32`, when the uploader gave one, is recorded with it.
 */
export async function markFileUploaded(slug: string, fileId: string, crc32?: number, at = Date.now()): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.transferFile(slug, fileId),
    UpdateExpression: `SET #s = :u, scanStatus = :p, uploadedAt = :at${crc32 === undefined ? '' : ', crc32 = :crc'} REMOVE resetCode, resetMessage`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: {
      ':u': 'uploaded',
      ':p': 'pending',
      ':at': at,
      ...(crc32 === undefined ? {} : { ':crc': crc32 }),
    },
  });
}

/**
 * A scan's result for one file. Answers the state it replaced (undefined when the
 * file is gone), so the caller acts on an infection once even when the result arrives twice.
 * A file already found infected stays so (a later result for its key is about another object).
 */
export async function setFileScan(
  slug: string,
  fileId: string,
  r: { status: ScanStatus; finding?: string; scanner: string; at: number },
): Promise<{ previous: ScanStatus | undefined } | undefined> {
  const old = await conditionalUpdate(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: `SET scanStatus = :s, scanner = :n, scannedAt = :at${r.finding ? ', scanFinding = :f' : ' REMOVE scanFinding'}`,
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(scanStatus) OR scanStatus <> :i)',
      ExpressionAttributeValues: {
        ':s': r.status,
        ':n': r.scanner,
        ':at': r.at,
        ':i': 'infected',
        ...(r.finding ? { ':f': r.finding } : {}),
      },
      ReturnValues: 'ALL_OLD',
    }),
  );
  return old ? { previous: old.scanStatus as ScanStatus | undefined } : undefined;
}

/** The transfer's scan state (the worst of its files'). */
export async function setScanState(slug: string, state: ScanStatus): Promise<void> {
  await ddb().update({
    TableName: table(),
    Key: keys.transfer(slug),
    UpdateExpression: 'SET scanState = :s',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':s': state },
  });
}

/** An operator disables (or enables again) a transfer after an abuse report; false when there is none. */
export async function setDisabled(
  slug: string,
  disabled: { at: number; reportId?: string } | undefined,
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(slug),
      ...(disabled
        ? {
            UpdateExpression: `SET disabledAt = :at${disabled.reportId ? ', disabledReportId = :r' : ''}`,
            ExpressionAttributeValues: {
              ':at': disabled.at,
              ...(disabled.reportId ? { ':r': disabled.reportId } : {}),
            },
          }
        : { UpdateExpression: 'REMOVE disabledAt, disabledReportId' }),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

/**
 * Pattern 10: the send is complete. Moves uploading -> ready once (true): the transfer enters
 * the sender's list index and its `all` counter grows in the same transaction. A later call
 * (after add-files) only refreshes the totals and the search text (false).
 */
export async function markSent(
  t: Pick<TransferRecord, 'slug' | 'senderId' | 'createdAt'> & { readonly totalDownloads?: number },
  v: { dateSent: number; expiryDate: number; fileCount: number; totalBytes: number; searchText?: string },
): Promise<boolean> {
  const listed = t.senderId
    ? listKeys(
        // a live transfer may have been downloaded while it uploaded: then it is not unseen
        {
          senderId: t.senderId,
          slug: t.slug,
          createdAt: t.createdAt,
          expiryDate: v.expiryDate,
          totalDownloads: t.totalDownloads ?? 0,
        },
        'LIVE',
      )
    : {};
  const sets: Record<string, unknown> = {
    dateSent: v.dateSent,
    expiryDate: v.expiryDate,
    fileCount: v.fileCount,
    totalBytes: v.totalBytes,
    sweepDueAt: v.expiryDate,
    ...keys.sweepIndex(v.expiryDate, t.slug),
    ...listed,
    ...(v.searchText !== undefined ? { searchText: v.searchText } : {}),
  };
  const names = Object.keys(sets);
  const first = await transact([
    {
      Update: {
        TableName: table(),
        Key: keys.transfer(t.slug),
        UpdateExpression: `SET #s = :ready, ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
        ConditionExpression: '#s = :uploading',
        ExpressionAttributeNames: { '#s': 'status', ...Object.fromEntries(names.map((n, i) => [`#a${i}`, n])) },
        ExpressionAttributeValues: {
          ':ready': 'ready',
          ':uploading': 'uploading',
          ...Object.fromEntries(names.map((n, i) => [`:v${i}`, sets[n]])),
        },
      },
    },
    t.senderId ? statsDelta(t.senderId, { all: 1 }) : undefined,
  ]);
  if (first) return true;
  await ddb().update({
    TableName: table(),
    Key: keys.transfer(t.slug),
    UpdateExpression: `SET fileCount = :n, totalBytes = :b${v.searchText !== undefined ? ', searchText = :q' : ''}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: {
      ':n': v.fileCount,
      ':b': v.totalBytes,
      ...(v.searchText !== undefined ? { ':q': v.searchText } : {}),
    },
  });
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
    Object.assign(values, {
      ':due': opts.sweepDueAt,
      ':gpk': keys.sweepPartition,
      ':gsk': keys.sweepIndex(opts.sweepDueAt, slug).gsi2sk,
    });
  }
  if (opts.purged !== undefined) {
    sets.push('purged = :p');
    values[':p'] = opts.purged;
  }
  const conditions = ['attribute_exists(pk)'];
  if (opts.from) {
    conditions.push(`#s IN (${opts.from.map((_, i) => `:f${i}`).join(', ')})`);
    opts.from.forEach((f, i) => {
      values[`:f${i}`] = f;
    });
  }
  if (opts.expectedSweepDueAt !== undefined) {
    conditions.push('sweepDueAt = :expDue');
    values[':expDue'] = opts.expectedSweepDueAt;
  }
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transfer(slug),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Pattern 12: a new expiry (an approved extension, or the owner's change in the TransferModal).
 * A transfer still inside its grace period becomes ready again; the sweep is due at the new
 * expiry; a listed transfer moves within (or back into) the list index, and an expired one
 * leaves the sender's `expired` counter, all in one transaction conditioned on what was read
 * (a racing download or sweep makes it read again). False once purged, deleted or gone.
 */
export async function changeExpiry(t: Pick<TransferRecord, 'slug'>, expiryDate: number): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const item = await getTransferItem(t.slug);
    if (!item || item.purged === true || (item.status !== 'ready' && item.status !== 'expired')) return false;
    const owner = listedOwner(item);
    const downloads = Number(item.totalDownloads ?? 0);
    const sets: Record<string, unknown> = {
      expiryDate,
      sweepDueAt: expiryDate,
      ...keys.sweepIndex(expiryDate, t.slug),
    };
    const removes = ['gsi4pk', 'gsi4sk'];
    if (owner) {
      Object.assign(
        sets,
        listKeys(
          { senderId: owner, slug: t.slug, createdAt: Number(item.createdAt), expiryDate, totalDownloads: downloads },
          'LIVE',
        ),
      );
      if (downloads === 0) removes.length = 0;
    }
    const names = Object.keys(sets);
    const done = await transact([
      {
        Update: {
          TableName: table(),
          Key: keys.transfer(t.slug),
          UpdateExpression: `SET #s = :ready, ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression:
            '#s = :was AND attribute_not_exists(purged) AND (attribute_not_exists(totalDownloads) OR totalDownloads = :dl)',
          ExpressionAttributeNames: { '#s': 'status', ...Object.fromEntries(names.map((n, i) => [`#a${i}`, n])) },
          ExpressionAttributeValues: {
            ':ready': 'ready',
            ':was': item.status,
            ':dl': downloads,
            ...Object.fromEntries(names.map((n, i) => [`:v${i}`, sets[n]])),
          },
        },
      },
      owner && item.status === 'expired' ? statsDelta(owner, { expired: -1 }) : undefined,
    ]);
    if (done) return true;
  }
  throw new Error(`changeExpiry: ${t.slug} kept changing under us`);
}

/** Pattern 12 for an approved extension request. */
export const extendExpiry = (slug: string, expiryDate: number) => changeExpiry({ slug }, expiryDate);

/**
 * Pattern 11b, the sweep's step at the expiry: ready -> expired (conditioned on the due time it
 * read, so a concurrent extension wins). A listed transfer moves to its sender's ENDED list and
 * leaves the unseen index; the `expired` counter grows in the same transaction.
 */
export async function markExpired(
  slug: string,
  opts: { sweepDueAt: number; expectedSweepDueAt: number },
): Promise<boolean> {
  const item = await getTransferItem(slug);
  if (item?.status !== 'ready') return false;
  const owner = listedOwner(item);
  return transact([
    {
      Update: {
        TableName: table(),
        Key: keys.transfer(slug),
        UpdateExpression: `SET #s = :expired, sweepDueAt = :due, gsi2pk = :gpk, gsi2sk = :gsk${owner ? ', gsi3pk = :ended' : ''} REMOVE gsi4pk, gsi4sk`,
        ConditionExpression: '#s = :ready AND sweepDueAt = :expDue',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':expired': 'expired',
          ':ready': 'ready',
          ':due': opts.sweepDueAt,
          ':expDue': opts.expectedSweepDueAt,
          ':gpk': keys.sweepPartition,
          ':gsk': keys.sweepIndex(opts.sweepDueAt, slug).gsi2sk,
          ...(owner ? { ':ended': keys.transferListPartition(owner, 'ENDED') } : {}),
        },
      },
    },
    owner ? statsDelta(owner, { expired: 1 }) : undefined,
  ]);
}

/**
 * Pattern 11c: the owner deletes a transfer. The record stays (the link answers 404) but leaves
 * the list indexes; the sender's counters drop in the same transaction; the sweep checks once
 * more at `recheckAt` that its objects are gone. Returns the status it had,
 * or undefined when it was already deleted or gone (a second delete changes nothing).
 */
export async function markDeleted(slug: string, recheckAt: number): Promise<TransferStatus | undefined> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const item = await getTransferItem(slug);
    if (!item || item.status === 'deleted') return undefined;
    const owner = listedOwner(item);
    const was = item.status as TransferStatus;
    const done = await transact([
      {
        Update: {
          TableName: table(),
          Key: keys.transfer(slug),
          // The sweep looks again at `recheckAt`: objects a failed delete left behind still go.
          UpdateExpression:
            'SET #s = :deleted, purged = :t, sweepDueAt = :due, gsi2pk = :gpk, gsi2sk = :gsk REMOVE gsi1pk, gsi1sk, gsi3pk, gsi3sk, gsi4pk, gsi4sk',
          ConditionExpression: '#s = :was',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':deleted': 'deleted',
            ':t': true,
            ':was': was,
            ':due': recheckAt,
            ':gpk': keys.sweepPartition,
            ':gsk': keys.sweepIndex(recheckAt, slug).gsi2sk,
          },
        },
      },
      owner ? statsDelta(owner, { all: -1, expired: was === 'expired' ? -1 : 0 }) : undefined,
    ]);
    if (done) return was;
  }
  throw new Error(`markDeleted: ${slug} kept changing under us`);
}

// ---- file digests (services/digest.ts) ---------------------------------------------------------

/**
 * Claims the digest of an uploaded file for `attempt` until `leaseUntil`: when no digest is
 * recorded and no other live claim holds it (the same attempt may claim again: its next run, or
 * Lambda retrying a run). False otherwise.
 */
export async function claimDigest(
  slug: string,
  fileId: string,
  attempt: string,
  leaseUntil: number,
  now: number,
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET digestAttempt = :a, digestLeaseUntil = :l',
      ConditionExpression:
        'attribute_exists(pk) AND #s = :u AND attribute_not_exists(sha256) AND (digestAttempt = :a OR attribute_not_exists(digestLeaseUntil) OR digestLeaseUntil < :now)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':u': 'uploaded', ':a': attempt, ':l': leaseUntil, ':now': now },
    }),
  );
}

/** Saves where a digest stands (and renews its lease) while `attempt` holds it; false once superseded. */
export async function saveDigestProgress(
  slug: string,
  fileId: string,
  attempt: string,
  progress: { offset: number; state: Uint8Array; etag: string; leaseUntil: number },
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET digestOffset = :o, digestState = :st, digestEtag = :e, digestLeaseUntil = :l',
      ConditionExpression: 'digestAttempt = :a AND attribute_not_exists(sha256)',
      ExpressionAttributeValues: {
        ':a': attempt,
        ':o': progress.offset,
        ':st': progress.state,
        ':e': progress.etag,
        ':l': progress.leaseUntil,
      },
    }),
  );
}

/** Forgets a digest's saved progress (its object changed), so the next run starts from the first byte. */
export async function clearDigestProgress(slug: string, fileId: string, attempt: string): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'REMOVE digestOffset, digestState, digestEtag',
      ConditionExpression: 'digestAttempt = :a',
      ExpressionAttributeValues: { ':a': attempt },
    }),
  );
}

/** Records the file's SHA-256 once, while `attempt` holds the claim; false otherwise. */
export async function finishDigest(slug: string, fileId: string, attempt: string, sha256: string): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET sha256 = :h REMOVE digestAttempt, digestLeaseUntil, digestOffset, digestState, digestEtag',
      ConditionExpression: '#s = :u AND digestAttempt = :a AND attribute_not_exists(sha256)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':u': 'uploaded', ':a': attempt, ':h': sha256 },
    }),
  );
}

/** A run that failed gives its lease up (its progress stays), so the next trigger starts it again at once. */
export async function expireDigestLease(slug: string, fileId: string, attempt: string): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET digestLeaseUntil = :z',
      ConditionExpression: 'digestAttempt = :a',
      ExpressionAttributeValues: { ':a': attempt, ':z': 0 },
    }),
  );
}

export interface ZipRecord {
  readonly contentHash: string;
  readonly status: 'building' | 'ready' | 'failed';
  readonly key: string;
  readonly startedAt: number;
  /** while building: the build's lease, renewed by its heartbeat; past it the build is taken for dead */
  readonly leaseUntil?: number;
  /** while building: which claim holds the lease (a superseded build neither renews nor finishes) */
  readonly attempt?: string;
  readonly size?: number;
  readonly error?: string;
}

/** Pattern 15 */
export async function getZip(slug: string, contentHash: string): Promise<ZipRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.transferZip(slug, contentHash), ConsistentRead: true });
  return out.Item ? strip<ZipRecord>(out.Item) : undefined;
}

/**
 * Claims the build of a ZIP: succeeds when there is no record, the previous attempt failed, or
 * its lease ran out by `now` (a crashed build; a record without a lease predates leases). Two
 * concurrent clicks start one build.
 */
export async function claimZipBuild(
  slug: string,
  z: ZipRecord & { leaseUntil: number; attempt: string },
  now: number,
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: { ...keys.transferZip(slug, z.contentHash), entity: 'TransferZip', slug, ...z },
      ConditionExpression:
        'attribute_not_exists(pk) OR #s = :failed OR (#s = :building AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now))',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':failed': 'failed', ':building': 'building', ':now': now },
    }),
  );
}

/** The build's heartbeat: extends its lease while this attempt still holds it; false once superseded or finished. */
export async function renewZipLease(
  slug: string,
  contentHash: string,
  attempt: string,
  leaseUntil: number,
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferZip(slug, contentHash),
      UpdateExpression: 'SET leaseUntil = :l',
      ConditionExpression: '#s = :building AND attempt = :a',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':building': 'building', ':a': attempt, ':l': leaseUntil },
    }),
  );
}

/** Ends a build while `attempt` still holds the record (false otherwise: a build that lost its lease leaves the record to its successor). */
export async function finishZip(
  slug: string,
  contentHash: string,
  attempt: string,
  result: { status: 'ready'; size: number } | { status: 'failed'; error: string },
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferZip(slug, contentHash),
      UpdateExpression: `${result.status === 'ready' ? 'SET #s = :s, size = :v' : 'SET #s = :s, #e = :v'} REMOVE leaseUntil`,
      ConditionExpression: 'attribute_exists(pk) AND attempt = :a',
      ExpressionAttributeNames: result.status === 'ready' ? { '#s': 'status' } : { '#s': 'status', '#e': 'error' },
      ExpressionAttributeValues: {
        ':s': result.status,
        ':v': result.status === 'ready' ? result.size : result.error,
        ':a': attempt,
      },
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
  const out = await ddb().query({
    TableName: table(),
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :p AND gsi2sk <= :upTo',
    ExpressionAttributeValues: { ':p': keys.sweepPartition, ':upTo': keys.sweepUpTo(now) },
    Limit: limit,
    ExclusiveStartKey: startKey,
  });
  return { slugs: (out.Items ?? []).map((i) => String(i.pk).replace(/^TRANSFER#/u, '')), next: out.LastEvaluatedKey };
}
