/**
 * Reading archives back with independent readers: yauzl, Info-ZIP's unzip, 7-Zip and Python's
 * zipfile (.ci/run installs unzip and 7-Zip from Debian; a missing one fails the test).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';

export interface ReadEntry {
  readonly name: string;
  readonly data: Buffer;
  readonly entry: yauzl.Entry;
}

export async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const c of source) chunks.push(c);
  return Buffer.concat(chunks);
}

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Every entry with its bytes; strict names, so a backslash or "../" in a name fails here. */
export async function readZip(zip: Buffer, opts: { data?: boolean } = {}): Promise<ReadEntry[]> {
  const file = await yauzl.fromBufferPromise(zip, {
    lazyEntries: true,
    strictFileNames: true,
    validateEntrySizes: true,
  });
  const out: ReadEntry[] = [];
  try {
    for await (const entry of file.eachEntry()) {
      const data =
        opts.data === false ? Buffer.alloc(0) : await streamToBuffer(await file.openReadStreamPromise(entry));
      out.push({ name: entry.fileName, data, entry });
    }
  } finally {
    file.close();
  }
  return out;
}

export const UNZIP = '/usr/bin/unzip';

/** `unzip -t` (tests every entry's CRC); returns its output, throws on a non-zero exit. */
export function unzipTest(zip: Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ziptest-'));
  try {
    const file = path.join(dir, 'a.zip');
    writeFileSync(file, zip);
    return execFileSync(UNZIP, ['-t', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Extracts with `unzip` into a fresh folder inside a parent folder; returns both paths. */
export function unzipExtract(zip: Buffer): { parent: string; target: string; cleanup: () => void } {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'zipx-'));
  const target = path.join(parent, 'target');
  const file = path.join(parent, 'a.zip');
  writeFileSync(file, zip);
  execFileSync(UNZIP, ['-qq', '-o', file, '-d', target]);
  rmSync(file);
  return { parent, target, cleanup: () => rmSync(parent, { recursive: true, force: true }) };
}

export const SEVEN_ZIP = '/usr/bin/7z';

function withArchiveFile<T>(zip: Buffer, use: (file: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ziptest-'));
  try {
    const file = path.join(dir, 'a.zip');
    writeFileSync(file, zip);
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `7z t` (reads every entry and checks its CRC); returns its output, throws on a non-zero exit. */
export function sevenZipTest(zip: Buffer): string {
  return withArchiveFile(zip, sevenZipTestFile);
}

/** `7z t` of an archive on disk (multi-GB archives are never held in memory). */
export function sevenZipTestFile(file: string): string {
  return execFileSync(SEVEN_ZIP, ['t', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** `unzip -t` of an archive on disk. */
export function unzipTestFile(file: string): string {
  return execFileSync(UNZIP, ['-t', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

const PYTHON_ZIP_CHECK = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    out = []
    for info in z.infolist():
        h = hashlib.sha256()
        with z.open(info) as f:
            for chunk in iter(lambda: f.read(1 << 20), b''):
                h.update(chunk)
        out.append({'name': info.filename, 'size': info.file_size, 'sha256': h.hexdigest()})
print(json.dumps({'bad': bad, 'entries': out}))
`;

/** Python's zipfile: `testzip()` (every CRC) and each entry's name, size and SHA-256. */
export function pythonZipCheck(zip: Buffer): {
  bad: string | null;
  entries: { name: string; size: number; sha256: string }[];
} {
  return withArchiveFile(zip, pythonZipCheckFile);
}

/** Python's zipfile check of an archive on disk. */
export function pythonZipCheckFile(file: string): {
  bad: string | null;
  entries: { name: string; size: number; sha256: string }[];
} {
  return JSON.parse(
    execFileSync('python3', ['-c', PYTHON_ZIP_CHECK, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
  );
}
