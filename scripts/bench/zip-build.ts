import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DeleteObjectCommand, DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { multipartUpload } from '../../functions/adapters/zip/s3-zip';
import { planZip } from '../../functions/adapters/zip/zip-stream';
import { GiB, MiB } from '../../functions/domain/units';
import { REPO_ROOT, type LocalApp } from '../local/app';
import { localFunctionsS3, localS3Client } from '../local/s3';
import { localBucketNames } from '../local/stack';
import { median } from './machine';
import type { ChildConfig, ChildResult } from './zip-build-child';

const childScript = fileURLToPath(new URL('./zip-build-child.ts', import.meta.url));
const CHILD_TIMEOUT_MS = 15 * 60_000;

export interface ZipBenchOptions {
  /** archive sizes (sum of the source objects) */
  readonly sizesGiB: readonly number[];
  readonly files: number;
  /** alternating rounds per size: each round builds the ZIP and the plain copy once */
  readonly rounds: number;
  readonly partSize: number;
  readonly concurrency: number;
}

/** ZIP_BENCH_SIZES_GIB=0.25,0.5 and ZIP_BENCH_ROUNDS=1 give a quick smoke run. */
function defaults(): ZipBenchOptions {
  const sizes = process.env.ZIP_BENCH_SIZES_GIB?.split(',')
    .map(Number)
    .filter((n) => n > 0);
  const rounds = Number(process.env.ZIP_BENCH_ROUNDS);
  return {
    sizesGiB: sizes?.length ? sizes : [1, 3],
    files: 20,
    rounds: rounds > 0 ? rounds : 3,
    partSize: 16 * MiB,
    concurrency: 2,
  };
}

function runChild(cfg: ChildConfig): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript], {
      cwd: REPO_ROOT,
      env: { ...process.env, ZIP_BENCH_CHILD: JSON.stringify(cfg), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('exit', (code, sig) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as ChildResult);
      else reject(new Error(`zip-build child (${cfg.mode}) exited ${code ?? sig}: ${stderr.slice(-2000)}`));
    });
  });
}

/** Random-looking, distinct per object and per 16 MiB block, without generating GiBs of randomness. */
function* objectBytes(seed: Buffer, objectIndex: number, size: number): Generator<Uint8Array> {
  let left = size;
  for (let block = 0; left > 0; block++) {
    const rot = (objectIndex * 7919 + block * 104_729) % seed.length;
    for (const part of [seed.subarray(rot), seed.subarray(0, rot)]) {
      const n = Math.min(left, part.length);
      if (n > 0) yield part.subarray(0, n);
      left -= n;
    }
  }
}

interface Round {
  readonly mode: 'zip' | 'copy';
  readonly sourceBytes: number;
  readonly seconds: number;
  readonly mibPerSecond: number;
  readonly bytesWritten: number;
  readonly parts: number;
  readonly maxRssMB: number;
}

const toMB = (kib: number) => Math.round((kib * 1024) / 1e6);
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * "Download all" ZIP build (S3 -> ZIP -> S3 multipart, child process) vs a plain streamed
 * S3 copy of the same objects by the same reader and uploader, in alternating rounds, at
 * several archive sizes. Throughput counts source bytes; RSS is each child's peak.
 */
