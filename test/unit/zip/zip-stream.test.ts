import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { ZipSizeError, crc32 } from '../../../functions/adapters/zip/zip-format';
import { planZip, zipStream, type ZipInput } from '../../../functions/adapters/zip/zip-stream';
import { collect, readZip, unzipExtract, unzipTest } from '../../helpers/read-zip';

interface MemFile extends ZipInput {
  readonly data: Buffer;
}

const file = (name: string, data: Buffer | string, mtime?: number): MemFile => {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  return { name, size: buf.length, data: buf, ...(mtime !== undefined ? { mtime } : {}) };
};

/** Yields the file in uneven chunks, as a network stream would. */
async function* chunked(data: Buffer, sizes = [1, 7, 4096, 65_536]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield data.subarray(at, at + n);
    at += n;
  }
}

async function zipOf(files: MemFile[], opts: { forceZip64?: boolean; now?: number } = {}) {
  const plan = planZip(files, opts);
  const zip = await collect(zipStream(plan, (e) => chunked(e.data)));
  return { plan, zip };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('zipStream read back by yauzl and unzip', () => {
  const mtime = new Date(2024, 5, 15, 10, 20, 30).getTime();
  const files = [
    file('photo.jpg', randomBytes(200_000), mtime),
    file('notes/readme.txt', 'hello zip\n', mtime),
    file('empty.bin', Buffer.alloc(0), mtime),
    file('Ünïcødé 日本語/файл.txt', 'utf-8 name', mtime),
  ];

  it('stores every file byte for byte with its CRC, STORED, data descriptors and UTF-8 names', async () => {
    const { plan, zip } = await zipOf(files);
    expect(zip.length).toBe(plan.size);
    const entries = await readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(files.map((f) => f.name));
    entries.forEach((e, i) => {
      const src = files[i]!;
      expect(sha(e.data)).toBe(sha(src.data));
      expect(e.entry.crc32).toBe(crc32(src.data));
      expect(e.entry.compressionMethod).toBe(0);
      expect(e.entry.generalPurposeBitFlag & 0x0808).toBe(0x0808);
      expect(e.entry.uncompressedSize).toBe(src.size);
      expect(e.entry.getLastModDate().getTime()).toBe(mtime);
      expect(e.entry.getLastModDate({ forceDosFormat: true }).getTime()).toBe(mtime);
      expect((e.entry.externalFileAttributes >>> 16) & 0o777).toBe(0o644);
    });
  });

  it('passes `unzip -t` (CRC of every entry checked by Info-ZIP)', async () => {
    const { zip } = await zipOf(files);
    const out = unzipTest(zip);
    expect(out).toContain('No errors detected');
    expect(out).toContain('testing: photo.jpg');
  });

  it('uses the plan time for files without a modification time', async () => {
    const now = Date.UTC(2030, 0, 2, 3, 4, 6);
    const { zip } = await zipOf([file('a', 'x')], { now });
    const [e] = await readZip(zip);
    expect(e!.entry.getLastModDate().getTime()).toBe(now);
  });

  it('writes an archive with no entries that readers open', async () => {
    const { zip } = await zipOf([]);
    expect(zip.length).toBe(22);
    expect(await readZip(zip)).toEqual([]);
  });
});

describe('zipStream names', () => {
  const hostile = [
    '../../../../tmp/evil.sh',
    '/etc/passwd',
    'C:\\Windows\\system32\\drivers\\etc\\hosts',
    '..\\..\\outside.txt',
    'a/../../b.txt',
    '\u0000\u0001',
    'dup.txt',
    'dup.txt',
    'DUP.txt',
    'folder',
    'folder/inner.txt',
  ];

  it('sanitises hostile names and renames duplicates', async () => {
    const { plan, zip } = await zipOf(hostile.map((n, i) => file(n, `content ${i}`)));
    const names = plan.entries.map((e) => e.entryName);
    expect(names).toEqual([
      'tmp/evil.sh',
      'etc/passwd',
      'Windows/system32/drivers/etc/hosts',
      'outside.txt',
      'a/b.txt',
      'unnamed',
      'dup.txt',
      'dup (1).txt',
      'DUP (2).txt',
      'folder',
      'folder (1)/inner.txt',
    ]);
    // yauzl with strictFileNames rejects absolute paths, "..", and backslashes
    const entries = await readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(names);
    expect(entries.map((e) => e.data.toString())).toEqual(hostile.map((_, i) => `content ${i}`));
  });

  it('extracts entirely inside the target folder, one file per entry', async () => {
    const { zip } = await zipOf(hostile.map((n, i) => file(n, `content ${i}`)));
    const x = unzipExtract(zip);
    try {
      expect(readdirSync(x.parent)).toEqual(['target']);
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((n) => {
          const p = path.join(dir, n);
          return statSync(p).isDirectory() ? walk(p) : [path.relative(x.target, p)];
        });
      expect(walk(x.target)).toHaveLength(hostile.length);
    } finally {
      x.cleanup();
    }
  });
});

describe('zipStream sizes', () => {
  it('fails when a source is longer than declared, without reading past it', async () => {
    const plan = planZip([{ name: 'a.txt', size: 3 }]);
    let pulled = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) {
          pulled++;
          yield Buffer.from('ab');
        }
      })(),
    );
    await expect(collect(zipStream(plan, () => source))).rejects.toThrow(ZipSizeError);
    expect(pulled).toBeLessThan(10);
    expect(source.destroyed).toBe(true);
  });

  it('fails when a source ends short of its declared size', async () => {
    const plan = planZip([{ name: 'a.txt', size: 10 }]);
    await expect(collect(zipStream(plan, () => chunked(Buffer.from('short'))))).rejects.toThrow(
      '"a.txt": source has 5 bytes, declared 10',
    );
  });

  it('rejects a negative or fractional size in the plan', () => {
    expect(() => planZip([{ name: 'a', size: -1 }])).toThrow(RangeError);
    expect(() => planZip([{ name: 'a', size: 1.5 }])).toThrow(RangeError);
  });

  it('opens sources one at a time, in order, only when the consumer pulls', async () => {
    const plan = planZip([file('1', 'one'), file('2', 'two'), file('3', 'three')]);
    const opened: string[] = [];
    const gen = zipStream(plan, (e) => {
      opened.push(e.entryName);
      return chunked(e.data);
    });
    await gen.next(); // local header of "1"
    expect(opened).toEqual([]);
    await gen.next(); // data of "1"
    expect(opened).toEqual(['1']);
    await collect(gen);
    expect(opened).toEqual(['1', '2', '3']);
  });

  it('stops between entries when the signal aborts', async () => {
    const ac = new AbortController();
    const plan = planZip([file('1', 'one'), file('2', 'two')]);
    const opened: string[] = [];
    const gen = zipStream(
      plan,
      (e) => {
        opened.push(e.entryName);
        return chunked(e.data);
      },
      { signal: ac.signal },
    );
    // pull up to the data descriptor of "1"
    for (
      let r = await gen.next();
      !r.done && !(r.value.length === 16 && Buffer.from(r.value).readUInt32LE(0) === 0x08074b50);
      r = await gen.next()
    );
    ac.abort();
    await expect(gen.next()).rejects.toThrow('This operation was aborted');
    expect(opened).toEqual(['1']);
  });
});

