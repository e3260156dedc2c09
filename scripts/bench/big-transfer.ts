/**
 * Multi-GB end to end through the local stack (too big for `npm test`): (a) 5 GiB in 1,000 files
 * and (b) one 4.1 GiB file are created by the API, uploaded by the upload engine (the app's and
 * the CLI's, under Node with fetch) through presigned PUTs with every part's / file's CRC-32
 * recorded, completed (large files in the background: the transfer's state is polled), zipped
 * by the zip-build job ("Download all", composed when every file has its CRC-32), downloaded to
 * disk and checked with `unzip -t`, `7z t` and Python's zipfile: every entry's name, size and
 * SHA-256 against the sources. The sources are generated on the fly (deterministic, never on
 * disk): what the disk holds is s3rver's copy and the downloaded archive, removed after each case.
 * BIG_TRANSFER_SCALE=0.05 runs the same at a twentieth of the sizes.
 */
import { createCipheriv, createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { execFileSync } from 'node:child_process';
import type { CreateTransferResponse } from '../../functions/domain/transfer-api';
import { completionPollDelayMs } from '../../functions/domain/upload';
import { runUpload } from '../../frontend/src/shared/upload/engine';
import { fileRecordsOf } from '../../test/helpers/transfers';
import { pythonZipCheckFile, sevenZipTestFile, unzipTestFile } from '../../test/helpers/read-zip';
import type { LocalApp } from '../local/app';
import { createSignedInUser } from '../local/users';
import { routeApi } from './route-api';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const BLOCK = MiB;

/** 16 MiB of AES-CTR keystream from a fixed key: random-looking, the same on every run. */
const SEED = (() => {
  const cipher = createCipheriv('aes-128-ctr', Buffer.alloc(16, 7), Buffer.alloc(16, 0));
  return Buffer.concat([cipher.update(Buffer.alloc(16 * MiB)), cipher.final()]);
})();

/** Bytes [start, end) of source file `file`: each 1 MiB block a window of the seed chosen by file and block. */
function sourceBytes(file: number, start: number, end: number): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  for (let at = start; at < end; ) {
    const block = Math.floor(at / BLOCK);
    const within = at - block * BLOCK;
    const take = Math.min(end - at, BLOCK - within);
    const offset = Number((BigInt(file + 1) * 2_654_435_761n + BigInt(block) * 40_503n) % BigInt(SEED.length - BLOCK));
    SEED.copy(out, at - start, offset + within, offset + within + take);
    at += take;
  }
  return out;
}

/** A picked file whose bytes are made when the engine slices it (parts and CRC reads), never whole. */
class GeneratedFile extends Blob {
  constructor(
    private readonly file: number,
    private readonly length: number,
  ) {
    super([]);
  }
  override get size(): number {
    return this.length;
  }
  override slice(start = 0, end = this.length): Blob {
    const s = Math.max(0, Math.min(this.length, start < 0 ? this.length + start : start));
    const e = Math.max(s, Math.min(this.length, end < 0 ? this.length + end : end));
    return new Blob([new Uint8Array(sourceBytes(this.file, s, e))]);
  }
}

function sha256Of(file: number, size: number): string {
  const h = createHash('sha256');
  for (let at = 0; at < size; at += 64 * MiB) h.update(sourceBytes(file, at, Math.min(size, at + 64 * MiB)));
  return h.digest('hex');
}

