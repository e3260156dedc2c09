/**
 * ZIP container format (PKWARE APPNOTE 6.3.x): the byte layout of a streamed archive of
 * STORED entries, plus the rules that make entry names safe. Pure bytes, no I/O.
 *
 * Layout per entry: local header (sizes and CRC zero, flag bit 3) | data | data descriptor.
 * Then the central directory, an optional ZIP64 end record + locator, and the end record.
 * Files are usually already-compressed media, so entries are never deflated: the cost of an
 * archive is one CRC pass and a copy.
 */
import zlib from 'node:zlib';
import { crc32Portable } from '../../domain/crc32';

export { crc32Combine, crc32Portable } from '../../domain/crc32';

/** A 32-bit field holding this value means "see the ZIP64 extra field", so it is itself out of range. */
export const ZIP64_MARKER_32 = 0xffffffff;
export const ZIP64_MARKER_16 = 0xffff;

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_EOCD = 0x06054b50;

/** bit 3: CRC and sizes follow the data in a descriptor; bit 11: names are UTF-8. */
export const FLAGS = 0x0008 | 0x0800;
const METHOD_STORED = 0;
/** Unix host (so external attributes carry a mode), spec version 6.3 (UTF-8 names). */
const VERSION_MADE_BY = (3 << 8) | 63;
const VERSION_NEEDED = 20;
const VERSION_NEEDED_ZIP64 = 45;
/** Regular file, rw-r--r--: extracted files are not executable whatever the sender's OS did. */
const EXTERNAL_ATTRS = (0o100644 << 16) >>> 0;

const EXTRA_ZIP64 = 0x0001;
/** Info-ZIP "UT" extended timestamp: the exact UTC mtime, which DOS time cannot hold. */
const EXTRA_TIMESTAMP = 0x5455;
const TIMESTAMP_EXTRA_BYTES = 4 + 5;

export const LOCAL_HEADER_FIXED = 30;
export const CENTRAL_HEADER_FIXED = 46;
export const EOCD_BYTES = 22;
export const ZIP64_EOCD_BYTES = 56;
export const ZIP64_LOCATOR_BYTES = 20;

// ---------------------------------------------------------------------------------------------
// CRC-32 (IEEE 802.3, as ZIP uses it)

type Crc32 = (data: Uint8Array, previous?: number) => number;
// zlib.crc32 exists from Node 20.15/22.2 and runs ~4x faster (native, SIMD); the types of
// @types/node 20 may not declare it, hence the lookup.
const nativeCrc32 = (zlib as unknown as { crc32?: Crc32 }).crc32;

export const crc32: Crc32 = typeof nativeCrc32 === 'function' ? (d, p = 0) => nativeCrc32(d, p) : crc32Portable;
export const usesNativeCrc32 = typeof nativeCrc32 === 'function';

// ---------------------------------------------------------------------------------------------
// Times

/**
 * MS-DOS date and time fields, in the local time of the process (UTC in Lambda), clamped to
 * what they can hold (1980-01-01 to 2107-12-31, 2-second steps).
 */
export function dosDateTime(mtimeMs: number): { date: number; time: number } {
  const d = new Date(mtimeMs);
  const year = d.getFullYear();
  if (!Number.isFinite(year) || year < 1980) return { date: (0 << 9) | (1 << 5) | 1, time: 0 };
  if (year > 2107) return { date: (127 << 9) | (12 << 5) | 31, time: (23 << 11) | (59 << 5) | 29 };
  return {
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
  };
}

/** Unix seconds for the UT extra field, which is a signed 32-bit value. */
function unixSeconds(mtimeMs: number): number {
  const s = Math.floor(mtimeMs / 1000);
  if (!Number.isFinite(s)) return 0;
  return Math.min(2 ** 31 - 1, Math.max(-(2 ** 31), s));
}

// ---------------------------------------------------------------------------------------------
// Entry names: pure rules in domain/zip-entry-names.ts, shared with the browser's ZIP of an
// end-to-end encrypted transfer, so both archives name their entries alike.

export { EntryNamer, FALLBACK_NAME, sanitizeEntryName } from '../../domain/zip-entry-names';

// ---------------------------------------------------------------------------------------------
// Records

export interface EntryHeaderInput {
  /** final entry name as UTF-8 */
  readonly nameBytes: Uint8Array;
  readonly mtimeMs: number;
  /** 8-byte sizes in the local ZIP64 extra and the data descriptor */
  readonly zip64: boolean;
}

export interface CentralEntry extends EntryHeaderInput {
  readonly crc: number;
  readonly size: number;
  /** offset of the entry's local header from the start of the archive */
  readonly offset: number;
}

