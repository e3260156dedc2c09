/**
 * The plan of a ZIP archive composed inside S3: a multipart upload whose parts are either
 * ranges of the source objects that S3 copies itself (UploadPartCopy, 5 MiB-5 GiB) or parts
 * the builder assembles from the archive's framing (local headers, data descriptors, the
 * central directory) and the few source bytes that cannot be copied (the head of a file that
 * fills a part to S3's 5 MiB minimum, and files too small to copy). Pure arithmetic: no I/O.
 *
 * Entries are STORED with data descriptors (flag bit 3), so no header before an entry's data
 * needs its CRC-32: the descriptor after the data and the central directory carry it, from the
 * checksum recorded at upload. The plan is a function of the entries' names and sizes only, so
 * every invocation of a build derives the same parts and can resume from the ones already done.
 * Design and arithmetic: docs/decisions/0072-download-all-composed-inside-s3.md.
 */
import { S3_MAX_PART_BYTES, S3_MAX_PARTS, S3_MIN_PART_BYTES } from '../../domain/upload';
import { GiB, MiB } from '../../domain/units';
import {
  centralDirectoryHeader,
  centralHeaderLength,
  dataDescriptor,
  dataDescriptorLength,
  directoryEnd,
  directoryEndLength,
  entryNeedsZip64,
  localFileHeader,
  localHeaderLength,
} from './zip-format';

export interface ComposeEntry {
  /** final entry name's UTF-8 length (names are sanitised and made unique before planning) */
  readonly nameBytes: number;
  readonly size: number;
}

/** Bytes of one part, in archive order. */
export type Piece =
  | { readonly kind: 'local-header'; readonly entry: number; readonly bytes: number }
  | { readonly kind: 'descriptor'; readonly entry: number; readonly bytes: number }
  /** the central directory and its end records: the archive's last bytes */
  | { readonly kind: 'directory'; readonly bytes: number }
  /** source bytes read through the builder: [start, end) of the entry's object */
  | { readonly kind: 'read'; readonly entry: number; readonly start: number; readonly end: number };

export type ComposedPart =
  /** UploadPartCopy of [start, end) of the entry's object */
  | {
      readonly number: number;
      readonly kind: 'copy';
      readonly entry: number;
      readonly start: number;
      readonly end: number;
      readonly size: number;
    }
  /** UploadPart of the pieces' bytes, streamed in order */
  | { readonly number: number; readonly kind: 'upload'; readonly pieces: readonly Piece[]; readonly size: number };

export interface ComposeOptions {
  /** ZIP64 records for every entry and the end */
  readonly forceZip64?: boolean;
  /** an assembled part is closed once it holds this many bytes (default 16 MiB) */
  readonly uploadPartBytes?: number;
  /** copy ranges start at this size and grow (up to S3's 5 GiB) until the parts fit (default 1 GiB) */
  readonly copyPartBytes?: number;
  /** S3's limits, as options only so a test can plan against smaller ones */
  readonly minPartBytes?: number;
  readonly maxPartBytes?: number;
  readonly maxParts?: number;
}

export interface ComposePlan {
  readonly parts: readonly ComposedPart[];
  /** exact archive size */
  readonly size: number;
  /** where each entry's local header starts (for the central directory) */
  readonly offsets: readonly number[];
  readonly zip64: readonly boolean[];
  readonly forceZip64: boolean;
  /** the copy ranges' target size the plan settled on */
  readonly copyPartBytes: number;
  /** entries read through the builder although they are big enough to copy (to stay within S3's part count) */
  readonly readThrough: readonly number[];
  readonly totals: { readonly copyBytes: number; readonly readBytes: number; readonly framingBytes: number };
}

export class ComposeLimitError extends Error {
  override readonly name = 'ComposeLimitError';
}

const DEFAULT_UPLOAD_PART_BYTES = 16 * MiB;
const DEFAULT_COPY_PART_BYTES = 1 * GiB;

interface Limits {
  readonly min: number;
  readonly max: number;
  readonly maxParts: number;
  readonly uploadTarget: number;
}

/**
 * Parts of the archive of these entries (in archive order). Throws ComposeLimitError when no
 * plan within S3's limits exists (more than 5,000 entries of the plans is far from it).
 */
