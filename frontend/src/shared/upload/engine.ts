/**
 * The browser upload engine (spec §8, §9; architecture §3): files go straight to the bucket by
 * presigned PUTs, small files whole, large ones in parts, at most 4 requests in flight across
 * all files (3 once something is on its 3rd try, 2 from the 5th), each failing unit retried
 * with backoff up to 15 tries. Every finished part is recorded server-side, which is what
 * makes a transfer resumable: the server, not ListParts, knows what is done. The record call
 * runs beside the uploads, not in their slots: a part's slot is free once its PUT is answered,
 * and a file is completed only once every part of it is recorded.
 * Framework-free; the send screen drives it through runUpload and its callbacks.
 */
import {
  SIGNED_URLS_PER_ANSWER,
  type CompleteFileRequest,
  type PlannedFile,
  type RecordPartRequest,
  type RecordPartsRequest,
  type SignManyRequest,
  type SignManyResponse,
  type SignRequest,
  type SignResponse,
} from '@domain/transfer-api';
import { MAX_PARTS_PER_RECORD, MAX_PARTS_PER_SIGN } from '@domain/transfer-api';
import {
  MAX_UPLOAD_TRIES,
  SIGNED_PUT_EXPIRES_SECONDS,
  backoffMs,
  completionPollDelayMs,
  isRetryWarningTry,
  parallelismForTry,
} from '@domain/upload';
import { secondsRemaining } from '@domain/time-remaining';
import { WARNING_TOAST_MS } from '@domain/ui-timings';
import { MiB, MINUTE_MS, SECOND_MS } from '@domain/units';
import { SpeedMeter } from './speed';
import {
  TransportError,
  defaultPut,
  isAuthFailure,
  parseS3Error,
  type PutBody,
  type PutFn,
  type PutResult,
} from './transport';
import { UploadCancelledError, UploadFailedError } from './errors';
import { plainRangeOf, sealedPlanProblem, storedRangeOf, type PartSealer } from './sealed-parts';

/** Optional second argument: the engine aborts API calls it no longer waits for. */
export interface UploadApiCallInit {
  readonly signal?: AbortSignal;
}

export interface UploadApi {
  /** fresh presigned URL(s): the spec's "fresh key fetch" */
  sign(req: SignRequest, init?: UploadApiCallInit): Promise<SignResponse>;
  /** PUT URLs for several single files at once (the plans a large create left without one) */
  signMany?(req: SignManyRequest, init?: UploadApiCallInit): Promise<SignManyResponse>;
  /** the server records number, ETag, size and CRC-32 of a finished part */
  recordPart(req: RecordPartRequest, init?: UploadApiCallInit): Promise<void>;
  /** several finished parts in one call (up to MAX_PARTS_PER_RECORD): what finished while the last call ran */
  recordParts?(req: RecordPartsRequest, init?: UploadApiCallInit): Promise<void>;
  /**
   * the server completes the multipart upload / verifies the size; `completing` (202) while it
   * puts a large file together in the background: the engine asks again (void: complete).
   * `req` carries a single PUT's CRC-32 (a multipart file's parts carry theirs).
   */
  completeFile(
    fileId: string,
    init?: UploadApiCallInit,
    req?: CompleteFileRequest,
    // biome-ignore lint/suspicious/noConfusingVoidType: an API that resolves nothing has completed the file
  ): Promise<FileCompletion | void>;
}

export interface FileCompletion {
  readonly state: 'completing' | 'complete';
  /** the answer's Retry-After, with `completing` */
  readonly retryAfterSeconds?: number;
}

export interface EngineFile {
  plan: PlannedFile;
  blob: Blob;
  /** resume: the server already has the whole file */
  uploaded?: boolean;
  /** resume: part numbers the server has recorded */
  partsDone?: readonly number[];
  /**
   * End-to-end encrypted (docs/e2e-format.md): `blob` is the plaintext, the plan's sizes are
   * sealed bytes, and each part's plaintext is sealed by this before its CRC-32 and its PUT.
   */
  sealer?: PartSealer;
}

export type UploadPhase = 'getting-ready' | 'warming-up' | 'transferring' | 'resuming' | 'almost-done';

export interface UploadProgress {
  bytesDone: number;
  bytesTotal: number;
  /** files whose bytes are all uploaded (the server may still be completing them: phase 'almost-done') */
  filesDone: number;
  filesTotal: number;
  /** moving average over the last ~5 s, bytes per second */
  speedBps: number;
  /** null while unknown */
  etaMs: number | null;
  phase: UploadPhase;
  /** the highest try any unfinished file or part is on (1 when all is well) */
  tryNumber: number;
}

export type UploadWarning =
  /** tries 2, 5, 10: 'Slow network' / 'We are retrying...' */
  | { kind: 'retrying'; tryNumber: number }
  /** 'Retrying' / 'Network error ~ {message}' */
  | { kind: 'network'; message: string }
  /** 'File is locked' / 'Make sure your file is not in use' */
  | { kind: 'file-locked'; fileName: string };

export { UploadCancelledError, UploadFailedError };