/** Whether an entry of this size needs ZIP64 sizes (in its local header and descriptor). */
export function entryNeedsZip64(size: number, force = false): boolean {
  return force || size >= ZIP64_MARKER_32;
}

function writeUInt64(buf: Buffer, value: number, at: number): void {
  buf.writeBigUInt64LE(BigInt(value), at);
}

function timestampExtra(buf: Buffer, at: number, mtimeMs: number): void {
  buf.writeUInt16LE(EXTRA_TIMESTAMP, at);
  buf.writeUInt16LE(5, at + 2);
  buf.writeUInt8(1, at + 4); // flags: modification time present
  buf.writeInt32LE(unixSeconds(mtimeMs), at + 5);
}

export function localHeaderLength(nameBytes: number, zip64: boolean): number {
  return LOCAL_HEADER_FIXED + nameBytes + (zip64 ? 4 + 16 : 0) + TIMESTAMP_EXTRA_BYTES;
}

export function dataDescriptorLength(zip64: boolean): number {
  return zip64 ? 24 : 16;
}

/** Which central-directory fields of an entry overflow into its ZIP64 extra field. */
function centralZip64Fields(e: { size: number; offset: number; zip64: boolean }) {
  // A ZIP64 entry's sizes always go to the extra field, matching its local header.
  const sizes = e.zip64 || e.size >= ZIP64_MARKER_32;
  const offset = e.offset >= ZIP64_MARKER_32;
  return { sizes, offset, bytes: (sizes ? 16 : 0) + (offset ? 8 : 0) };
}

export function centralHeaderLength(nameBytes: number, e: { size: number; offset: number; zip64: boolean }): number {
  const z = centralZip64Fields(e).bytes;
  return CENTRAL_HEADER_FIXED + nameBytes + (z ? 4 + z : 0) + TIMESTAMP_EXTRA_BYTES;
}

/**
 * Local file header. CRC and sizes are zero (bit 3): they follow the data in the
 * descriptor. A ZIP64 entry carries a ZIP64 extra field with zero sizes, which tells readers
 * that its descriptor holds 8-byte sizes (APPNOTE 4.3.9.2).
 */
export function localFileHeader(e: EntryHeaderInput): Buffer {
  const nameLen = e.nameBytes.length;
  if (nameLen > ZIP64_MARKER_16) throw new RangeError('entry name longer than 65535 bytes');
  const buf = Buffer.alloc(localHeaderLength(nameLen, e.zip64));
  const { date, time } = dosDateTime(e.mtimeMs);
  buf.writeUInt32LE(SIG_LOCAL, 0);
  buf.writeUInt16LE(e.zip64 ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED, 4);
  buf.writeUInt16LE(FLAGS, 6);
  buf.writeUInt16LE(METHOD_STORED, 8);
  buf.writeUInt16LE(time, 10);
  buf.writeUInt16LE(date, 12);
  // 14: crc, 18: compressed size, 22: uncompressed size -> zero, or markers for ZIP64
  if (e.zip64) {
    buf.writeUInt32LE(ZIP64_MARKER_32, 18);
    buf.writeUInt32LE(ZIP64_MARKER_32, 22);
  }
  buf.writeUInt16LE(nameLen, 26);
  buf.writeUInt16LE(buf.length - LOCAL_HEADER_FIXED - nameLen, 28);
  buf.set(e.nameBytes, LOCAL_HEADER_FIXED);
  let at = LOCAL_HEADER_FIXED + nameLen;
  if (e.zip64) {
    buf.writeUInt16LE(EXTRA_ZIP64, at);
    buf.writeUInt16LE(16, at + 2);
    // original and compressed size: both required here, both zero until the descriptor
    at += 4 + 16;
  }
  timestampExtra(buf, at, e.mtimeMs);
  return buf;
}

/** Data descriptor (with its optional but universally expected signature). */
export function dataDescriptor(crc: number, size: number, zip64: boolean): Buffer {
  if (!zip64 && size >= ZIP64_MARKER_32) throw new RangeError('entry of 4 GiB or more needs a ZIP64 descriptor');
  const buf = Buffer.alloc(dataDescriptorLength(zip64));
  buf.writeUInt32LE(SIG_DESCRIPTOR, 0);
  buf.writeUInt32LE(crc >>> 0, 4);
  if (zip64) {
    writeUInt64(buf, size, 8);
    writeUInt64(buf, size, 16);
  } else {
    buf.writeUInt32LE(size, 8);
    buf.writeUInt32LE(size, 12);
  }
  return buf;
}

