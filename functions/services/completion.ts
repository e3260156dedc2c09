/**
 * Completing files and transfers without depending on S3 answering inside one request
 * (docs/decisions/0071-completion-in-the-background.md).
 *
 * - A file up to INLINE_COMPLETE_MAX_BYTES is put together by the complete route itself (200).
 * - A larger multipart file is claimed (`completing`, under a lease) and the complete-upload job
 *   runs CompleteMultipartUpload with S3's long timeout; the route answers 202 `completing` at
 *   once. Asking again answers the same state; a claim whose job died (its lease ran out, or
 *   the job gave it up on an error) is started again by the next call.
 * - The transfer's completion asked while files are completing is recorded and answered 202;
 *   the job that puts the last file together sends the transfer (mails and events once:
 *   `markSent` is conditional).
 */
import { randomUUID } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { completesInline, completionRetryAfterSeconds } from '../domain/upload';
import { crc32Combine } from '../domain/crc32';
import type {
  CompleteFileRequest,
  CompleteResponse,
  CompletingResponse,
  FileCompleteResponse,
  FileUploadState,
  TransferUploadState,
  UploadStateResponse,
} from '../domain/transfer-api';
import * as data from '../data/transfers';
import type { FileRecord, PartRecord, TransferRecord } from '../data/transfers';
import * as storage from '../adapters/storage';
import { startJob } from '../adapters/jobs';
import { HttpError, conflict } from '../lib/errors';
import { errorFields, log } from '../lib/log';
import { completeTransfer, requireFile } from './transfers';
import { scanOnCompletion } from './malware-scan';
import { startDigest } from './digest-start';
import { refOf } from './object-refs';

import { COMPLETE_JOB } from '../domain/jobs';

/** The job of functions/routes.ts that completes large files. */
export { COMPLETE_JOB };

/**
 * A claim is taken for dead after this: the job's Lambda cannot run past its 900 s timeout
 * (functions/routes.ts; S3's LONG_OPERATION is 15 minutes too), plus a minute's margin.
 */
export const COMPLETION_LEASE_MS = 16 * 60_000;

export interface CompleteJobInput {
  readonly slug: string;
  readonly fileId: string;
  /** the claim that started this run (data/transfers.ts claimFileCompletion) */
  readonly attempt: string;
}

interface Answer<B> {
  readonly status: 200 | 202;
  readonly body: B;
  readonly headers?: Record<string, string>;
}

function fileStateOf(f: FileRecord): FileUploadState {
  if (f.status === 'uploaded') return 'complete';
  return f.status === 'completing' ? 'completing' : 'pending';
}

function completeAnswer(f: FileRecord): Answer<FileCompleteResponse> {
  return { status: 200, body: { fileId: f.fileId, size: f.size, state: 'complete' } };
}