/** Peak RSS of this process (gateway, handlers and jobs run in it) while `fn` runs, sampled every 200 ms. */
async function phase<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number; peakRssMB: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  const started = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, seconds: Math.round((performance.now() - started) / 10) / 100, peakRssMB: Math.round(peak / 1e6) };
  } finally {
    clearInterval(timer);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Case {
  readonly label: string;
  readonly files: readonly { name: string; size: number }[];
}

function cases(scale: number): Case[] {
  const total = Math.round(5 * GiB * scale);
  const count = 1000;
  // sizes around the mean (±20 %), summing to exactly `total`
  const weights = Array.from({ length: count }, (_, i) => 0.8 + ((i * 7919) % 401) / 1000);
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.floor((w / sum) * total));
  sizes[count - 1]! += total - sizes.reduce((a, b) => a + b, 0);
  return [
    {
      label: `${(total / GiB).toFixed(2)} GiB in ${count} files`,
      files: sizes.map((size, i) => ({
        name: `folder-${String(i % 10)}/file-${String(i).padStart(4, '0')}.bin`,
        size,
      })),
    },
    {
      label: `one ${((4.1 * GiB * scale) / GiB).toFixed(2)} GiB file`,
      files: [{ name: 'big.bin', size: Math.round(4.1 * GiB * scale) }],
    },
  ];
}

async function post(app: LocalApp, route: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${app.apiOrigin}/api${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown>, text };
}

async function runCase(app: LocalApp, accessToken: string, c: Case, dir: string) {
  const totalBytes = c.files.reduce((n, f) => n + f.size, 0);
  const fileObjects = c.files.map((f) =>
    f.name.includes('/')
      ? { fileName: f.name.split('/').pop()!, itemPath: f.name, size: f.size }
      : { fileName: f.name, size: f.size },
  );
  const created = await post(
    app,
    '/me/transfers',
    { sendAs: 'link', fileObjects },
    { authorization: `Bearer ${accessToken}` },
  );
  if (created.status !== 201) throw new Error(`create ${created.status} ${created.text}`);
  const t = created.json as unknown as CreateTransferResponse;
  const byPath = new Map(c.files.map((f, i) => [f.name, i]));
  const indexOf = (p: { fileName: string; itemPath?: string }) => byPath.get(p.itemPath ?? p.fileName)!;
  const uploadToken = { 'x-upload-token': t.uploadToken };
  try {
    console.log(`  ${c.label}: uploading ${(totalBytes / GiB).toFixed(2)} GiB`);
    const upload = await phase(() =>
      runUpload({
        api: routeApi(app, t),
        files: t.files.map((plan) => ({ plan, blob: new GeneratedFile(indexOf(plan), plan.size) })),
        fetchImpl: fetch,
      }),
    );
    console.log(`  ${c.label}: uploaded in ${upload.seconds} s; completing the transfer`);
    const complete = await phase(async () => {
      for (let poll = 1; ; poll++) {
        const res = await post(app, `/transfers/${t.id}/complete`, {}, uploadToken);
        if (res.status === 200) return;
        if (res.status !== 202) throw new Error(`complete ${res.status} ${res.text}`);
        await sleep(completionPollDelayMs(poll, Number(res.json.retryAfterSeconds ?? 0)));
      }
    });
    const records = await fileRecordsOf(app, t.id);
    const withCrc = records.filter((r) => typeof r.crc32 === 'number').length;
    if (withCrc !== c.files.length) throw new Error(`${withCrc} of ${c.files.length} files have a CRC-32 recorded`);

    console.log(`  ${c.label}: building the ZIP`);
    const zip = await phase(async () => {
      for (;;) {
        const res = await post(app, '/zip', { id: t.id }, {});
        if (res.status === 200) return res.json.url as string;
        if (res.status !== 202 && res.status !== 409) throw new Error(`zip ${res.status} ${res.text}`);
        await sleep(1000);
      }
    });
    const archive = path.join(dir, `${t.id}.zip`);
    const download = await phase(async () => {
      const res = await fetch(zip.value);
      if (!res.ok || !res.body) throw new Error(`download ${res.status}`);
      await pipeline(Readable.fromWeb(res.body as NodeReadableStream<Uint8Array>), createWriteStream(archive));
      return statSync(archive).size;
    });
    console.log(`  ${c.label}: ${(download.value / GiB).toFixed(2)} GiB archive downloaded; checking it`);

    const checks = await phase(async () => {
      const unzip = unzipTestFile(archive);
      if (!/No errors detected/u.test(unzip)) throw new Error(`unzip -t: ${unzip.slice(-500)}`);
      const seven = sevenZipTestFile(archive);
      if (!/Everything is Ok/u.test(seven)) throw new Error(`7z t: ${seven.slice(-500)}`);
      const py = pythonZipCheckFile(archive);
      if (py.bad !== null) throw new Error(`zipfile testzip: first bad entry ${py.bad}`);
      const expected = c.files.map((f, i) => ({ name: f.name, size: f.size, sha256: sha256Of(i, f.size) }));
      const got = [...py.entries].sort((a, b) => a.name.localeCompare(b.name));
      const want = [...expected].sort((a, b) => a.name.localeCompare(b.name));
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        const diff = want.find((w, i) => JSON.stringify(w) !== JSON.stringify(got[i]));
        throw new Error(`entries differ from the sources (first: ${JSON.stringify(diff)})`);
      }
      return {
        unzip: 'No errors detected',
        sevenZip: 'Everything is Ok',
        python: `${got.length} entries, names and SHA-256 equal`,
      };
    });
    console.log(`  ${c.label}: ${JSON.stringify(checks.value)}`);
    const mbs = (bytes: number, s: number) => Math.round((bytes / 1e6 / s) * 10) / 10;
    return {
      label: c.label,
      files: c.files.length,
      bytes: totalBytes,
      archiveBytes: download.value,
      multipartFiles: t.files.filter((f) => f.mode === 'multipart').length,
      partSizes: [...new Set(t.files.flatMap((f) => (f.partSize ? [f.partSize] : [])))],
      filesWithCrc32: withCrc,
      upload: { seconds: upload.seconds, mbPerSecond: mbs(totalBytes, upload.seconds), peakRssMB: upload.peakRssMB },
      completeTransfer: { seconds: complete.seconds, peakRssMB: complete.peakRssMB },
      zipBuild: { seconds: zip.seconds, mbPerSecond: mbs(download.value, zip.seconds), peakRssMB: zip.peakRssMB },
      download: {
        seconds: download.seconds,
        mbPerSecond: mbs(download.value, download.seconds),
        peakRssMB: download.peakRssMB,
      },
      checks: { seconds: checks.seconds, ...checks.value },
    };
  } finally {
    rmSync(path.join(dir, `${t.id}.zip`), { force: true });
    await fetch(`${app.apiOrigin}/api/transfers/${t.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${accessToken}` },
    }).catch(() => undefined);
  }
}

