import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  crc32Combine,
  EntryNamer,
  FALLBACK_NAME,
  ZIP64_MARKER_16,
  ZIP64_MARKER_32,
  ZipSizeError,
  ZipWriter,
  centralDirectoryHeader,
  crc32,
  crc32Portable,
  dataDescriptor,
  directoryEnd,
  dosDateTime,
  localFileHeader,
  sanitizeEntryName,
  usesNativeCrc32,
  zipSize,
} from '../../../functions/adapters/zip/zip-format';

const GiB = 1024 ** 3;
const name = (s: string) => Buffer.from(s, 'utf8');

/** Parses a ZIP64 extra field (id 0x0001) out of an extra-field block into its 8-byte values. */
function zip64Values(extra: Buffer): bigint[] {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const len = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      const values: bigint[] = [];
      for (let i = 0; i < len; i += 8) values.push(extra.readBigUInt64LE(at + 4 + i));
      return values;
    }
    at += 4 + len;
  }
  return [];
}

describe('crc32', () => {
  it('gives the standard check value for "123456789"', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32Portable(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32Portable(new Uint8Array(0))).toBe(0);
  });

  it('portable slicing-by-8 agrees with zlib for every length around the 8-byte stride, chained in pieces', () => {
    const data = randomBytes(4099);
    const reference = (zlib as unknown as { crc32?: (d: Uint8Array, p?: number) => number }).crc32;
    for (const len of [1, 7, 8, 9, 15, 16, 17, 1000, 4099]) {
      const slice = data.subarray(0, len);
      const expected = reference ? reference(slice) : crc32(slice);
      expect(crc32Portable(slice), `length ${len}`).toBe(expected);
    }
    const chained = crc32Portable(data.subarray(1000), crc32Portable(data.subarray(0, 1000)));
    expect(chained).toBe(crc32Portable(data));
    expect(crc32(data.subarray(3), crc32(data.subarray(0, 3)))).toBe(crc32Portable(data));
  });

  it('uses zlib.crc32 exactly when this Node has it', () => {
    expect(usesNativeCrc32).toBe(typeof (zlib as unknown as { crc32?: unknown }).crc32 === 'function');
  });
});

describe('dosDateTime', () => {
  it('packs local date and time with 2-second resolution', () => {
    const { date, time } = dosDateTime(new Date(2024, 1, 29, 13, 45, 59).getTime());
    expect({ y: (date >> 9) + 1980, m: (date >> 5) & 15, d: date & 31 }).toEqual({ y: 2024, m: 2, d: 29 });
    expect({ h: time >> 11, min: (time >> 5) & 63, s: (time & 31) * 2 }).toEqual({ h: 13, min: 45, s: 58 });
  });

  it('clamps times DOS cannot hold', () => {
    expect(dosDateTime(new Date(1970, 0, 1).getTime())).toEqual({ date: (1 << 5) | 1, time: 0 });
    const late = dosDateTime(new Date(2200, 0, 1).getTime());
    expect((late.date >> 9) + 1980).toBe(2107);
    expect(dosDateTime(NaN)).toEqual({ date: (1 << 5) | 1, time: 0 });
  });
});