function completingAnswer(f: FileRecord): Answer<FileCompleteResponse> {
  const retryAfterSeconds = completionRetryAfterSeconds(f.size);
  return {
    status: 202,
    body: { fileId: f.fileId, size: f.size, state: 'completing', retryAfterSeconds },
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}

/**
 * The file's CRC-32 from its parts' CRC-32s joined in part order, when every part has one (a
 * part recorded by a client that computes none leaves the file without); undefined otherwise.
 */
export function crc32OfParts(parts: readonly PartRecord[]): number | undefined {
  if (parts.length === 0) return undefined;
  const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  let crc = 0;
  for (const p of ordered) {
    if (p.crc32 === undefined) return undefined;
    crc = crc32Combine(crc, p.crc32, p.size);
  }
  return crc;
}

/**
 * POST /transfers/{id}/files/{fileId}/complete (and the v1 twin): 200 once the file is in, 202
 * while it is being put together. A file whose object is not what was announced is deleted and
 * its upload reset (409, `upload-state` then shows no part done), so a client uploads it again
 * instead of retrying a completion that can never succeed. `req.crc32` is a single PUT's CRC-32
 * (a multipart file's comes from its recorded parts); without one the file has none recorded.
 */
export async function completeFile(
  t: TransferRecord,
  fileId: string,
  req: CompleteFileRequest = {},
  now = Date.now(),
): Promise<Answer<FileCompleteResponse>> {
  const f = await requireFile(t, fileId);
  if (f.status === 'uploaded') {
    // A retried completion whose scan did not finish (locally) scans again.
    if (f.scanStatus === 'pending') await scanAfterUpload(t, f);
    return completeAnswer(f);
  }
  if (f.status === 'completing') {
    await restartIfDead(t, f, now);
    return completingAnswer(f);
  }
  let crc32 = f.mode === 'multipart' ? undefined : req.crc32;
  if (f.mode === 'multipart') {
    const parts = await data.listParts(t.slug, fileId);
    // The job reset this upload since the last call: say so once more, as the inline path does.
    if (f.resetCode && parts.length === 0) {
      throw new HttpError(409, f.resetCode, f.resetMessage ?? 'Upload this file again.', {
        fileId,
        reset: true,
      });
    }
    checkParts(f, parts);
    const recorded = parts.reduce((sum, p) => sum + p.size, 0);
    if (recorded !== f.size)
      return resetUpload(t, f, `The recorded parts hold ${recorded} bytes, ${f.size} were announced.`);
    if (!completesInline(f)) return startCompletion(t, f, now);
    await assemble(t, f, parts);
    crc32 = crc32OfParts(parts);
  }
  await verifyStored(t, f);
  if (f.mode === 'single' && crc32 !== undefined) await verifySingleCrc32(t, f, crc32);
  await data.markFileUploaded(t.slug, fileId, crc32);
  // no download before the malware scan (GuardDuty in AWS; locally scanned now)
  await data.setScanState(t.slug, 'pending');
  await scanAfterUpload(t, { ...f, status: 'uploaded', scanStatus: 'pending' });
  await startDigest(t.slug, fileId);
  return completeAnswer(f);
}

function checkParts(f: FileRecord, parts: readonly PartRecord[]): void {
  const have = new Set(parts.map((p) => p.partNumber));
  const missing: number[] = [];
  for (let n = 1; n <= f.partCount!; n += 1) if (!have.has(n)) missing.push(n);
  if (missing.length > 0) {
    throw new HttpError(409, 'parts_missing', `${missing.length} of ${f.partCount} parts have not been uploaded yet.`, {
      missing: missing.slice(0, 100),
    });
  }
}

/** Claims the file's completion and starts the job; a job that could not be started is started by the next call. */
async function startCompletion(t: TransferRecord, f: FileRecord, now: number): Promise<Answer<FileCompleteResponse>> {
  const attempt = randomUUID();
  if (!(await data.claimFileCompletion(t.slug, f.fileId, attempt, now + COMPLETION_LEASE_MS, now))) {
    // Another call claimed (or finished) it meanwhile: answer what it is now.
    const again = await requireFile(t, f.fileId);
    return again.status === 'uploaded' ? completeAnswer(again) : completingAnswer(again);
  }
  await launch(t.slug, f.fileId, attempt);
  return completingAnswer(f);
}

/** A claim whose lease ran out (its job died or gave up) is claimed anew and its job started again. */
async function restartIfDead(t: TransferRecord, f: FileRecord, now: number): Promise<boolean> {
  if ((f.completeLeaseUntil ?? 0) >= now) return false;
  const attempt = randomUUID();
  if (!(await data.claimFileCompletion(t.slug, f.fileId, attempt, now + COMPLETION_LEASE_MS, now))) return false;
  log.warn('file completion started again', { slug: t.slug, fileId: f.fileId });
  await launch(t.slug, f.fileId, attempt);
  return true;
}

/** Never fails the call: a job that did not start gives its lease up, and the next call starts it. */
async function launch(slug: string, fileId: string, attempt: string): Promise<void> {
  try {
    await startJob(COMPLETE_JOB, { slug, fileId, attempt } satisfies CompleteJobInput);
  } catch (err) {
    log.error('complete-upload job not started', { slug, fileId, ...errorFields(err) });
    await data.expireFileCompletion(slug, fileId, attempt).catch(() => false);
  }
}

/**
 * CompleteMultipartUpload with S3's long timeout. An earlier completion may have finished it (its
 * answer lost: NoSuchUpload now): the object decides. Without an object, S3's 4xx (NoSuchUpload,
 * InvalidPart, EntityTooSmall) means these parts can never complete; anything else is S3 failing
 * and worth a retry.
 */
async function assemble(
  t: TransferRecord,
  f: FileRecord,
  parts: readonly PartRecord[],
  background = false,
): Promise<void> {
  const ref = refOf(t, f.key);
  try {
    await storage.completeMultipart(ref, f.uploadId!, parts, f.fullCrc32 ? crc32OfParts(parts) : undefined);
  } catch (err) {
    if ((await storage.objectSize(ref)) === undefined) {
      if ((err as { name?: string }).name === 'BadDigest')
        return resetUpload(
          t,
          f,
          'The uploaded bytes do not match the checksums recorded for them.',
          'checksum_mismatch',
          background,
        );
      if (isClientFault(err))
        return resetUpload(t, f, 'The uploaded parts could not be put together.', 'upload_reset', background);
      throw err;
    }
  }
}

/** The stored object must have the announced size (409 and a reset otherwise). */
async function verifyStored(t: TransferRecord, f: FileRecord, background = false): Promise<void> {
  const stored = await storage.objectSize(refOf(t, f.key));
  if (stored === undefined) throw conflict('upload_incomplete', 'This file has not been uploaded yet.');
  if (stored !== f.size)
    return resetUpload(
      t,
      f,
      `The uploaded file has ${stored} bytes, ${f.size} were announced.`,
      'size_mismatch',
      background,
    );
}

/**
 * A single PUT's CRC-32 is the uploader's word; S3 checks a multipart file's at its completion
 * (full-object CRC-32), so here the function reads the object (at most the multipart threshold,
 * 50 MB, in the bucket's region) and checks it: "Download all" copies these bytes without reading.
 */
async function verifySingleCrc32(t: TransferRecord, f: FileRecord, expected: number): Promise<void> {
  const { body } = await storage.readObject(refOf(t, f.key));
  let actual = 0;
  for await (const chunk of body) actual = zlibCrc32(chunk as Buffer, actual);
  if (actual >>> 0 !== expected >>> 0)
    return resetUpload(t, f, 'The uploaded bytes do not match the checksum sent for them.', 'checksum_mismatch');
}

/** The completion answers even when the local scan could not run: the file stays pending (never served). */
async function scanAfterUpload(t: TransferRecord, f: FileRecord): Promise<void> {
  try {
    await scanOnCompletion(t, f);
  } catch (err) {
    log.error('malware scan not started', { slug: t.slug, fileId: f.fileId, ...errorFields(err) });
  }
}

function isClientFault(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status !== undefined && status >= 400 && status < 500;
}

/**
 * Deletes what was stored, gives a multipart file a fresh upload, forgets its parts, and answers
 * 409. A reset in the background is remembered, so the next complete call can tell the client.
 */
async function resetUpload(
  t: TransferRecord,
  f: FileRecord,
  why: string,
  code = 'upload_reset',
  background = false,
): Promise<never> {
  const ref = refOf(t, f.key);
  const message = `${why} Upload this file again.`;
  await storage.deleteObject(ref);
  let uploadId: string | undefined;
  if (f.mode === 'multipart') {
    await storage.abortMultipart(ref, f.uploadId!);
    uploadId = await storage.startMultipart(ref);
  }
  await data.resetFileUpload(t.slug, f.fileId, uploadId, background ? { code, message } : undefined);
  throw new HttpError(409, code, message, { fileId: f.fileId, reset: true });
}

// ---- the transfer ------------------------------------------------------------------------------

/**
 * POST /transfers/{id}/complete (and the v1 twin): 200 once sent, 202 while files are still
 * being put together (the job of the last one sends it). 409 `files_pending` while a file has
 * not been uploaded (or completed) at all.
 */
export async function completeTransferWhenReady(
  t: TransferRecord,
  now = Date.now(),
): Promise<Answer<CompleteResponse | CompletingResponse>> {
  const files = await data.listFiles(t.slug);
  const pending = files.filter((f) => f.status === 'pending');
  if (pending.length > 0) {
    throw new HttpError(409, 'files_pending', `${pending.length} file(s) have not finished uploading.`, {
      pending: pending.slice(0, 100).map((f) => f.fileId),
    });
  }
  if (files.every((f) => f.status === 'uploaded')) return { status: 200, body: await completeTransfer(t, now) };
  await data.requestTransferCompletion(t.slug, now);
  // A job that finished its file between the listing and the request saw no request: look again.
  const again = await data.listFiles(t.slug);
  const completing = again.filter((f) => f.status !== 'uploaded');
  if (completing.length === 0) return { status: 200, body: await completeTransfer(t, now) };
  for (const f of completing) if (f.status === 'completing') await restartIfDead(t, f, now);
  const retryAfterSeconds = Math.max(...completing.map((f) => completionRetryAfterSeconds(f.size)));
  return {
    status: 202,
    body: { id: t.slug, state: 'completing', completing: completing.map((f) => f.fileId), retryAfterSeconds },
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}

/** GET /transfers/{id}/upload-state: what a resumed upload can skip, and where completion is. */
export async function uploadState(t: TransferRecord): Promise<UploadStateResponse> {
  const files = await data.listFiles(t.slug);
  // completing: asked for, and nothing left for the client to upload (a reset file is pending again)
  const state: TransferUploadState =
    t.status === 'ready' && files.every((f) => f.status === 'uploaded')
      ? 'complete'
      : t.completeRequestedAt !== undefined && !files.some((f) => f.status === 'pending')
        ? 'completing'
        : 'uploading';
  return {
    id: t.slug,
    status: t.status,
    state,
    resumableUntil: t.uploadTokenExpiresAt,
    files: await Promise.all(
      files.map(async (f) => ({
        fileId: f.fileId,
        fileName: f.fileName,
        ...(f.itemPath ? { itemPath: f.itemPath } : {}),
        size: f.size,
        mode: f.mode,
        ...(f.mode === 'multipart' ? { partSize: f.partSize!, partCount: f.partCount! } : {}),
        uploaded: f.status === 'uploaded',
        state: fileStateOf(f),
        partsDone:
          f.mode === 'multipart' && f.status !== 'uploaded'
            ? (await data.listParts(t.slug, f.fileId)).map((p) => p.partNumber)
            : [],
      })),
    ),
  };
}

// ---- the job ---------------------------------------------------------------------------------

export type CompleteJobResult = 'done' | 'superseded' | 'gone' | 'reset';

/**
 * The complete-upload job's work: put the file together under the claim `attempt` holds, mark
 * it uploaded once, and send the transfer when its completion was asked and every file is in.
 * S3 failing gives the lease up and throws (Lambda's async retries, then the next complete call,
 * start it again); a file that can never complete is reset (the next complete call says so).
 */
export async function runFileCompletion(input: CompleteJobInput, now = Date.now()): Promise<CompleteJobResult> {
  const [t, f] = await Promise.all([data.getTransfer(input.slug), data.getFile(input.slug, input.fileId)]);
  if (!t || !f || t.status === 'cancelled' || t.status === 'expired') return 'gone';
  if (f.status === 'uploaded') {
    // A repeated delivery after the file was marked: the transfer may still wait for it.
    await finishTransferIfAsked(input.slug, now);
    return 'done';
  }
  if (f.status !== 'completing' || f.mode !== 'multipart') return 'superseded';
  if (!(await data.claimFileCompletion(input.slug, input.fileId, input.attempt, now + COMPLETION_LEASE_MS, now)))
    return 'superseded';
  let crc32: number | undefined;
  try {
    const parts = await data.listParts(input.slug, input.fileId);
    await assemble(t, f, parts, true);
    await verifyStored(t, f, true);
    crc32 = crc32OfParts(parts);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 409) {
      log.warn('background completion reset the upload', { slug: t.slug, fileId: f.fileId, code: err.code });
      return 'reset';
    }
    await data.expireFileCompletion(input.slug, input.fileId, input.attempt).catch(() => false);
    throw err;
  }
  // cancelled while S3 worked: the cancel deleted what was there, so the new object goes too
  const after = await data.getTransfer(input.slug);
  if (!after || after.status === 'cancelled') {
    await storage.deleteObject(refOf(t, f.key));
    return 'gone';
  }
  if (!(await data.finishFileCompletion(input.slug, input.fileId, input.attempt, crc32))) return 'superseded';
  await data.setScanState(t.slug, 'pending');
  await scanAfterUpload(t, { ...f, status: 'uploaded', scanStatus: 'pending' });
  await startDigest(t.slug, f.fileId);
  await finishTransferIfAsked(input.slug, now);
  return 'done';
}

/** Sends the transfer when its completion was asked and every file is in (mails and events once: markSent decides). */
async function finishTransferIfAsked(slug: string, now: number): Promise<void> {
  // read after this file was marked: a request made meanwhile is seen here or sees the file
  const t = await data.getTransfer(slug);
  if (t?.completeRequestedAt === undefined || t.status === 'cancelled' || t.status === 'expired') return;
  const files = await data.listFiles(slug);
  if (files.some((f) => f.status !== 'uploaded')) return;
  await completeTransfer(t, now);
}