export async function benchBigTransfer(app: LocalApp) {
  const scale = Number(process.env.BIG_TRANSFER_SCALE ?? 1);
  const disk = execFileSync('df', ['-h', os.tmpdir()], { encoding: 'utf8' }).trim();
  console.log(disk);
  const user = await createSignedInUser(app, `bench.big.${Date.now()}@example.com`, { role: 'teamelite' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-bench-big-'));
  const results = [];
  try {
    for (const c of cases(scale)) results.push(await runCase(app, user.accessToken, c, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    name: 'big-transfer',
    description:
      'Multi-GB end to end on the local stack: create, upload by the upload engine (presigned PUTs, CRC-32 recorded per part / single file), complete (background for large files, polled), ZIP by the zip-build job, download to disk, unzip -t + 7z t + Python zipfile (names, sizes, SHA-256 of every entry vs the generated sources). Peak RSS = this process (gateway, handlers and jobs run in it), sampled every 200 ms per phase.',
    parameters: { scale, diskAtStart: disk },
    results,
    summary: Object.fromEntries(
      results.map((r) => [
        r.label,
        {
          upload: r.upload,
          completeTransfer: r.completeTransfer,
          zipBuild: r.zipBuild,
          download: r.download,
          checksSeconds: r.checks.seconds,
          valid: true,
          archiveBytes: r.archiveBytes,
          partSizes: r.partSizes,
        },
      ]),
    ),
  };
}