describe('sanitizeEntryName', () => {
  it.each([
    ['../../etc/passwd', 'etc/passwd'],
    ['/abs/path.txt', 'abs/path.txt'],
    ['C:\\Users\\me\\file.txt', 'Users/me/file.txt'],
    ['c:relative.txt', 'relative.txt'],
    ['\\\\server\\share\\x.doc', 'server/share/x.doc'],
    ['a/./b/../c.txt', 'a/b/c.txt'],
    ['dir//file', 'dir/file'],
    ['.. /x', 'x'],
    ['.../y', 'y'],
    ['bad\u0000name\u0007.txt', 'badname.txt'],
    ['line\nbreak\r.txt', 'linebreak.txt'],
    ['photo\u202Egpj.exe', 'photogpj.exe'],
    ['.hidden', '.hidden'],
    ['docs/CON', 'docs/_CON'],
    ['nul.txt', '_nul.txt'],
    ['com1.log/x', '_com1.log/x'],
    ['console.txt', 'console.txt'],
    ['Ünïcødé 日本語/файл.txt', 'Ünïcødé 日本語/файл.txt'],
  ])('%j -> %j', (raw, expected) => {
    expect(sanitizeEntryName(raw)).toBe(expected);
  });

  it('never returns an empty name', () => {
    for (const raw of ['', '/', '..', '../..', '.', '\u0001', 'C:', '\\'])
      expect(sanitizeEntryName(raw)).toBe(FALLBACK_NAME);
  });

  it('composes decomposed (macOS) names so they compare equal to composed ones', () => {
    expect(sanitizeEntryName('Cafe\u0301.txt')).toBe('Caf\u00e9.txt');
  });

  it('cuts over-long segments to 255 UTF-8 bytes, keeping the extension and whole characters', () => {
    const out = sanitizeEntryName(`${'日'.repeat(200)}.jpeg`);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(255);
    expect(out.endsWith('日.jpeg')).toBe(true);
    expect(out).not.toContain('\ufffd');
  });

  it('keeps only the file name when the whole path would pass 4096 bytes', () => {
    const deep = `${Array.from({ length: 40 }, (_, i) => `${'d'.repeat(200)}${i}`).join('/')}/last.txt`;
    expect(sanitizeEntryName(deep)).toBe('last.txt');
  });
});

describe('EntryNamer', () => {
  it('numbers duplicates before the extension, case-insensitively', () => {
    const n = new EntryNamer();
    expect(['a.txt', 'a.txt', 'A.TXT', 'a.txt', 'b', 'b'].map((x) => n.name(x))).toEqual([
      'a.txt',
      'a (1).txt',
      'A (2).TXT',
      'a (3).txt',
      'b',
      'b (1)',
    ]);
  });

  it('skips numbers already used by real files', () => {
    const n = new EntryNamer();
    expect(['a (1).txt', 'a.txt', 'a.txt'].map((x) => n.name(x))).toEqual(['a (1).txt', 'a.txt', 'a (2).txt']);
  });

  it('treats names that sanitise to the same path as duplicates', () => {
    const n = new EntryNamer();
    expect(['x/y.txt', '../x/y.txt', '/x\\y.txt'].map((s) => n.name(s))).toEqual([
      'x/y.txt',
      'x/y (1).txt',
      'x/y (2).txt',
    ]);
  });

  it('never gives a file and a folder the same path', () => {
    const n = new EntryNamer();
    expect(n.name('report')).toBe('report');
    // "report" is a file, so the folder gets another name, and keeps it for later files.
    expect(n.name('report/a.txt')).toBe('report (1)/a.txt');
    expect(n.name('Report/b.txt')).toBe('report (1)/b.txt');
    expect(n.name('docs/x.txt')).toBe('docs/x.txt');
    expect(n.name('docs')).toBe('docs (1)');
  });

  it('stays linear with many copies of one name', () => {
    // Counts the namer's lookups instead of reading a clock: trying every earlier suffix again
    // would take ~200 million lookups for 20,000 copies; the bound stops such a loop early.
    const n = new EntryNamer();
    const copies = 20_000;
    const limit = 20 * copies;
    const has = Set.prototype.has;
    let lookups = 0;
    Set.prototype.has = function (this: Set<unknown>, value: unknown) {
      if (++lookups > limit) throw new Error(`more than ${limit} lookups`);
      return has.call(this, value);
    };
    let last = '';
    try {
      for (let i = 0; i < copies; i++) last = n.name('same.bin');
    } finally {
      Set.prototype.has = has;
    }
    expect(last).toBe('same (19999).bin');
    expect(lookups).toBeLessThanOrEqual(limit);
  });
});