export function centralDirectoryHeader(e: CentralEntry): Buffer {
  const nameLen = e.nameBytes.length;
  const z = centralZip64Fields(e);
  const buf = Buffer.alloc(centralHeaderLength(nameLen, e));
  const { date, time } = dosDateTime(e.mtimeMs);
  buf.writeUInt32LE(SIG_CENTRAL, 0);
  buf.writeUInt16LE(VERSION_MADE_BY, 4);
  buf.writeUInt16LE(z.bytes ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED, 6);
  buf.writeUInt16LE(FLAGS, 8);
  buf.writeUInt16LE(METHOD_STORED, 10);
  buf.writeUInt16LE(time, 12);
  buf.writeUInt16LE(date, 14);
  buf.writeUInt32LE(e.crc >>> 0, 16);
  buf.writeUInt32LE(z.sizes ? ZIP64_MARKER_32 : e.size, 20);
  buf.writeUInt32LE(z.sizes ? ZIP64_MARKER_32 : e.size, 24);
  buf.writeUInt16LE(nameLen, 28);
  buf.writeUInt16LE(buf.length - CENTRAL_HEADER_FIXED - nameLen, 30);
  // 32: comment length, 34: disk number start, 36: internal attributes -> 0
  buf.writeUInt32LE(EXTERNAL_ATTRS, 38);
  buf.writeUInt32LE(z.offset ? ZIP64_MARKER_32 : e.offset, 42);
  buf.set(e.nameBytes, CENTRAL_HEADER_FIXED);
  let at = CENTRAL_HEADER_FIXED + nameLen;
  if (z.bytes) {
    // Only the overflowing fields, in this order (APPNOTE 4.5.3).
    buf.writeUInt16LE(EXTRA_ZIP64, at);
    buf.writeUInt16LE(z.bytes, at + 2);
    at += 4;
    if (z.sizes) {
      writeUInt64(buf, e.size, at);
      writeUInt64(buf, e.size, at + 8);
      at += 16;
    }
    if (z.offset) {
      writeUInt64(buf, e.offset, at);
      at += 8;
    }
  }
  timestampExtra(buf, at, e.mtimeMs);
  return buf;
}

export interface DirectoryEnd {
  readonly entries: number;
  /** offset of the first central directory header */
  readonly cdOffset: number;
  readonly cdSize: number;
  /** write the ZIP64 records even when nothing overflows (tests, readers' ZIP64 paths) */
  readonly forceZip64?: boolean;
}

export function directoryEndNeedsZip64(d: DirectoryEnd): boolean {
  return (
    Boolean(d.forceZip64) ||
    d.entries >= ZIP64_MARKER_16 ||
    d.cdOffset >= ZIP64_MARKER_32 ||
    d.cdSize >= ZIP64_MARKER_32
  );
}

export function directoryEndLength(d: DirectoryEnd): number {
  return EOCD_BYTES + (directoryEndNeedsZip64(d) ? ZIP64_EOCD_BYTES + ZIP64_LOCATOR_BYTES : 0);
}

/**
 * Everything after the central directory: [ZIP64 end record, ZIP64 locator,] end record.
 * When ZIP64 records are written, the end record's fields all hold their markers, so
 * readers take every value from the ZIP64 record.
 */
