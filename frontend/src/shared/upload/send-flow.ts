/**
 * The upload half of a send (spec §4; architecture §3): pair the plan with the picked bytes,
 * leave a resume checkpoint, run the engine, complete the transfer. Also resuming from a
 * checkpoint and cancelling. Free of React so it can run against a fake API in tests.
 */
import type { CompleteResponse, CreateTransferResponse, PlannedFile, UploadStateFile } from '@domain/transfer-api';
import { cancelTransfer, completeTransfer } from './send-api';
import { inDraftOrder, matchPlannedFiles, type PickedFile } from './picked-files';
import {
  clearCheckpoint,
  lastModifiedOf,
  matchCheckpointFiles,
  saveCheckpoint,
  type CheckpointFile,
  type CheckpointStorage,
  type UploadCheckpoint,
} from './checkpoint';
import { runUpload, type EngineFile, type UploadProgress, type UploadWarning } from './engine';
import { createHttpUploadApi } from './http-api';
import { rememberUploadSpeed } from './upload-speed';
import { completionPollDelayMs } from '@domain/upload';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * Completes the transfer, asking again while the server answers `completing` (large files still
 * being put together; the progress view keeps saying "Finishing upload…").
 */
async function completeWhenReady(
  transfer: { id: string; uploadToken: string },
  signal: AbortSignal,
  delayMs = completionPollDelayMs,
): Promise<CompleteResponse> {
  for (let poll = 1; ; poll += 1) {
    const answer = await completeTransfer(transfer.id, transfer.uploadToken, signal);
    if (answer.state !== 'completing') return answer;
    await sleep(delayMs(poll, answer.retryAfterSeconds), signal);
  }
}

export interface UploadCallbacks {
  readonly signal: AbortSignal;
  onProgress(progress: UploadProgress): void;
  onWarning(warning: UploadWarning): void;
}

export interface FlowOptions {
  /** localStorage by default; null disables checkpoints */
  readonly storage?: CheckpointStorage | null;
  readonly now?: () => number;
  /** PUT with fetch instead of XMLHttpRequest (tests) */
  readonly fetchImpl?: typeof fetch;
  /** engine retry delays (tests) */
  readonly retryDelayMs?: (tryNumber: number) => number;
  /** waits before asking a `completing` file or transfer again (tests) */
  readonly completionPollDelayMs?: (poll: number, retryAfterSeconds?: number) => number;
  /**
   * An end-to-end encrypted send: the transfer key its files are sealed with (the plan's files
   * carry their salts). Kept in the checkpoint, in this browser's storage; never sent.
   */
  readonly e2eKey?: Uint8Array;
}

/** The e2e code, loaded only for an encrypted send. */
const e2eSeal = () => import('./e2e-seal');

/** Sealers for the encrypted files of a plan (none for a plain send). */
async function withSealers(
  files: EngineFile[],
  saltOf: (plan: PlannedFile) => { salt: string; plainSize: number } | undefined,
  key: Uint8Array | undefined,
): Promise<EngineFile[]> {
  if (!files.some((f) => saltOf(f.plan))) return files;
  if (!key) throw new Error('An encrypted transfer needs its key to upload');
  const { partSealerOf } = await e2eSeal();
  return Promise.all(
    files.map(async (f) => {
      const e2e = saltOf(f.plan);
      return e2e ? { ...f, sealer: await partSealerOf(key, e2e.salt, e2e.plainSize) } : f;
    }),
  );
}

function storageArg(options: FlowOptions): [CheckpointStorage | null] | [] {
  return options.storage === undefined ? [] : [options.storage];
}

async function uploadAndComplete(
  transfer: { id: string; uploadToken: string },
  files: EngineFile[],
  resuming: boolean,
  callbacks: UploadCallbacks,
  options: FlowOptions,
  /** runs beside the upload (the sender's sealed thumbnails); awaited before completing, never failing it */
  beside?: Promise<unknown>,
): Promise<CompleteResponse> {
  // The speed over the bytes actually sent, for the next create's part size.
  let speed = 0;
  const onProgress = (p: UploadProgress) => {
    if (p.phase === 'transferring' && p.speedBps > 0) speed = p.speedBps;
    callbacks.onProgress(p);
  };
  await runUpload({
    api: createHttpUploadApi(transfer.id, transfer.uploadToken),
    files,
    resuming,
    signal: callbacks.signal,
    onProgress,
    onWarning: callbacks.onWarning,
    ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    ...(options.retryDelayMs ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.completionPollDelayMs ? { completionPollDelayMs: options.completionPollDelayMs } : {}),
  });
  if (speed > 0) rememberUploadSpeed(speed);
  await beside?.catch(() => undefined);
  const done = await completeWhenReady(transfer, callbacks.signal, options.completionPollDelayMs);
  clearCheckpoint(transfer.id, ...storageArg(options));
  return done;
}