describe('header builders with sizes and offsets past the 32-bit limits', () => {
  const mtimeMs = Date.UTC(2025, 4, 6, 7, 8, 10);

  it('local header of a ZIP64 entry: version 4.5, flags 3+11, STORED, size markers and a ZIP64 extra with zero sizes', () => {
    const h = localFileHeader({ nameBytes: name('big.bin'), mtimeMs, zip64: true });
    expect(h.readUInt32LE(0)).toBe(0x04034b50);
    expect(h.readUInt16LE(4)).toBe(45);
    expect(h.readUInt16LE(6)).toBe(0x0808);
    expect(h.readUInt16LE(8)).toBe(0);
    expect(h.readUInt32LE(14)).toBe(0);
    expect(h.readUInt32LE(18)).toBe(ZIP64_MARKER_32);
    expect(h.readUInt32LE(22)).toBe(ZIP64_MARKER_32);
    const nameLen = h.readUInt16LE(26);
    const extra = h.subarray(30 + nameLen, 30 + nameLen + h.readUInt16LE(28));
    expect(h.subarray(30, 30 + nameLen).toString()).toBe('big.bin');
    expect(zip64Values(extra)).toEqual([0n, 0n]);
    expect(30 + nameLen + extra.length).toBe(h.length);
  });

  it('local header of a small entry has no ZIP64 extra and version 2.0', () => {
    const h = localFileHeader({ nameBytes: name('s.txt'), mtimeMs, zip64: false });
    expect(h.readUInt16LE(4)).toBe(20);
    expect(h.readUInt32LE(18)).toBe(0);
    expect(zip64Values(h.subarray(30 + 5))).toEqual([]);
  });

  it('data descriptor holds 8-byte sizes for ZIP64 entries and refuses 4 GiB in 4 bytes', () => {
    const size = 5 * GiB + 123;
    const d = dataDescriptor(0xdeadbeef, size, true);
    expect(d.length).toBe(24);
    expect(d.readUInt32LE(0)).toBe(0x08074b50);
    expect(d.readUInt32LE(4)).toBe(0xdeadbeef);
    expect(Number(d.readBigUInt64LE(8))).toBe(size);
    expect(Number(d.readBigUInt64LE(16))).toBe(size);
    expect(dataDescriptor(1, 100, false).readUInt32LE(8)).toBe(100);
    expect(() => dataDescriptor(1, ZIP64_MARKER_32, false)).toThrow(RangeError);
  });

  it('central header moves a > 4 GiB size and a > 4 GiB offset into the ZIP64 extra, in APPNOTE order', () => {
    const size = 4 * GiB + 7;
    const offset = 6 * GiB + 99;
    const h = centralDirectoryHeader({ nameBytes: name('v.mov'), mtimeMs, zip64: true, crc: 0x12345678, size, offset });
    expect(h.readUInt32LE(0)).toBe(0x02014b50);
    expect(h.readUInt16LE(6)).toBe(45);
    expect(h.readUInt32LE(16)).toBe(0x12345678);
    expect(h.readUInt32LE(20)).toBe(ZIP64_MARKER_32);
    expect(h.readUInt32LE(24)).toBe(ZIP64_MARKER_32);
    expect(h.readUInt32LE(42)).toBe(ZIP64_MARKER_32);
    const nameLen = h.readUInt16LE(28);
    const extra = h.subarray(46 + nameLen, 46 + nameLen + h.readUInt16LE(30));
    expect(zip64Values(extra)).toEqual([BigInt(size), BigInt(size), BigInt(offset)]);
  });

  it('central header of a small entry past 4 GiB carries only the offset in its ZIP64 extra', () => {
    const offset = 4 * GiB;
    const h = centralDirectoryHeader({ nameBytes: name('x'), mtimeMs, zip64: false, crc: 1, size: 10, offset });
    expect(h.readUInt32LE(20)).toBe(10);
    expect(h.readUInt32LE(42)).toBe(ZIP64_MARKER_32);
    expect(zip64Values(h.subarray(46 + 1))).toEqual([BigInt(offset)]);
  });

  it('a size of exactly 0xFFFFFFFF goes to ZIP64 (the value itself is the marker)', () => {
    const h = centralDirectoryHeader({
      nameBytes: name('x'),
      mtimeMs,
      zip64: true,
      crc: 1,
      size: ZIP64_MARKER_32,
      offset: 0,
    });
    expect(zip64Values(h.subarray(47))).toEqual([BigInt(ZIP64_MARKER_32), BigInt(ZIP64_MARKER_32)]);
    const w = new ZipWriter();
    w.begin({ name: 'x', size: ZIP64_MARKER_32, mtimeMs });
    // zip64 decided from the declared size: the local header says so
    expect(w.offset).toBe(30 + 1 + 20 + 9);
  });

  it('end records: ZIP64 record and locator for > 65535 entries and a > 4 GiB directory offset, markers in the classic record', () => {
    const cdOffset = 5 * GiB;
    const cdSize = 7_000_000;
    const entries = 70_000;
    const b = directoryEnd({ entries, cdOffset, cdSize });
    expect(b.length).toBe(56 + 20 + 22);
    expect(b.readUInt32LE(0)).toBe(0x06064b50);
    expect(Number(b.readBigUInt64LE(4))).toBe(44);
    expect(Number(b.readBigUInt64LE(24))).toBe(entries);
    expect(Number(b.readBigUInt64LE(32))).toBe(entries);
    expect(Number(b.readBigUInt64LE(40))).toBe(cdSize);
    expect(Number(b.readBigUInt64LE(48))).toBe(cdOffset);
    expect(b.readUInt32LE(56)).toBe(0x07064b50);
    expect(Number(b.readBigUInt64LE(64))).toBe(cdOffset + cdSize);
    expect(b.readUInt32LE(72)).toBe(1);
    expect(b.readUInt32LE(76)).toBe(0x06054b50);
    expect(b.readUInt16LE(84)).toBe(ZIP64_MARKER_16);
    expect(b.readUInt32LE(88)).toBe(ZIP64_MARKER_32);
    expect(b.readUInt32LE(92)).toBe(ZIP64_MARKER_32);
  });

  it('end record of a small archive is the classic 22 bytes with real values', () => {
    const b = directoryEnd({ entries: 3, cdOffset: 1000, cdSize: 200 });
    expect(b.length).toBe(22);
    expect([b.readUInt16LE(8), b.readUInt32LE(12), b.readUInt32LE(16)]).toEqual([3, 200, 1000]);
    expect(directoryEnd({ entries: 65_534, cdOffset: 1, cdSize: 1 }).length).toBe(22);
    expect(directoryEnd({ entries: 65_535, cdOffset: 1, cdSize: 1 }).length).toBe(98);
  });
});