export function planComposedZip(entries: readonly ComposeEntry[], opts: ComposeOptions = {}): ComposePlan {
  const limits: Limits = {
    min: opts.minPartBytes ?? S3_MIN_PART_BYTES,
    max: opts.maxPartBytes ?? S3_MAX_PART_BYTES,
    maxParts: opts.maxParts ?? S3_MAX_PARTS,
    uploadTarget: Math.max(opts.uploadPartBytes ?? DEFAULT_UPLOAD_PART_BYTES, opts.minPartBytes ?? S3_MIN_PART_BYTES),
  };
  for (const e of entries)
    if (!Number.isSafeInteger(e.size) || e.size < 0 || !Number.isSafeInteger(e.nameBytes) || e.nameBytes < 1)
      throw new RangeError(`invalid entry (size ${e.size}, name bytes ${e.nameBytes})`);
  const force = Boolean(opts.forceZip64);
  const readThrough = new Set<number>();
  let copyPart = Math.min(Math.max(opts.copyPartBytes ?? DEFAULT_COPY_PART_BYTES, 2 * limits.min), limits.max);
  for (;;) {
    const plan = layOut(entries, force, limits, copyPart, readThrough);
    if (plan.parts.length <= limits.maxParts) return plan;
    // Larger copy ranges first (fewer parts, nothing more read); then read the smallest copied files through.
    if (copyPart < limits.max) {
      copyPart = Math.min(limits.max, copyPart * 2);
      continue;
    }
    const excess = plan.parts.length - limits.maxParts;
    const copied = entries
      .map((e, i) => ({ i, size: e.size }))
      .filter(({ i }) => plan.copied.has(i))
      .sort((a, b) => a.size - b.size || a.i - b.i);
    if (copied.length === 0) throw new ComposeLimitError(`${plan.parts.length} parts even with nothing copied`);
    // Reading a file through saves at least one part (its copy range); often two (a seam merges).
    for (const { i } of copied.slice(0, Math.max(1, Math.ceil(excess / 2)))) readThrough.add(i);
  }
}

function layOut(
  entries: readonly ComposeEntry[],
  force: boolean,
  limits: Limits,
  copyPart: number,
  readThrough: ReadonlySet<number>,
): ComposePlan & { copied: Set<number> } {
  const parts: ComposedPart[] = [];
  const offsets: number[] = [];
  const zip64: boolean[] = [];
  const copied = new Set<number>();
  let pieces: Piece[] = [];
  let partSize = 0;
  let offset = 0;
  let cdSize = 0;
  const totals = { copyBytes: 0, readBytes: 0, framingBytes: 0 };

  const close = () => {
    if (partSize === 0) return;
    parts.push({ number: parts.length + 1, kind: 'upload', pieces, size: partSize });
    pieces = [];
    partSize = 0;
  };
  const framing = (piece: Extract<Piece, { bytes: number }>) => {
    pieces.push(piece);
    partSize += piece.bytes;
    totals.framingBytes += piece.bytes;
  };
  /**
   * Reads [start, end) of an entry into assembled parts, closing each at `target` bytes: the
   * assembled part size for small files, S3's maximum for a big file read through (streamed,
   * so its size costs no memory; smaller parts would cost parts, the very thing reading it saves).
   */
  const read = (entry: number, start: number, end: number, target = limits.uploadTarget) => {
    let at = start;
    while (at < end) {
      const take = Math.min(end - at, Math.max(1, target - partSize));
      pieces.push({ kind: 'read', entry, start: at, end: at + take });
      partSize += take;
      totals.readBytes += take;
      at += take;
      if (partSize >= target) close();
    }
  };

  entries.forEach((e, i) => {
    const z = entryNeedsZip64(e.size, force);
    offsets.push(offset);
    zip64.push(z);
    framing({ kind: 'local-header', entry: i, bytes: localHeaderLength(e.nameBytes, z) });
    // The part before a copy range must reach S3's minimum: its head is read to fill it.
    const head = Math.max(0, limits.min - partSize);
    const rest = e.size - head;
    if (!readThrough.has(i) && rest >= limits.min) {
      read(i, 0, head);
      close();
      // Even ranges of at most copyPart: each at least half of it, so never under S3's minimum.
      const count = Math.ceil(rest / copyPart);
      for (let k = 0; k < count; k++) {
        const start = head + Math.floor((rest * k) / count);
        const end = head + Math.floor((rest * (k + 1)) / count);
        parts.push({ number: parts.length + 1, kind: 'copy', entry: i, start, end, size: end - start });
        totals.copyBytes += end - start;
      }
      copied.add(i);
    } else {
      read(i, 0, e.size, readThrough.has(i) ? limits.max : limits.uploadTarget);
    }
    framing({ kind: 'descriptor', entry: i, bytes: dataDescriptorLength(z) });
    offset += localHeaderLength(e.nameBytes, z) + e.size + dataDescriptorLength(z);
    cdSize += centralHeaderLength(e.nameBytes, { size: e.size, offset: offsets[i]!, zip64: z });
  });
  framing({
    kind: 'directory',
    bytes: cdSize + directoryEndLength({ entries: entries.length, cdOffset: offset, cdSize, forceZip64: force }),
  });
  close();
  const size = parts.reduce((n, p) => n + p.size, 0);
  return {
    parts,
    size,
    offsets,
    zip64,
    forceZip64: force,
    copyPartBytes: copyPart,
    readThrough: [...readThrough].sort((a, b) => a - b),
    totals,
    copied,
  };
}