/** A freshly created transfer: checkpoint first, so a reload mid-upload can pick it up again. */
export async function uploadNewTransfer(
  created: CreateTransferResponse,
  picked: readonly PickedFile[],
  callbacks: UploadCallbacks,
  options: FlowOptions = {},
): Promise<CompleteResponse> {
  // The plan lists recordings after the picked files, whatever order they were added in.
  const paired = matchPlannedFiles(created.files, inDraftOrder(picked));
  const pickedOf = new Map(paired.map(({ plan, blob }) => [plan.fileId, blob]));
  const files = await withSealers(
    paired.map(({ plan, blob }) => ({ plan, blob })),
    (plan) => plan.e2e,
    options.e2eKey,
  );
  const encrypted = files.some((f) => f.sealer);
  const { keyToText } = encrypted ? await e2eSeal() : { keyToText: undefined };
  saveCheckpoint(
    {
      id: created.id,
      uploadToken: created.uploadToken,
      createdAt: (options.now ?? Date.now)(),
      files: created.files.map((f): CheckpointFile => {
        const base = f.itemPath
          ? { fileId: f.fileId, fileName: f.fileName, size: f.size, itemPath: f.itemPath }
          : { fileId: f.fileId, fileName: f.fileName, size: f.size };
        if (!f.e2e) return base;
        const lastModified = lastModifiedOf({ ...base, blob: pickedOf.get(f.fileId) });
        return {
          ...base,
          size: f.e2e.plainSize,
          e2e: { salt: f.e2e.salt },
          ...(lastModified !== undefined ? { lastModified } : {}),
        };
      }),
      ...(encrypted && options.e2eKey && keyToText
        ? { e2eKey: keyToText(options.e2eKey), e2eMode: created.sendAs === 'link' ? 'link' : 'passphrase' }
        : {}),
    },
    ...storageArg(options),
  );
  const thumbnails =
    encrypted && options.e2eKey
      ? import('./e2e-thumbnails').then(({ uploadSealedThumbnails }) =>
          uploadSealedThumbnails(created, files, options.e2eKey!, callbacks.signal),
        )
      : undefined;
  return uploadAndComplete(created, files, false, callbacks, options, thumbnails);
}

function planOf(file: UploadStateFile): PlannedFile {
  return {
    fileId: file.fileId,
    fileName: file.fileName,
    size: file.size,
    mode: file.mode,
    ...(file.itemPath ? { itemPath: file.itemPath } : {}),
    ...(file.partSize !== undefined ? { partSize: file.partSize } : {}),
    ...(file.partCount !== undefined ? { partCount: file.partCount } : {}),
  };
}

/**
 * Continues the checkpoint's transfer with the picked files: the server says which files and
 * parts it has, the engine sends the rest ('Resuming Upload...'). Null when the transfer can
 * no longer be resumed (finished, cancelled, past its window); its checkpoint is dropped then.
 */
export async function resumeTransfer(
  checkpoint: UploadCheckpoint,
  picked: readonly PickedFile[],
  callbacks: UploadCallbacks,
  options: FlowOptions = {},
): Promise<CompleteResponse | null> {
  const state = await createHttpUploadApi(checkpoint.id, checkpoint.uploadToken).uploadState({
    signal: callbacks.signal,
  });
  const pairs = matchCheckpointFiles(checkpoint, picked);
  if (state.status !== 'uploading' || state.resumableUntil <= (options.now ?? Date.now)() || !pairs) {
    clearCheckpoint(checkpoint.id, ...storageArg(options));
    return null;
  }
  const plain: EngineFile[] = state.files.map((f) => {
    const file = pairs.get(f.fileId);
    if (!file) throw new Error(`The server lists ${f.fileName}, which this checkpoint does not`);
    return { plan: planOf(f), blob: file.blob, uploaded: f.uploaded, partsDone: f.partsDone };
  });
  // an encrypted upload seals its remaining parts with the key and salts the checkpoint kept
  const saltOf = new Map(
    checkpoint.files.flatMap((cf) => (cf.e2e ? [[cf.fileId, { salt: cf.e2e.salt, plainSize: cf.size }] as const] : [])),
  );
  const key = checkpoint.e2eKey ? (await e2eSeal()).keyFromText(checkpoint.e2eKey) : undefined;
  const files = await withSealers(plain, (plan) => saltOf.get(plan.fileId), key);
  return uploadAndComplete(checkpoint, files, true, callbacks, options);
}

/**
 * After a confirmed cancel (the engine is already aborted): the server aborts the uploads and
 * the checkpoint goes, so the files are not offered for resuming.
 */
export async function cancelUpload(
  transfer: { id: string; uploadToken: string },
  options: FlowOptions = {},
): Promise<void> {
  clearCheckpoint(transfer.id, ...storageArg(options));
  await cancelTransfer(transfer.id, transfer.uploadToken);
}