describe('zipSize', () => {
  const cases: [string, { name: string; size: number }[], boolean][] = [
    ['no entries', [], false],
    [
      'small and empty entries',
      [
        { name: 'a.txt', size: 5 },
        { name: 'empty', size: 0 },
        { name: 'ü/ß.bin', size: 300 },
      ],
      false,
    ],
    [
      'forced ZIP64',
      [
        { name: 'a', size: 3 },
        { name: 'b', size: 0 },
      ],
      true,
    ],
  ];
  it.each(cases)('matches the bytes the writer produces: %s', (_label, entries, forceZip64) => {
    const w = new ZipWriter({ forceZip64 });
    const out: Buffer[] = [];
    for (const e of entries) {
      out.push(w.begin({ name: e.name, size: e.size, mtimeMs: 0 }));
      const data = Buffer.alloc(e.size, 1);
      w.update(data);
      out.push(data, w.end());
    }
    out.push(w.finish());
    const total = Buffer.concat(out).length;
    expect(w.offset).toBe(total);
    expect(
      zipSize(
        entries.map((e) => ({ nameBytes: name(e.name), size: e.size })),
        { forceZip64 },
      ),
    ).toBe(total);
  });

  it('accounts for ZIP64 records when entries pass 4 GiB in total', () => {
    const each = 1.5 * GiB;
    const entries = Array.from({ length: 4 }, (_, i) => ({ nameBytes: name(`f${i}`), size: each }));
    const local = 30 + 2 + 9;
    const central = 46 + 2 + 9;
    // entries 0-2 start below 4 GiB; entry 3 starts at ~4.5 GiB so its central header gets an 8-byte offset extra
    const expected = 4 * (local + each + 16) + 3 * central + (central + 4 + 8) + 56 + 20 + 22;
    expect(zipSize(entries)).toBe(expected);
  });
});