/** How long the parts take at stated rates, and how they split into invocations of a time budget. */
export interface ComposeRates {
  /** bytes/s one UploadPartCopy request copies inside S3 */
  readonly copyBytesPerSecond: number;
  /** bytes/s one assembled part is read from S3 and uploaded, through the builder */
  readonly throughBytesPerSecond: number;
  /** requests in flight at once */
  readonly concurrency: number;
  /** fixed cost per request (latency), seconds */
  readonly requestSeconds: number;
}

export const partSeconds = (p: ComposedPart, r: ComposeRates): number =>
  r.requestSeconds + (p.kind === 'copy' ? p.size / r.copyBytesPerSecond : p.size / r.throughBytesPerSecond);

/**
 * Groups the parts, in order, into invocations whose estimated time (the parts' time spread
 * over `concurrency` requests, plus the longest part, which may start last) stays within
 * `budgetSeconds`. Each invocation records what it finished, so the next resumes after it.
 */
export function invocationsOf(
  plan: Pick<ComposePlan, 'parts'>,
  rates: ComposeRates,
  budgetSeconds: number,
): { readonly first: number; readonly last: number; readonly seconds: number }[] {
  const out: { first: number; last: number; seconds: number }[] = [];
  let first = 0;
  let sum = 0;
  let longest = 0;
  const estimate = (s: number, l: number) => s / rates.concurrency + l;
  plan.parts.forEach((p, i) => {
    const t = partSeconds(p, rates);
    if (i > first && estimate(sum + t, Math.max(longest, t)) > budgetSeconds) {
      out.push({ first: plan.parts[first]!.number, last: plan.parts[i - 1]!.number, seconds: estimate(sum, longest) });
      first = i;
      sum = 0;
      longest = 0;
    }
    sum += t;
    longest = Math.max(longest, t);
  });
  if (plan.parts.length > first)
    out.push({ first: plan.parts[first]!.number, last: plan.parts.at(-1)!.number, seconds: estimate(sum, longest) });
  return out;
}

/** What the framing of an entry needs beyond the plan: its name, time and CRC-32 (recorded at upload). */
export interface FramedEntry {
  readonly nameBytes: Uint8Array;
  readonly mtimeMs: number;
  readonly size: number;
  readonly crc: number;
}

/** The bytes of a framing piece (a local header, a descriptor, or the directory with its end records). */
export function framingBytes(
  piece: Exclude<Piece, { kind: 'read' }>,
  plan: Pick<ComposePlan, 'offsets' | 'zip64' | 'forceZip64'>,
  entries: readonly FramedEntry[],
): Buffer {
  const header = (i: number) => ({
    nameBytes: entries[i]!.nameBytes,
    mtimeMs: entries[i]!.mtimeMs,
    zip64: plan.zip64[i]!,
  });
  let out: Buffer;
  if (piece.kind === 'local-header') out = localFileHeader(header(piece.entry));
  else if (piece.kind === 'descriptor')
    out = dataDescriptor(entries[piece.entry]!.crc, entries[piece.entry]!.size, plan.zip64[piece.entry]!);
  else {
    const headers = entries.map((e, i) =>
      centralDirectoryHeader({ ...header(i), crc: e.crc, size: e.size, offset: plan.offsets[i]! }),
    );
    const cdSize = headers.reduce((n, h) => n + h.length, 0);
    const last = entries.length - 1;
    const cdOffset =
      last < 0
        ? 0
        : plan.offsets[last]! +
          localHeaderLength(entries[last]!.nameBytes.length, plan.zip64[last]!) +
          entries[last]!.size +
          dataDescriptorLength(plan.zip64[last]!);
    headers.push(directoryEnd({ entries: entries.length, cdOffset, cdSize, forceZip64: plan.forceZip64 }));
    out = Buffer.concat(headers);
  }
  if (out.length !== piece.bytes) throw new Error(`${piece.kind} is ${out.length} bytes, planned ${piece.bytes}`);
  return out;
}