export interface RunUploadOptions {
  api: UploadApi;
  files: EngineFile[];
  signal?: AbortSignal;
  onProgress?(p: UploadProgress): void;
  onWarning?(w: UploadWarning): void;
  /** the files continue an earlier upload (phase 'resuming') */
  resuming?: boolean;
  /** PUT with this fetch instead of XMLHttpRequest (Node, benchmarks) */
  fetchImpl?: typeof fetch;
  /** requests in flight on tries 1-2 (default 4); later tries still drop to 3 and 2 */
  parallelism?: number;
  /**
   * CRC-32 of bytes continuing `previous` (unsigned); default the portable one. Node passes
   * `zlib.crc32` (native, several times faster): the CLI, and the benches driving the engine.
   */
  crc32?(bytes: Uint8Array, previous: number): number;
  /** delay before try n (n >= 2); default backoffMs(n - 1). Tests shorten it. */
  retryDelayMs?(tryNumber: number): number;
  /** wait before asking a `completing` file again; default completionPollDelayMs. Tests shorten it. */
  completionPollDelayMs?(poll: number, retryAfterSeconds?: number): number;
}

/** 'Warming Up...' lasts at least this long after the first byte, and until a unit is done. */
const WARM_UP_MS = 3 * SECOND_MS;
/** Progress callbacks at most this often, except when the phase or try number changes. */
const PROGRESS_INTERVAL_MS = 250;
/** Re-sign a cached URL this long before it expires rather than risk a 403 mid-part. */
const URL_EXPIRY_MARGIN_MS = MINUTE_MS;
/** How far ahead of the parts in flight URLs are signed (keeps sign calls off the critical path). */
const SIGN_AHEAD_PARTS = 8;
/**
 * Record calls in flight at once, beside the uploads. One part per call: enough that a record
 * round trip never queues behind another part's (parts finish at most `parallelism` at a time).
 * With batched records two calls suffice: the parts that finish while one runs go together in
 * the next, so a slow API gets fewer, larger calls instead of a queue (and the per-key rate
 * window sees a call per batch).
 */
const RECORDS_IN_FLIGHT = 4;
const BATCHED_RECORDS_IN_FLIGHT = 2;
/**
 * Units up to this size are read once into memory: the CRC-32 and the PUT use the same bytes
 * (reading a file slice costs as much as the CRC itself). Larger ones (speed-grown parts) are
 * streamed to the PUT from the file as soon as their slot is free, and read a second time for
 * the CRC meanwhile: reading 64 MiB before its PUT could start left the line idle (measured in
 * docs/benchmarks.md). Memory stays at parallelism x this size, plus the read-ahead.
 */
const READ_ONCE_MAX_BYTES = 16 * MiB;
/**
 * The next queued units are read (and their CRC-32 computed) while the running PUTs send, up to
 * this many bytes held ahead: a freed slot starts its next PUT at once instead of after a read.
 */
const READ_AHEAD_MAX_BYTES = 4 * READ_ONCE_MAX_BYTES;

/** An uploaded part waiting for its record call, with the CRC-32 of its bytes. */
interface ToRecord {
  readonly unit: Unit;
  readonly crc32: number;
}

interface FileState {
  /** times the server reset this file's upload in this run */
  restarts: number;
  readonly index: number;
  readonly plan: PlannedFile;
  readonly blob: Blob;
  readonly multipart: boolean;
  readonly uploaded: boolean;
  /** units not finished yet */
  remaining: number;
  /** parts not started, in order; the ones sign batches are taken from */
  readonly units: Unit[];
  /** single PUT URL in use */
  singleUrl?: string;
  /** multipart: signed URLs by part number */
  readonly urls: Map<number, { url: string; validUntil: number }>;
  /** single PUT: the CRC-32 of the bytes put, for the complete call */
  crc32?: number;
  signing?: Promise<void>;
  /** end-to-end encrypted: seals each unit's plaintext (its units are always read whole) */
  readonly sealer?: PartSealer;
}

interface Unit {
  readonly file: FileState;
  readonly part: number;
  /** the stored bytes of the unit (sealed bytes for an encrypted file) */
  readonly start: number;
  readonly end: number;
  /** an encrypted file's unit: the plaintext range sealed into [start, end) */
  readonly plain?: { readonly start: number; readonly end: number };
  /** the try about to run or running (1-based) */
  tryNumber: number;
  /** set once the PUT succeeded; a failed recordPart is retried without uploading again */
  etag?: string;
  /** its bytes are counted as sent (PUT answered); `done` waits for the record as well */
  sent?: boolean;
  /** the CRC-32 of the unit's bytes, computed once (alongside its first PUT) and kept across retries */
  crc32?: Promise<number>;
  /** bytes of the running PUT acknowledged by progress events */
  loaded: number;
  done: boolean;
}

/** One failed try of a unit, classified. */
class TryFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'auth' | 'network' | 'http' | 'api' | 'fatal',
    readonly requestId?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The CRC-32 code, loaded with the first unit: the pages that only offer a send stay lighter. */
let crcModule: Promise<typeof import('./blob-crc32')> | undefined;
const loadCrc = () => {
  // a chunk that failed to load (the network) is asked for again by the next try
  crcModule ??= import('./blob-crc32').catch((err: unknown) => {
    crcModule = undefined;
    throw err;
  });
  return crcModule;
};