export function directoryEnd(d: DirectoryEnd): Buffer {
  const zip64 = directoryEndNeedsZip64(d);
  const buf = Buffer.alloc(directoryEndLength(d));
  let at = 0;
  if (zip64) {
    const recordOffset = d.cdOffset + d.cdSize;
    buf.writeUInt32LE(SIG_ZIP64_EOCD, 0);
    writeUInt64(buf, ZIP64_EOCD_BYTES - 12, 4); // size of the rest of the record
    buf.writeUInt16LE(VERSION_MADE_BY, 12);
    buf.writeUInt16LE(VERSION_NEEDED_ZIP64, 14);
    // 16: this disk, 20: disk with the central directory -> 0
    writeUInt64(buf, d.entries, 24);
    writeUInt64(buf, d.entries, 32);
    writeUInt64(buf, d.cdSize, 40);
    writeUInt64(buf, d.cdOffset, 48);
    at = ZIP64_EOCD_BYTES;
    buf.writeUInt32LE(SIG_ZIP64_LOCATOR, at);
    // +4: disk with the ZIP64 end record -> 0
    writeUInt64(buf, recordOffset, at + 8);
    buf.writeUInt32LE(1, at + 16); // total disks
    at += ZIP64_LOCATOR_BYTES;
  }
  buf.writeUInt32LE(SIG_EOCD, at);
  // +4: this disk, +6: disk with the central directory -> 0
  buf.writeUInt16LE(zip64 ? ZIP64_MARKER_16 : d.entries, at + 8);
  buf.writeUInt16LE(zip64 ? ZIP64_MARKER_16 : d.entries, at + 10);
  buf.writeUInt32LE(zip64 ? ZIP64_MARKER_32 : d.cdSize, at + 12);
  buf.writeUInt32LE(zip64 ? ZIP64_MARKER_32 : d.cdOffset, at + 16);
  // +20: comment length -> 0
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Writer

export interface ZipLayoutEntry {
  readonly nameBytes: Uint8Array;
  readonly size: number;
}

/** Exact archive size for these entries, known before any byte is read (STORED method). */
export function zipSize(entries: readonly ZipLayoutEntry[], opts: { forceZip64?: boolean } = {}): number {
  let offset = 0;
  let cdSize = 0;
  for (const e of entries) {
    const zip64 = entryNeedsZip64(e.size, opts.forceZip64);
    cdSize += centralHeaderLength(e.nameBytes.length, { size: e.size, offset, zip64 });
    offset += localHeaderLength(e.nameBytes.length, zip64) + e.size + dataDescriptorLength(zip64);
  }
  return (
    offset +
    cdSize +
    directoryEndLength({ entries: entries.length, cdOffset: offset, cdSize, forceZip64: opts.forceZip64 })
  );
}

/**
 * Stateful byte producer for one archive: begin an entry, feed its data, end it, and finish.
 * It returns the framing bytes; the caller writes the data bytes itself in between, so file
 * data is never copied here. Checks that each entry gets exactly its declared size.
 */
export class ZipWriter {
  private readonly central: CentralEntry[] = [];
  private current: { header: EntryHeaderInput; size: number; offset: number; crc: number; written: number } | undefined;
  private position = 0;
  private finished = false;

  constructor(private readonly opts: { forceZip64?: boolean } = {}) {}

  /** Bytes produced so far (framing plus the data reported through `update`). */
  get offset(): number {
    return this.position;
  }

  begin(entry: { name: string; size: number; mtimeMs: number }): Buffer {
    if (this.current || this.finished) throw new Error('ZipWriter: entry already open or archive finished');
    if (!Number.isSafeInteger(entry.size) || entry.size < 0)
      throw new RangeError(`invalid size ${entry.size} for "${entry.name}"`);
    const header = {
      nameBytes: Buffer.from(entry.name, 'utf8'),
      mtimeMs: entry.mtimeMs,
      zip64: entryNeedsZip64(entry.size, this.opts.forceZip64),
    };
    const bytes = localFileHeader(header);
    this.current = { header, size: entry.size, offset: this.position, crc: 0, written: 0 };
    this.position += bytes.length;
    return bytes;
  }

  /** Accounts for a chunk of the open entry's data; throws before it exceeds the declared size. */
  update(chunk: Uint8Array): void {
    const c = this.current;
    if (!c) throw new Error('ZipWriter: no open entry');
    if (c.written + chunk.length > c.size)
      throw new ZipSizeError(this.currentName(), c.size, c.written + chunk.length, 'more');
    c.crc = crc32(chunk, c.crc);
    c.written += chunk.length;
    this.position += chunk.length;
  }

  end(): Buffer {
    const c = this.current;
    if (!c) throw new Error('ZipWriter: no open entry');
    if (c.written !== c.size) throw new ZipSizeError(this.currentName(), c.size, c.written, 'fewer');
    const bytes = dataDescriptor(c.crc, c.size, c.header.zip64);
    this.central.push({ ...c.header, crc: c.crc, size: c.size, offset: c.offset });
    this.current = undefined;
    this.position += bytes.length;
    return bytes;
  }

  /** Central directory and end records. */
  finish(): Buffer {
    if (this.current || this.finished) throw new Error('ZipWriter: entry still open or archive finished');
    this.finished = true;
    const cdOffset = this.position;
    const headers = this.central.map(centralDirectoryHeader);
    const cdSize = headers.reduce((n, h) => n + h.length, 0);
    headers.push(directoryEnd({ entries: this.central.length, cdOffset, cdSize, forceZip64: this.opts.forceZip64 }));
    const out = Buffer.concat(headers);
    this.position += out.length;
    return out;
  }

  private currentName(): string {
    return Buffer.from(this.current!.header.nameBytes).toString('utf8');
  }
}

/** A source delivered more or fewer bytes than its declared size. */
export class ZipSizeError extends Error {
  constructor(
    readonly entryName: string,
    readonly expected: number,
    readonly actual: number,
    which: 'more' | 'fewer',
  ) {
    super(
      which === 'more'
        ? `"${entryName}": source has more than the declared ${expected} bytes`
        : `"${entryName}": source has ${actual} bytes, declared ${expected}`,
    );
    this.name = 'ZipSizeError';
  }
}