describe('ZipWriter size checks', () => {
  it('refuses more bytes than declared, before counting them', () => {
    const w = new ZipWriter();
    w.begin({ name: 'a.txt', size: 3, mtimeMs: 0 });
    w.update(Buffer.from('ab'));
    expect(() => w.update(Buffer.from('cd'))).toThrow(ZipSizeError);
    expect(() => w.update(Buffer.from('cd'))).toThrow('"a.txt": source has more than the declared 3 bytes');
  });

  it('refuses to end an entry short of its declared size', () => {
    const w = new ZipWriter();
    w.begin({ name: 'a.txt', size: 3, mtimeMs: 0 });
    w.update(Buffer.from('a'));
    expect(() => w.end()).toThrow('"a.txt": source has 1 bytes, declared 3');
  });

  it('refuses misuse: finishing with an open entry, negative sizes', () => {
    const w = new ZipWriter();
    expect(() => w.begin({ name: 'x', size: -1, mtimeMs: 0 })).toThrow(RangeError);
    w.begin({ name: 'x', size: 0, mtimeMs: 0 });
    expect(() => w.finish()).toThrow();
  });
});

describe('crc32Combine', () => {
  it('gives the CRC-32 of the concatenation from the two CRCs and the second length', () => {
    const data = randomBytes(70_001);
    for (const cut of [0, 1, 7, 8, 4096, 35_000, 69_999, 70_001]) {
      const a = data.subarray(0, cut);
      const b = data.subarray(cut);
      expect(crc32Combine(crc32(a), crc32(b), b.length), `cut at ${cut}`).toBe(crc32(data));
    }
  });

  it('combines many ranges in order, as the composed archive checks a file read in parts', () => {
    const data = randomBytes(50_000);
    const cuts = [0, 3, 1000, 1001, 25_000, 49_999, 50_000];
    let crc = 0;
    for (let i = 1; i < cuts.length; i++) {
      const range = data.subarray(cuts[i - 1], cuts[i]);
      crc = crc32Combine(crc, crc32(range), range.length);
    }
    expect(crc).toBe(crc32(data));
  });

  it('holds past 2^32 bytes: combining is associative at lengths a 32-bit shift would cut', () => {
    const [a, b, c] = [0x12345678, 0x9abcdef0, 0x0badf00d];
    for (const [lb, lc] of [
      [2 ** 32 + 7, 3],
      [5, 2 ** 33 + 1],
      [2 ** 32, 2 ** 32 - 1],
    ] as const) {
      const left = crc32Combine(crc32Combine(a, b, lb), c, lc);
      const right = crc32Combine(a, crc32Combine(b, c, lc), lb + lc);
      expect(right, `${lb} + ${lc}`).toBe(left);
    }
    // and a length past 2^32 is not read as its low 32 bits
    expect(crc32Combine(a, b, 2 ** 32 + 7)).not.toBe(crc32Combine(a, b, 7));
  });
});