/** Restarts of one file the server may ask for before the upload fails (a file that keeps changing). */
const MAX_FILE_RESTARTS = 2;

/**
 * The server found the stored object other than announced, deleted it and reset the file's
 * upload (409 size_mismatch / upload_reset with `details.reset`): upload the file again.
 */
function isUploadReset(err: unknown): boolean {
  const cause = err instanceof TryFailure ? err.cause : err;
  const details = (cause as { details?: unknown } | null)?.details;
  return (
    statusOf(cause) === 409 &&
    typeof details === 'object' &&
    details !== null &&
    (details as { reset?: unknown }).reset === true
  );
}

/** A 4xx from our API (bad token, cancelled transfer, size mismatch) will not change on retry. */
function isFinalApiError(err: unknown): boolean {
  const status = statusOf(err);
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles with the promise, or rejects as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

class UploadRun {
  private readonly abort = new AbortController();
  private readonly put: PutFn;
  private readonly files: FileState[];
  private readonly queue: Unit[] = [];
  /** units that failed at least once and are not done: they set the try number */
  private readonly troubled = new Set<Unit>();
  private readonly inFlight = new Set<Unit>();
  /** uploaded parts waiting for their record call, and the record calls running */
  private readonly toRecord: ToRecord[] = [];
  /** queued units read ahead (and the bytes they hold), taken by their next attempt */
  private readonly readAhead = new Map<Unit, Promise<Uint8Array<ArrayBuffer> | null>>();
  private readAheadBytes = 0;
  private recording = 0;
  private readonly speed = new SpeedMeter();
  private readonly warnedAt = new Map<string, number>();
  private readonly bytesTotal: number;
  private resumedBytes: number;
  private readonly resumingStart: boolean;
  private bytesFinished = 0;
  /** files whose bytes are all in (the count the view shows): a file counts once its last part is uploaded */
  private filesDone: number;
  /** files the server has completed (multipart assembled): the upload ends when all are */
  private filesCompleted: number;
  private completing = 0;
  private firstByteAt: number | null = null;
  private unitsDone = 0;
  private lastPhase: UploadPhase | null = null;
  private lastTry = 1;
  private lastEmit = 0;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private settle!: { resolve: () => void; reject: (e: unknown) => void };
  private finished = false;
  private detach = () => {};

  constructor(private readonly opts: RunUploadOptions) {
    this.put = defaultPut(opts.fetchImpl);
    this.files = opts.files.map((f, index) => this.planFile(f, index));
    this.bytesTotal = this.files.reduce((sum, f) => sum + f.plan.size, 0);
    // Bytes the server already has: whole uploaded files and recorded parts.
    let resumedBytes = 0;
    for (const f of this.files) {
      resumedBytes += f.plan.size;
      for (const u of f.units) resumedBytes -= u.end - u.start;
    }
    this.resumedBytes = resumedBytes;
    this.resumingStart = Boolean(opts.resuming) && resumedBytes > 0;
    this.filesDone = this.files.filter((f) => f.uploaded || f.remaining === 0).length;
    this.filesCompleted = this.files.filter((f) => f.uploaded).length;
    for (const f of this.files) this.queue.push(...f.units);
  }

  /** A fresh unit for part `part` of the file (the whole object for a single PUT). */
  private unitOf(file: FileState, part: number): Unit {
    const { start, end } = storedRangeOf(file.plan, part);
    const plain = file.sealer ? plainRangeOf(file.plan, file.sealer.plainSize, part) : undefined;
    return { file, part, start, end, ...(plain ? { plain } : {}), tryNumber: 1, loaded: 0, done: false };
  }

  private planFile(f: EngineFile, index: number): FileState {
    const { plan, blob } = f;
    const fail = (message: string) =>
      new UploadFailedError({ fileName: plan.fileName, index, part: 0, message, tries: 0 });
    const pickedSize = f.sealer ? f.sealer.plainSize : plan.size;
    if (blob.size !== pickedSize)
      throw fail(`${plan.fileName} changed size since it was picked (${blob.size} bytes, planned ${pickedSize})`);
    const sealedProblem = f.sealer ? sealedPlanProblem(plan, f.sealer.plainSize) : null;
    if (sealedProblem) throw fail(`${plan.fileName}: ${sealedProblem}`);
    const multipart = plan.mode === 'multipart';
    const file: FileState = {
      restarts: 0,
      index,
      plan,
      blob,
      multipart,
      uploaded: Boolean(f.uploaded),
      remaining: 0,
      units: [],
      urls: new Map(),
      ...(f.sealer ? { sealer: f.sealer } : {}),
    };
    if (plan.url) file.singleUrl = plan.url;
    if (f.uploaded) return file;
    if (!multipart) {
      file.units.push(this.unitOf(file, 1));
    } else {
      const { partSize, partCount } = plan;
      if (!partSize || !partCount || Math.max(1, Math.ceil(plan.size / partSize)) !== partCount) {
        throw fail(
          `${plan.fileName}: the upload plan's parts (${partCount} of ${partSize} bytes) do not cover ${plan.size} bytes`,
        );
      }
      const done = new Set(f.partsDone ?? []);
      for (let part = 1; part <= partCount; part++) {
        if (done.has(part)) continue;
        file.units.push(this.unitOf(file, part));
      }
    }
    file.remaining = file.units.length;
    return file;
  }

  run(): Promise<void> {
    const { signal } = this.opts;
    if (signal?.aborted) return Promise.reject(new UploadCancelledError());
    return new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
      const onCancel = () => this.fail(new UploadCancelledError());
      signal?.addEventListener('abort', onCancel, { once: true });
      this.detach = () => signal?.removeEventListener('abort', onCancel);
      this.ticker = setInterval(() => this.emit(), SECOND_MS);
      this.emit(true);
      // Files with nothing left to send (resumed, or all parts recorded) only need completing.
      for (const f of this.files) {
        if (!f.uploaded && f.remaining === 0) void this.completeFile(f);
      }
      this.checkAllDone();
      this.pump();
    });
  }

  // ---- scheduling --------------------------------------------------------------------------

  private currentTry(): number {
    let max = 1;
    for (const u of this.troubled) max = Math.max(max, u.tryNumber);
    return max;
  }

  private limit(): number {
    const tryNumber = this.currentTry();
    const base = this.opts.parallelism ?? parallelismForTry(1);
    return tryNumber < 3 ? base : Math.min(base, parallelismForTry(tryNumber));
  }

  private pump(): void {
    while (!this.finished && this.inFlight.size < this.limit() && this.queue.length > 0) {
      const unit = this.queue.shift()!;
      this.inFlight.add(unit);
      void this.attempt(unit).finally(() => {
        this.inFlight.delete(unit);
        this.pump();
      });
    }
    this.readNext();
  }

  /** Reads the next queued units ahead (one per upload slot at most), within READ_AHEAD_MAX_BYTES. */
  private readNext(): void {
    let ahead = 0;
    for (const unit of this.queue) {
      if (this.finished || ahead >= this.limit()) return;
      ahead += 1;
      const size = unit.end - unit.start;
      if (this.readAhead.has(unit) || unit.etag || size > READ_ONCE_MAX_BYTES) continue;
      if (this.readAheadBytes + size > READ_AHEAD_MAX_BYTES) return;
      this.readAheadBytes += size;
      // a failed read ahead is no failure: the attempt reads again and reports what it finds
      const reading = this.read(unit).then(
        (bytes) => {
          void this.crcOf(unit, bytes).catch(() => undefined);
          return bytes;
        },
        () => null,
      );
      this.readAhead.set(unit, reading);
    }
  }

  /** The unit's bytes: read ahead already, or read now. */
  private async bytesOf(unit: Unit): Promise<Uint8Array<ArrayBuffer>> {
    const ahead = this.readAhead.get(unit);
    if (ahead) {
      this.readAhead.delete(unit);
      this.readAheadBytes -= unit.end - unit.start;
      const bytes = await ahead;
      if (bytes) return bytes;
    }
    return this.read(unit);
  }

  private async attempt(unit: Unit): Promise<void> {
    const { file } = unit;
    let crc32: number;
    try {
      let crc: Promise<number>;
      // a sealed unit is always in memory: its CRC-32 and its PUT are of the sealed bytes
      if (!unit.etag && (unit.end - unit.start <= READ_ONCE_MAX_BYTES || file.sealer)) {
        const bytes = await this.bytesOf(unit);
        crc = this.crcOf(unit, bytes);
        unit.etag = await this.send(unit, bytes);
      } else {
        // read while the PUT runs: the CRC costs no time of its own on the way to recordPart
        crc = this.crcOf(unit);
        if (!unit.etag) unit.etag = await this.send(unit);
      }
      crc32 = await crc;
    } catch (err) {
      unit.loaded = 0;
      // Not awaited: a unit waiting out its backoff must not hold a slot of the parallelism.
      if (!this.finished) void this.failedTry(unit, err);
      return;
    }
    this.markSent(unit);
    if (file.multipart) {
      // The slot is free now: the record runs beside the next uploads.
      this.toRecord.push({ unit, crc32 });
      this.pumpRecords();
      return;
    }
    file.crc32 = crc32;
    this.unitDone(unit);
  }

  /** The unit's bytes are in the bucket: they count for progress and speed from now on. */
  private markSent(unit: Unit): void {
    unit.loaded = 0;
    if (unit.sent) return;
    unit.sent = true;
    this.bytesFinished += unit.end - unit.start;
    this.unitsDone += 1;
    this.emit();
  }

  /** Starts record calls for uploaded parts (batched when the API takes several), a few at once. */
  private pumpRecords(): void {
    const batched = this.opts.api.recordParts !== undefined;
    const inFlight = batched ? BATCHED_RECORDS_IN_FLIGHT : RECORDS_IN_FLIGHT;
    while (!this.finished && this.recording < inFlight && this.toRecord.length > 0) {
      const batch = this.toRecord.splice(0, batched ? MAX_PARTS_PER_RECORD : 1);
      this.recording += 1;
      void this.record(batch).finally(() => {
        this.recording -= 1;
        this.pumpRecords();
      });
    }
  }

  /**
   * Records uploaded parts. A failed record is a failed try of each of its units: retried after
   * the backoff without uploading again (the unit keeps its ETag), never in an upload slot.
   */
  private async record(batch: readonly ToRecord[]): Promise<void> {
    const parts = batch.map(({ unit, crc32 }) => ({
      fileId: unit.file.plan.fileId,
      partNumber: unit.part,
      etag: unit.etag!,
      size: unit.end - unit.start,
      crc32,
    }));
    const { recordParts } = this.opts.api;
    try {
      await this.call((init) =>
        recordParts && parts.length > 1
          ? recordParts.call(this.opts.api, { parts }, init)
          : this.opts.api.recordPart(parts[0]!, init),
      );
    } catch (err) {
      if (!this.finished) for (const { unit } of batch) void this.failedTry(unit, err);
      return;
    }
    for (const { unit } of batch) this.unitDone(unit);
  }

  /** The unit is uploaded and, for a part, recorded: the file completes once all its units are. */
  private unitDone(unit: Unit): void {
    const { file } = unit;
    unit.done = true;
    this.troubled.delete(unit);
    file.urls.delete(unit.part);
    file.remaining -= 1;
    if (file.remaining === 0) {
      this.filesDone += 1;
      void this.completeFile(file);
    }
    this.emit(file.remaining === 0);
  }

  /** Counts the failed try and queues the next one after the backoff, or fails the upload. */
  private async failedTry(unit: Unit, err: unknown): Promise<void> {
    const { file } = unit;
    const failure = err instanceof TryFailure ? err : new TryFailure(messageOf(err), 'api', undefined, { cause: err });
    if (failure.kind === 'fatal' || unit.tryNumber >= MAX_UPLOAD_TRIES) {
      this.fail(
        new UploadFailedError({
          fileName: file.plan.fileName,
          index: file.index,
          part: unit.part,
          message: failure.message,
          tries: unit.tryNumber,
          ...(failure.requestId ? { requestId: failure.requestId } : {}),
          cause: failure.cause ?? failure,
        }),
      );
      return;
    }
    if (failure.kind === 'auth' || failure.kind === 'network') {
      // Spec §8: an expired or rejected URL (and a failed connection) gets a fresh key first.
      if (failure.kind === 'auth' && file.multipart) file.urls.clear();
      else if (file.multipart) file.urls.delete(unit.part);
      else delete file.singleUrl;
    }
    // Counted at once, so units started meanwhile already see the lower parallelism.
    unit.tryNumber += 1;
    this.troubled.add(unit);
    if (isRetryWarningTry(unit.tryNumber))
      this.warn(`retry:${unit.tryNumber}`, { kind: 'retrying', tryNumber: unit.tryNumber });
    this.emit();
    if (failure.kind === 'api') {
      this.warn(`network:${failure.message}`, { kind: 'network', message: failure.message });
    } else if (failure.kind === 'network') {
      if (await this.unreadable(unit))
        this.warn(`locked:${file.plan.fileName}`, { kind: 'file-locked', fileName: file.plan.fileName });
      else this.warn(`network:${failure.message}`, { kind: 'network', message: failure.message });
    }
    // A spent URL is not the network's fault: retry at once with the fresh one.
    const delay = failure.kind === 'auth' ? 0 : this.retryDelay(unit.tryNumber);
    try {
      await sleep(delay, this.abort.signal);
    } catch {
      return;
    }
    if (unit.sent && unit.etag && unit.crc32) {
      // Uploaded already: only its record is tried again, outside the upload slots.
      let crc32: number;
      try {
        crc32 = await unit.crc32;
      } catch {
        return;
      }
      this.toRecord.unshift({ unit, crc32 });
      this.pumpRecords();
      return;
    }
    // Retries go first: a stuck part holds up its file's completion.
    this.queue.unshift(unit);
    this.pump();
  }

  /** Wait before try `tryNumber` (2..15): the spec's exponential backoff unless overridden. */
  private retryDelay(tryNumber: number): number {
    return this.opts.retryDelayMs ? this.opts.retryDelayMs(tryNumber) : backoffMs(tryNumber - 1);
  }

  /**
   * The unit's bytes, read once for its PUT and its CRC-32; a failed read is a network-kind
   * failure. An encrypted file's unit is its plaintext range sealed: the same bytes on every try.
   */
  private async read(unit: Unit): Promise<Uint8Array<ArrayBuffer>> {
    const { sealer } = unit.file;
    const range = unit.plain ?? unit;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(await unit.file.blob.slice(range.start, range.end).arrayBuffer());
    } catch (err) {
      throw new TryFailure(`Could not read ${unit.file.plan.fileName} (${messageOf(err)})`, 'network', undefined, {
        cause: err,
      });
    }
    if (!sealer) return bytes;
    let sealed: Uint8Array;
    try {
      sealed = await sealer.seal(range.start, bytes);
    } catch (err) {
      throw new TryFailure(`Could not encrypt ${unit.file.plan.fileName} (${messageOf(err)})`, 'fatal', undefined, {
        cause: err,
      });
    }
    if (sealed.length !== unit.end - unit.start) {
      throw new TryFailure(
        `${unit.file.plan.fileName}: part ${unit.part} sealed to ${sealed.length} bytes, planned ${unit.end - unit.start}`,
        'fatal',
      );
    }
    return sealed.buffer instanceof ArrayBuffer
      ? new Uint8Array(sealed.buffer, sealed.byteOffset, sealed.length)
      : new Uint8Array(sealed);
  }

  /**
   * The unit's CRC-32, from the bytes it uploads (`bytes` when already read, else its slice of
   * the file); one computation per unit, kept across its retries. A failed read (file changed
   * or locked) is a network-kind failure, read again next try.
   */
  private crcOf(unit: Unit, bytes?: Uint8Array): Promise<number> {
    if (unit.crc32) return unit.crc32;
    const computing = loadCrc()
      .then(async ({ crc32OfBlob, crc32OfBytes }) => {
        if (bytes) return crc32OfBytes(bytes, this.abort.signal, undefined, this.opts.crc32);
        // the server checks the CRC-32 of the stored bytes: an encrypted unit's, sealed
        if (unit.file.sealer) return crc32OfBytes(await this.read(unit), this.abort.signal, undefined, this.opts.crc32);
        return crc32OfBlob(unit.file.blob.slice(unit.start, unit.end), this.abort.signal, undefined, this.opts.crc32);
      })
      .catch((err: unknown) => {
        if (unit.crc32 === computing) delete unit.crc32;
        throw new TryFailure(`Could not read ${unit.file.plan.fileName} (${messageOf(err)})`, 'network', undefined, {
          cause: err,
        });
      });
    // the PUT may fail first and the CRC then go unawaited until the next try
    computing.catch(() => undefined);
    unit.crc32 = computing;
    return computing;
  }

  /** A blob that cannot be read (file changed, deleted, locked by another program). */
  private async unreadable(unit: Unit): Promise<boolean> {
    try {
      await unit.file.blob.slice(unit.start, Math.min(unit.end, unit.start + 1)).arrayBuffer();
      return false;
    } catch {
      // NotReadableError (changed or locked) or NotFoundError (deleted): either way not in our hands.
      return true;
    }
  }

  // ---- one PUT -------------------------------------------------------------------------------

  /** Uploads the unit's bytes (`body` when already read, else its slice of the file) and returns the ETag. */
  private async send(unit: Unit, body?: PutBody): Promise<string> {
    const url = await this.urlFor(unit);
    if (this.firstByteAt === null) {
      this.firstByteAt = performance.now();
      this.speed.add(this.firstByteAt, this.bytesSent());
      this.emit();
    }
    let res: PutResult;
    try {
      res = await this.put(url, body ?? unit.file.blob.slice(unit.start, unit.end), this.abort.signal, (loaded) => {
        unit.loaded = Math.min(loaded, unit.end - unit.start);
        this.emit();
      });
    } catch (err) {
      if (err instanceof TransportError) throw new TryFailure(err.message, 'network', undefined, { cause: err });
      throw err;
    }
    const requestId = res.requestId ?? undefined;
    if (res.status >= 200 && res.status < 300) {
      if (!res.etag) {
        // Without the ETag the part cannot be completed; the bucket's CORS must expose it.
        throw new TryFailure(
          'The storage answer carried no ETag (is it exposed by the bucket CORS?)',
          'fatal',
          requestId,
        );
      }
      return res.etag;
    }
    const s3 = parseS3Error(res.errorBody);
    const message = s3.code ? `${s3.code}: ${s3.message ?? `HTTP ${res.status}`}` : `HTTP ${res.status}`;
    throw new TryFailure(message, isAuthFailure(res.status, res.errorBody) ? 'auth' : 'http', requestId);
  }

  private async urlFor(unit: Unit): Promise<string> {
    const { file } = unit;
    if (!file.multipart) {
      if (!file.singleUrl && this.opts.api.signMany) await this.signSingles(file);
      if (!file.singleUrl) {
        const res = await this.sign({ fileId: file.plan.fileId });
        if (!res.url)
          throw new TryFailure(`Network Error - Could not get key (no URL for ${file.plan.fileName})`, 'api');
        file.singleUrl = res.url;
      }
      return file.singleUrl;
    }
    const cached = file.urls.get(unit.part);
    if (cached && cached.validUntil > Date.now()) {
      this.signAhead(file);
      return cached.url;
    }
    if (file.signing) {
      await file.signing.catch(() => undefined);
      // Just signed: trust it even if the clocks disagree about its expiry.
      const fresh = file.urls.get(unit.part);
      if (fresh) return fresh.url;
    }
    await this.signParts(file, unit.part);
    const fresh = file.urls.get(unit.part);
    if (!fresh) throw new TryFailure(`Network Error - Could not get key (part ${unit.part} not signed)`, 'api');
    this.signAhead(file);
    return fresh.url;
  }

  /** Signs `first` plus the next unsigned parts of the file, one batch, shared by all waiters. */
  private signParts(file: FileState, first: number): Promise<void> {
    const now = Date.now();
    const wanted = [first];
    for (const u of this.queue) {
      if (wanted.length >= MAX_PARTS_PER_SIGN) break;
      if (u.file !== file || u.part === first) continue;
      const c = file.urls.get(u.part);
      if (!c || c.validUntil <= now) wanted.push(u.part);
    }
    const job = (async () => {
      const res = await this.sign({ fileId: file.plan.fileId, partNumbers: wanted });
      const validUntil = this.validUntil(res.expiresAt);
      for (const p of res.parts ?? []) file.urls.set(p.partNumber, { url: p.url, validUntil });
    })();
    file.signing = job;
    void job
      .finally(() => {
        if (file.signing === job) delete file.signing;
      })
      .catch(() => undefined);
    return job;
  }

  /** Signs the next batch in the background while the queued parts still have URLs to use. */
  private signAhead(file: FileState): void {
    if (file.signing || this.finished) return;
    const now = Date.now();
    let ready = 0;
    let next: number | undefined;
    for (const u of this.queue) {
      if (u.file !== file) continue;
      const c = file.urls.get(u.part);
      if (c && c.validUntil > now) ready += 1;
      else if (next === undefined) next = u.part;
      if (ready >= SIGN_AHEAD_PARTS) return;
    }
    if (next !== undefined) void this.signParts(file, next).catch(() => undefined);
  }

  /** Local deadline for a signed URL; falls back to the spec's lifetime when the clocks disagree. */
  private validUntil(expiresAt: number): number {
    const now = Date.now();
    const lifetime = SIGNED_PUT_EXPIRES_SECONDS * SECOND_MS;
    const left = expiresAt > now ? Math.min(expiresAt - now, lifetime) : lifetime;
    return now + left - URL_EXPIRY_MARGIN_MS;
  }

  /**
   * URLs for this single file and the next ones still without one, in one call: a create of
   * thousands of small files answers with the first 100 URLs only (Lambda's 6 MB answer).
   */
  private async signSingles(file: FileState): Promise<void> {
    if (file.signing) {
      await file.signing.catch(() => undefined);
      if (file.singleUrl) return;
    }
    const batch = [
      file,
      ...this.files.filter(
        (f) => f !== file && !f.multipart && !f.uploaded && f.remaining > 0 && !f.singleUrl && !f.signing,
      ),
    ].slice(0, SIGNED_URLS_PER_ANSWER);
    const signing = (async () => {
      let res: SignManyResponse;
      try {
        res = await this.call((init) => this.opts.api.signMany!({ fileIds: batch.map((f) => f.plan.fileId) }, init));
      } catch (err) {
        if (err instanceof TryFailure || this.finished) throw err;
        throw new TryFailure(`Network Error - Could not get key (${messageOf(err)})`, 'api', undefined, { cause: err });
      }
      const urls = new Map(res.files.map((f) => [f.fileId, f.url]));
      for (const f of batch) {
        const url = urls.get(f.plan.fileId);
        if (url && !f.singleUrl) f.singleUrl = url;
      }
    })();
    for (const f of batch) f.signing = signing;
    try {
      await signing;
    } finally {
      for (const f of batch) if (f.signing === signing) delete f.signing;
    }
  }

  private async sign(req: SignRequest): Promise<SignResponse> {
    try {
      return await this.call((init) => this.opts.api.sign(req, init));
    } catch (err) {
      if (err instanceof TryFailure || this.finished) throw err;
      throw new TryFailure(`Network Error - Could not get key (${messageOf(err)})`, 'api', undefined, { cause: err });
    }
  }

  /** An API call that stops being awaited on cancel; a final 4xx fails the upload at once. */
  private async call<T>(fn: (init: UploadApiCallInit) => Promise<T>): Promise<T> {
    try {
      return await untilAborted(fn({ signal: this.abort.signal }), this.abort.signal);
    } catch (err) {
      if (this.finished) throw err;
      if (isFinalApiError(err)) throw new TryFailure(messageOf(err), 'fatal', undefined, { cause: err });
      throw err;
    }
  }

  // ---- completing files ----------------------------------------------------------------------

  private async completeFile(file: FileState): Promise<void> {
    this.completing += 1;
    this.emit();
    // A `completing` answer is no failed try: the server is putting the file together; ask again.
    for (let tryNumber = 1, polls = 0; ; tryNumber++) {
      try {
        const answer = await this.call((init) =>
          this.opts.api.completeFile(
            file.plan.fileId,
            init,
            file.crc32 === undefined ? undefined : { crc32: file.crc32 },
          ),
        );
        if (answer?.state !== 'completing') break;
        polls += 1;
        tryNumber -= 1;
        try {
          const wait = this.opts.completionPollDelayMs ?? completionPollDelayMs;
          await sleep(wait(polls, answer.retryAfterSeconds), this.abort.signal);
        } catch {
          return;
        }
      } catch (err) {
        if (this.finished) return;
        if (isUploadReset(err) && file.restarts < MAX_FILE_RESTARTS) {
          this.restartFile(file);
          return;
        }
        const fatal = err instanceof TryFailure && err.kind === 'fatal';
        if (fatal || tryNumber >= MAX_UPLOAD_TRIES) {
          this.fail(
            new UploadFailedError({
              fileName: file.plan.fileName,
              index: file.index,
              part: 0,
              message: messageOf(err),
              tries: tryNumber,
              cause: err,
            }),
          );
          return;
        }
        if (isRetryWarningTry(tryNumber + 1))
          this.warn(`retry:${tryNumber + 1}`, { kind: 'retrying', tryNumber: tryNumber + 1 });
        try {
          await sleep(this.retryDelay(tryNumber + 1), this.abort.signal);
        } catch {
          return;
        }
      }
    }
    this.completing -= 1;
    this.filesCompleted += 1;
    this.emit(true);
    this.checkAllDone();
  }

  /** Every part of the file again (the server has forgotten them), with fresh URLs. */
  private restartFile(file: FileState): void {
    this.completing -= 1;
    // Its bytes are to be sent again: it no longer counts as in.
    this.filesDone -= 1;
    file.restarts += 1;
    file.urls.clear();
    delete file.singleUrl;
    // read again: the server found the stored bytes other than announced
    delete file.crc32;
    // Its bytes, done in this run or before a reload, no longer count.
    for (const u of file.units) if (u.sent) this.bytesFinished -= u.end - u.start;
    this.resumedBytes -= file.plan.size - file.units.reduce((sum, u) => sum + (u.end - u.start), 0);
    const partCount = file.multipart ? file.plan.partCount! : 1;
    file.units.length = 0;
    for (let part = 1; part <= partCount; part++) file.units.push(this.unitOf(file, part));
    file.remaining = file.units.length;
    this.queue.push(...file.units);
    this.emit(true);
    this.pump();
  }

  private checkAllDone(): void {
    if (this.finished || this.filesCompleted < this.filesTotal()) return;
    this.emit(true);
    this.finish();
    this.settle.resolve();
  }

  private filesTotal(): number {
    return this.files.length;
  }

  // ---- ending --------------------------------------------------------------------------------

  private fail(err: unknown): void {
    if (this.finished) return;
    this.finish();
    this.abort.abort(err);
    this.settle.reject(err);
  }

  private finish(): void {
    this.finished = true;
    this.readAhead.clear();
    this.readAheadBytes = 0;
    this.detach();
    if (this.ticker !== undefined) clearInterval(this.ticker);
  }

  // ---- progress and warnings -----------------------------------------------------------------

  /** bytes sent in this run (resumed bytes excluded): finished units plus running progress */
  private bytesSent(): number {
    let running = 0;
    for (const u of this.inFlight) running += u.loaded;
    return this.bytesFinished + running;
  }

  private phase(bytesDone: number): UploadPhase {
    // every file's bytes are stored (not only sent) and recorded, so the count shows them all
    const allIn = bytesDone >= this.bytesTotal && this.filesDone === this.filesTotal();
    if (allIn && (this.completing > 0 || this.filesCompleted === this.filesTotal())) return 'almost-done';
    const early = this.resumingStart ? 'resuming' : null;
    if (this.firstByteAt === null) return early ?? 'getting-ready';
    if (this.unitsDone === 0 || performance.now() - this.firstByteAt < WARM_UP_MS) return early ?? 'warming-up';
    return 'transferring';
  }

  private emit(force = false): void {
    const { onProgress } = this.opts;
    if (!onProgress || (this.finished && !force)) return;
    const now = performance.now();
    const sent = this.bytesSent();
    const bytesDone = Math.min(this.bytesTotal, this.resumedBytes + sent);
    const phase = this.phase(bytesDone);
    const tryNumber = this.currentTry();
    if (!force && phase === this.lastPhase && tryNumber === this.lastTry && now - this.lastEmit < PROGRESS_INTERVAL_MS)
      return;
    this.lastEmit = now;
    this.lastPhase = phase;
    this.lastTry = tryNumber;
    let speedBps = 0;
    let etaMs: number | null = null;
    if (this.firstByteAt !== null) {
      this.speed.add(now, sent);
      speedBps = this.speed.bytesPerSecond();
      const seconds = this.speed.spanMs() >= SECOND_MS ? secondsRemaining(this.bytesTotal - bytesDone, speedBps) : null;
      etaMs = seconds === null ? null : Math.round(seconds * SECOND_MS);
    }
    onProgress({
      bytesDone,
      bytesTotal: this.bytesTotal,
      filesDone: this.filesDone,
      filesTotal: this.filesTotal(),
      speedBps,
      etaMs,
      phase,
      tryNumber,
    });
  }

  /** Same warning at most once per warning-toast period, so 4 failing parts raise one toast. */
  private warn(key: string, warning: UploadWarning): void {
    if (this.finished || !this.opts.onWarning) return;
    const now = performance.now();
    const last = this.warnedAt.get(key);
    if (last !== undefined && now - last < WARNING_TOAST_MS) return;
    this.warnedAt.set(key, now);
    this.opts.onWarning(warning);
  }
}

/**
 * Uploads every file of the plan and completes each on the server. Resolves when all files are
 * complete; rejects with UploadCancelledError when `signal` aborts (every request in flight is
 * aborted with it) or UploadFailedError when a file or part fails its 15th try.
 */
export async function runUpload(opts: RunUploadOptions): Promise<void> {
  return new UploadRun(opts).run();
}
