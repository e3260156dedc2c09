/** Upload and network constants of spec §9, and the S3 part-size rule of the architecture (§3). */
import { KiB, MB, MiB, GiB, TiB, MINUTE_MS, SECOND_MS } from './units';

/** Files of 50 MB or more go multipart (resumable); smaller ones take one signed PUT. */
export const MULTIPART_THRESHOLD_BYTES = 50 * MB;

export function usesMultipart(fileSize: number): boolean {
  return fileSize >= MULTIPART_THRESHOLD_BYTES;
}

export type ConnectionType = 'slow-2g' | '2g' | '3g' | '4g';

/**
 * Slice sizes by connection (navigator.connection.effectiveType) and on retry, from the
 * original product, whose storage took parts from 100 KB. S3 parts must be at least 5 MiB, so
 * these never size an S3 part (partSizeFor does); they may size the browser's read/progress slices.
 */
export const SLICE_SIZE_BY_CONNECTION: Readonly<Record<ConnectionType, number>> = {
  'slow-2g': 128 * KiB,
  '2g': 256 * KiB,
  '3g': 512 * KiB,
  '4g': 2048 * KiB,
};
export const DEFAULT_SLICE_SIZE = 2048 * KiB;
export const RETRY_SLICE_SIZES = [1 * MiB, 512 * KiB] as const;

export function sliceSizeForConnection(effectiveType: string | null | undefined): number {
  // Own keys only: 'toString' is `in` every object.
  return effectiveType && Object.hasOwn(SLICE_SIZE_BY_CONNECTION, effectiveType)
    ? SLICE_SIZE_BY_CONNECTION[effectiveType as ConnectionType]
    : DEFAULT_SLICE_SIZE;
}

/**
 * Completing a multipart upload (CompleteMultipartUpload) inside the complete route only up to
 * this size; larger files complete in the complete-upload job and the route answers 202
 * `completing` (docs/decisions/0071-completion-in-the-background.md has the arithmetic: at ten
 * times s3rver's slowest 9 s/GiB, 100 MiB takes 9 s, under a third of the route's 29 s).
 */
export const INLINE_COMPLETE_MAX_BYTES = 100 * MiB;

/** Whether the complete route puts the file together itself (single PUTs have nothing to put together). */
export function completesInline(file: { readonly mode: string; readonly size: number }): boolean {
  return file.mode !== 'multipart' || file.size <= INLINE_COMPLETE_MAX_BYTES;
}

/**
 * Retry-After of a `completing` answer: about a sixth of what s3rver needs for the file at its
 * slowest (9 s/GiB), 2 to 10 s, so a poll rarely comes too early or much too late.
 */
export function completionRetryAfterSeconds(bytes: number): number {
  return Math.min(10, Math.max(2, Math.ceil((bytes / GiB) * 1.5)));
}

/**
 * The wait before asking a `completing` file or transfer again (poll n, 1-based): the server's
 * Retry-After at least, and a backoff doubling from 1 s up to 10 s, so a long completion is
 * asked about a few times a minute at most.
 */
export function completionPollDelayMs(poll: number, retryAfterSeconds?: number): number {
  const backoff = Math.min(10 * SECOND_MS, SECOND_MS * 2 ** Math.max(0, poll - 1));
  return Math.max(backoff, (retryAfterSeconds ?? 0) * SECOND_MS);
}

export const S3_MIN_PART_BYTES = 5 * MiB;
export const S3_MAX_PART_BYTES = 5 * GiB;
export const S3_MAX_PARTS = 10_000;
export const S3_MAX_OBJECT_BYTES = 5 * TiB;

/** A file-size-grown part aims at about this many parts: fewer sign and record calls per byte. */
export const PART_TARGET_COUNT = 1000;
/** The most the file size alone grows a part to: a failed part is sent again whole. */
export const SIZE_GROWN_PART_MAX_BYTES = 64 * MiB;
/** A part should take about this long at one slot's share of the measured speed. */
export const PART_TARGET_SECONDS = 4;
/** The most the measured speed grows a part to. */
export const SPEED_GROWN_PART_MAX_BYTES = 512 * MiB;
/** A grown part leaves at least this many parts per upload slot, so every slot has work to the end. */
export const PARTS_PER_SLOT_AT_LEAST = 4;
/** Upload speeds a sender may report, bytes per second (above: a clock or a bug; 100 Gbit/s). */
export const UPLOAD_SPEED_MAX_BPS = 12.5e9;

export interface PartSizeHints {
  /** the sender's measured upload speed (all slots together), bytes per second */
  readonly bytesPerSecond?: number;
  /** upload slots in parallel (default 4, the spec's first tries) */
  readonly parallelism?: number;
}

const wholeMiBUp = (bytes: number) => Math.ceil(bytes / MiB) * MiB;