export async function benchZipBuild(app: LocalApp, opts: ZipBenchOptions = defaults()) {
  const s3 = localS3Client(app.stack.urls.s3);
  const bucket = localBucketNames('hongkong').bucket;
  const runId = `bench/zip-build/${Date.now()}`;
  const base = { endpoint: app.stack.urls.s3, bucket, partSize: opts.partSize, concurrency: opts.concurrency };
  const seed = randomBytes(16 * MiB);

  const idle = await runChild({ ...base, mode: 'idle', objects: [], targetKey: `${runId}/idle` });
  const bySize: Record<string, { rounds: Round[]; sourceUploadSeconds: number; archiveBytes: number }> = {};

  for (const gib of opts.sizesGiB) {
    const total = Math.round(gib * GiB);
    const each = Math.floor(total / opts.files);
    const objects = Array.from({ length: opts.files }, (_, i) => ({
      key: `${runId}/${gib}GiB/src-${i}`,
      size: i === opts.files - 1 ? total - each * (opts.files - 1) : each,
    }));
    const t0 = performance.now();
    for (const [i, o] of objects.entries()) {
      await multipartUpload(localFunctionsS3(app.stack.urls.s3), { bucket, key: o.key }, objectBytes(seed, i, o.size), {
        partSize: opts.partSize,
        concurrency: 4,
        expectedSize: o.size,
      });
    }
    const sourceUploadSeconds = (performance.now() - t0) / 1000;
    const archiveBytes = planZip(
      objects.map((o, i) => ({ name: `file-${String(i).padStart(2, '0')}.bin`, size: o.size })),
    ).size;

    const rounds: Round[] = [];
    try {
      for (let r = 0; r < opts.rounds; r++) {
        // Alternate which goes first, so warm caches or a busy neighbour favour neither.
        const order: ('zip' | 'copy')[] = r % 2 ? ['copy', 'zip'] : ['zip', 'copy'];
        for (const mode of order) {
          const targetKey = `${runId}/${gib}GiB/out-${mode}-${r}`;
          const res = await runChild({ ...base, mode, objects, targetKey });
          await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: targetKey }));
          if (mode === 'zip' && res.bytesWritten !== archiveBytes)
            throw new Error(`zip of ${res.bytesWritten} bytes, planned ${archiveBytes}`);
          rounds.push({
            mode,
            sourceBytes: total,
            seconds: round2(res.seconds),
            mibPerSecond: round2(total / MiB / res.seconds),
            bytesWritten: res.bytesWritten,
            parts: res.parts,
            maxRssMB: toMB(res.maxRssKiB),
          });
          console.log(
            `  ${gib} GiB ${mode} round ${r + 1}: ${round2(total / MiB / res.seconds)} MiB/s, ${toMB(res.maxRssKiB)} MB RSS`,
          );
        }
      }
    } finally {
      await s3.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects.map((o) => ({ Key: o.key })) } }),
      );
    }
    bySize[`${gib}GiB`] = { rounds, sourceUploadSeconds: round2(sourceUploadSeconds), archiveBytes };
  }
  s3.destroy();

  const sizes = Object.fromEntries(
    Object.entries(bySize).map(([label, { rounds, archiveBytes }]) => {
      const zip = rounds.filter((r) => r.mode === 'zip');
      const copy = rounds.filter((r) => r.mode === 'copy');
      const zipMiBs = median(zip.map((r) => r.mibPerSecond));
      const copyMiBs = median(copy.map((r) => r.mibPerSecond));
      return [
        label,
        {
          archiveBytes,
          zipMiBPerSecond: zipMiBs,
          copyMiBPerSecond: copyMiBs,
          throughputZipOverCopy: round2(zipMiBs / copyMiBs),
          zipPeakRssMB: Math.max(...zip.map((r) => r.maxRssMB)),
          copyPeakRssMB: Math.max(...copy.map((r) => r.maxRssMB)),
        },
      ];
    }),
  );
  const peaks = Object.values(sizes).map((s) => s.zipPeakRssMB);
  const ratios = Object.values(sizes).map((s) => s.throughputZipOverCopy);
  const goals = {
    throughputZipOverCopyAtLeast: 0.7,
    peakRssMBBelow: 256,
    throughputMet: ratios.every((r) => r >= 0.7),
    rssMet: peaks.every((p) => p < 256),
    /** peak RSS of the largest minus the smallest size: near 0 when memory is independent of size */
    rssGrowthMB: peaks.length ? peaks[peaks.length - 1]! - peaks[0]! : 0,
  };
  return {
    name: 'zip-build',
    description:
      'Download-all ZIP build (S3 GetObject -> STORED ZIP64 stream -> S3 multipart) vs a plain streamed S3 copy of the same objects by the same reader/uploader; each build in its own process (peak RSS = its maxRSS); medians of alternating rounds; throughput counts source bytes.',
    parameters: { ...opts, partSizeMiB: opts.partSize / MiB, idleChildRssMB: toMB(idle.maxRssKiB) },
    sizes: bySize,
    summary: { idleChildRssMB: toMB(idle.maxRssKiB), ...sizes, goals },
  };
}