describe('ZIP64', () => {
  it('forced ZIP64 archives (entries and end records) read back with yauzl', async () => {
    const files = [file('a.bin', randomBytes(70_000)), file('b/empty', Buffer.alloc(0)), file('c.txt', 'ccc')];
    const { plan, zip } = await zipOf(files, { forceZip64: true });
    expect(zip.length).toBe(plan.size);
    // ZIP64 end record + locator precede the classic end record
    expect(zip.readUInt32LE(zip.length - 22 - 20)).toBe(0x07064b50);
    const entries = await readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(['a.bin', 'b/empty', 'c.txt']);
    entries.forEach((e, i) => {
      expect(e.entry.versionNeededToExtract).toBe(45);
      expect(e.entry.extraFields.some((f) => f.id === 0x0001)).toBe(true);
      expect(sha(e.data)).toBe(sha(files[i]!.data));
    });
  });

  it('forced ZIP64 archives pass `unzip -t`', async () => {
    const { zip } = await zipOf([file('a.bin', randomBytes(70_000)), file('c.txt', 'ccc')], { forceZip64: true });
    expect(unzipTest(zip)).toContain('No errors detected');
  });

  it('65,537 entries: ZIP64 end records, every entry listed', async () => {
    const count = 65_537;
    const files = Array.from({ length: count }, (_, i) => file(`f/${i}.txt`, String(i)));
    const { plan, zip } = await zipOf(files);
    expect(zip.length).toBe(plan.size);
    expect(zip.readUInt16LE(zip.length - 22 + 10)).toBe(0xffff);
    const entries = await readZip(zip, { data: false });
    expect(entries).toHaveLength(count);
    expect(entries[count - 1]!.name).toBe(`f/${count - 1}.txt`);
    expect(entries[count - 1]!.entry.crc32).toBe(crc32(Buffer.from(String(count - 1))));
    expect(unzipTest(zip)).toContain('No errors detected');
  }, 30_000);

  it('an entry larger than 4 GiB, followed by one whose header sits past 4 GiB, without writing 4 GiB', async () => {
    // The archive is kept virtually: framing bytes in memory, the big entry's data as a zero run.
    const big = 2 ** 32 + 5;
    const zeroChunk = new Uint8Array(1024 * 1024);
    const tail = new Uint8Array(5);
    async function* zeros() {
      for (let i = 0; i < 4096; i++) yield zeroChunk;
      yield tail;
    }
    const plan = planZip([
      { name: 'huge.iso', size: big },
      { name: 'after.txt', size: 5 },
    ]);
    const segments: { start: number; bytes?: Uint8Array; length: number }[] = [];
    let pos = 0;
    for await (const chunk of zipStream(plan, (e) =>
      e.name === 'huge.iso' ? zeros() : chunked(Buffer.from('after')),
    )) {
      const isZeroRun = chunk === zeroChunk || chunk === tail;
      segments.push({ start: pos, length: chunk.length, ...(isZeroRun ? {} : { bytes: Buffer.from(chunk) }) });
      pos += chunk.length;
    }
    expect(pos).toBe(plan.size);

    const readRange = (start: number, end: number): Buffer => {
      const out = Buffer.alloc(end - start);
      for (const s of segments) {
        const from = Math.max(start, s.start);
        const to = Math.min(end, s.start + s.length);
        if (from < to && s.bytes) out.set(s.bytes.subarray(from - s.start, to - s.start), from - start);
      }
      return out;
    };
    class VirtualReader extends yauzl.RandomAccessReader {
      override _readStreamForRange(start: number, end: number) {
        return Readable.from([readRange(start, end)]);
      }
    }
    const zipFile = await yauzl.fromRandomAccessReaderPromise(new VirtualReader(), plan.size, {
      lazyEntries: true,
      strictFileNames: true,
      autoClose: false,
    });
    const entries: yauzl.Entry[] = [];
    for await (const e of zipFile.eachEntry()) entries.push(e);
    const [huge, after] = entries;
    expect(huge!.uncompressedSize).toBe(big);
    expect(huge!.compressedSize).toBe(big);
    // CRC-32 of 2^32 + 5 zero bytes, computed once with zlib.crc32.
    expect(huge!.crc32).toBe(0xb1c2a1a3);
    expect(after!.relativeOffsetOfLocalHeader).toBeGreaterThan(2 ** 32);
    const data = await collect(await zipFile.openReadStreamPromise(after!));
    expect(data.toString()).toBe('after');

    // The descriptor after the big entry's data holds the 8-byte size.
    const { fileDataStart } = await zipFile.readLocalFileHeaderPromise(huge!, { minimal: true });
    const descriptor = readRange(fileDataStart + big, fileDataStart + big + 24);
    expect(descriptor.readUInt32LE(0)).toBe(0x08074b50);
    expect(descriptor.readUInt32LE(4)).toBe(0xb1c2a1a3);
    expect(Number(descriptor.readBigUInt64LE(8))).toBe(big);
    expect(Number(descriptor.readBigUInt64LE(16))).toBe(big);
    zipFile.close();
  }, 60_000);
});