/**
 * Part size for a multipart upload, in whole MiB within S3's 5 MiB..5 GiB and 10,000 parts:
 * the smallest that fits the file into 10,000 parts, grown with the file (about
 * PART_TARGET_COUNT parts, up to 64 MiB) and with the measured speed (a part takes about
 * PART_TARGET_SECONDS at one slot's share, up to 512 MiB), while the growth still leaves
 * PARTS_PER_SLOT_AT_LEAST parts for each slot. Per-request costs (latency, the sign and record
 * calls) then stay a small share of a part's time on fast links, and slow links keep small parts.
 */
export function partSizeFor(fileSize: number, hints: PartSizeHints = {}): number {
  if (!Number.isSafeInteger(fileSize) || fileSize < 0) throw new RangeError(`bad file size ${fileSize}`);
  if (fileSize > S3_MAX_OBJECT_BYTES) throw new RangeError(`file of ${fileSize} bytes exceeds the S3 object limit`);
  const fits = Math.max(S3_MIN_PART_BYTES, wholeMiBUp(Math.ceil(fileSize / S3_MAX_PARTS)));
  const slots = Math.max(1, Math.floor(hints.parallelism ?? 4));
  const speed = hints.bytesPerSecond;
  const bySize = Math.min(SIZE_GROWN_PART_MAX_BYTES, wholeMiBUp(fileSize / PART_TARGET_COUNT));
  const bySpeed =
    speed !== undefined && Number.isFinite(speed) && speed > 0
      ? Math.min(
          SPEED_GROWN_PART_MAX_BYTES,
          wholeMiBUp((Math.min(speed, UPLOAD_SPEED_MAX_BPS) / slots) * PART_TARGET_SECONDS),
        )
      : 0;
  const spread = Math.floor(fileSize / (slots * PARTS_PER_SLOT_AT_LEAST) / MiB) * MiB;
  return Math.min(S3_MAX_PART_BYTES, Math.max(fits, Math.min(Math.max(bySize, bySpeed), spread)));
}

export function partCountFor(fileSize: number, partSize: number = partSizeFor(fileSize)): number {
  return Math.max(1, Math.ceil(fileSize / partSize));
}

/** Byte range [start, end) of a 1-based part number, for the file's planned part size. */
export function partRange(
  fileSize: number,
  partNumber: number,
  partSize: number = partSizeFor(fileSize),
): { start: number; end: number } {
  const count = partCountFor(fileSize, partSize);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > count) {
    throw new RangeError(`part ${partNumber} outside 1..${count}`);
  }
  const start = (partNumber - 1) * partSize;
  return { start, end: Math.min(fileSize, start + partSize) };
}

export const MAX_UPLOAD_TRIES = 15;
export const RETRY_WARNING_TRIES = [2, 5, 10] as const;

export function isRetryWarningTry(tryNumber: number): boolean {
  return (RETRY_WARNING_TRIES as readonly number[]).includes(tryNumber);
}

/** Parallel parts: 4, dropping to 3 from the 3rd try and 2 from the 5th (1-based tries). */
export function parallelismForTry(tryNumber: number): 2 | 3 | 4 {
  if (tryNumber >= 5) return 2;
  if (tryNumber >= 3) return 3;
  return 4;
}

export const SIGNED_PUT_EXPIRES_SECONDS = 3600;
export const IMAGE_URL_EXPIRES_SECONDS = 600;
export const IMAGE_PREVIEW_MAX_BYTES = 100 * MB;

export function canPreviewImage(fileSize: number): boolean {
  return fileSize <= IMAGE_PREVIEW_MAX_BYTES;
}

/** Defined with the interface timings (the download page's first load needs nothing else of this module). */
export { DOWNLOAD_REQUEST_TIMEOUT_MS } from './ui-timings';
export const STORAGE_TOKEN_REFRESH_MS = 300_000;
export const STORAGE_TOKEN_TIMEOUT_MS = 90 * SECOND_MS;
export const STORAGE_TOKEN_RETRIES = 3;
export const CHUNK_LOAD_TIMEOUT_MS = 120 * SECOND_MS;
export const CHUNK_LOAD_RETRIES = 5;
export const CHUNK_LOAD_RETRY_DELAY_MS = 3 * SECOND_MS;
/** API calls that fail are retried up to 4 times with exponential backoff. */
export const REQUEST_RETRIES = 4;

/** Delay before retry `attempt` (1-based): base doubling each time, capped. */
export function backoffMs(attempt: number, baseMs = 500, capMs = MINUTE_MS): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** A saved resume checkpoint belongs to a file only if name and size both match. */
export function checkpointMatches(
  checkpoint: { fileName: string; size: number },
  file: { fileName: string; size: number },
): boolean {
  return checkpoint.fileName === file.fileName && checkpoint.size === file.size;
}
