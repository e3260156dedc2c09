import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, DeleteObjectCommand, DeleteObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { multipartUpload } from '../../functions/adapters/zip/s3-zip';
import { type ComposeRates, invocationsOf, planComposedZip } from '../../functions/adapters/zip/zip-compose';
import { crc32 } from '../../functions/adapters/zip/zip-format';
import { planZip } from '../../functions/adapters/zip/zip-stream';
import { GiB, MiB } from '../../functions/domain/units';
import { startMoto } from '../../test/helpers/moto';
import { REPO_ROOT, type LocalApp } from '../local/app';
import { localBucketNames } from '../local/stack';
import { median } from './machine';
import { runBenchChild } from './run-child';
import { type ChildConfig, type ChildMode, type ChildResult, entryName } from './zip-build-child';

const childScript = fileURLToPath(new URL('./zip-build-child.ts', import.meta.url));
const CHILD_TIMEOUT_MS = 20 * 60_000;

interface StoreOptions {
  /** archive sizes (sum of the source objects) */
  readonly sizesGiB: readonly number[];
  readonly files: number;
  /** alternating rounds per size: each round builds once per mode */
  readonly rounds: number;
}

export interface ZipBenchOptions {
  readonly s3rver: StoreOptions;
  /** moto_server copies ranges itself (UploadPartCopy), as S3 does; memory only, so smaller sizes */
  readonly moto: StoreOptions | null;
  /** the streaming builder's part size and uploads in flight (its defaults) */
  readonly partSize: number;
  readonly concurrency: number;
  /** the composing builder's requests in flight (the job's default) */
  readonly composeConcurrency: number;
}

const numbers = (v: string | undefined) =>
  v
    ?.split(',')
    .map(Number)
    .filter((n) => n > 0);

/** ZIP_BENCH_SIZES_GIB=0.25 ZIP_BENCH_MOTO_SIZES_GIB=0.25 ZIP_BENCH_ROUNDS=1 give a quick smoke run; ZIP_BENCH_MOTO_SIZES_GIB=0 skips moto. */
function defaults(): ZipBenchOptions {
  const rounds = Number(process.env.ZIP_BENCH_ROUNDS) > 0 ? Number(process.env.ZIP_BENCH_ROUNDS) : 3;
  const motoSizes = process.env.ZIP_BENCH_MOTO_SIZES_GIB === '0' ? [] : numbers(process.env.ZIP_BENCH_MOTO_SIZES_GIB);
  return {
    s3rver: { sizesGiB: numbers(process.env.ZIP_BENCH_SIZES_GIB) ?? [1, 3], files: 20, rounds },
    moto: motoSizes?.length === 0 ? null : { sizesGiB: motoSizes ?? [0.5, 1], files: 20, rounds },
    partSize: 16 * MiB,
    concurrency: 2,
    composeConcurrency: 8,
  };
}

function runChild(cfg: ChildConfig): Promise<ChildResult> {
  return runBenchChild<ChildResult>({
    script: childScript,
    envName: 'ZIP_BENCH_CHILD',
    config: cfg,
    label: `zip-build child (${cfg.mode})`,
    timeoutMs: CHILD_TIMEOUT_MS,
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
  readonly mode: ChildMode;
  readonly sourceBytes: number;
  readonly seconds: number;
  /** archive (or copy) bytes written per second, MB = 10^6 bytes */
  readonly mbPerSecond: number;
  readonly bytesWritten: number;
  readonly parts: number;
  readonly calls: Record<string, number>;
  readonly maxRssMB: number;
}

const toMB = (kib: number) => Math.round((kib * 1024) / 1e6);
const round2 = (n: number) => Math.round(n * 100) / 100;
const MODES: readonly ChildMode[] = ['compose', 'stream', 'copy'];

interface Store {
  readonly name: 's3rver' | 'moto';
  readonly endpoint: string;
  readonly credentials: ChildConfig['credentials'];
  readonly bucket: string;
  readonly client: S3Client;
}

function clientOf(endpoint: string, credentials: ChildConfig['credentials']): S3Client {
  return new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

async function benchStore(store: Store, so: StoreOptions, opts: ZipBenchOptions, seed: Buffer) {
  const runId = `bench/zip-build/${Date.now()}`;
  const base = {
    endpoint: store.endpoint,
    credentials: store.credentials,
    bucket: store.bucket,
    partSize: opts.partSize,
    concurrency: opts.concurrency,
    composeConcurrency: opts.composeConcurrency,
  };
  const idle = await runChild({ ...base, mode: 'idle', objects: [], targetKey: `${runId}/idle` });
  const bySize: Record<string, { rounds: Round[]; sourceUploadSeconds: number; archiveBytes: number }> = {};
  for (const gib of so.sizesGiB) {
    const total = Math.round(gib * GiB);
    const each = Math.floor(total / so.files);
    const objects: { key: string; size: number; crc: number }[] = [];
    const t0 = performance.now();
    for (let i = 0; i < so.files; i++) {
      const size = i === so.files - 1 ? total - each * (so.files - 1) : each;
      const key = `${runId}/${gib}GiB/src-${i}`;
      let crc = 0;
      // the CRC-32 the uploader records, computed on the way up
      const body = (function* () {
        for (const chunk of objectBytes(seed, i, size)) {
          crc = crc32(chunk, crc);
          yield chunk;
        }
      })();
      await multipartUpload(store.client, { bucket: store.bucket, key }, body, {
        partSize: 16 * MiB,
        concurrency: 4,
        expectedSize: size,
      });
      objects.push({ key, size, crc: crc >>> 0 });
    }
    const sourceUploadSeconds = (performance.now() - t0) / 1000;
    const archiveBytes = planZip(objects.map((o, i) => ({ name: entryName(i), size: o.size }))).size;

    const rounds: Round[] = [];
    try {
      for (let r = 0; r < so.rounds; r++) {
        // Rotate which goes first, so warm caches or a busy neighbour favour none.
        const order = MODES.map((_, k) => MODES[(k + r) % MODES.length]!);
        for (const mode of order) {
          const targetKey = `${runId}/${gib}GiB/out-${mode}-${r}`;
          const res = await runChild({ ...base, mode, objects, targetKey });
          await store.client.send(new DeleteObjectCommand({ Bucket: store.bucket, Key: targetKey }));
          if (mode !== 'copy' && res.bytesWritten !== archiveBytes)
            throw new Error(`${mode} zip of ${res.bytesWritten} bytes, planned ${archiveBytes}`);
          rounds.push({
            mode,
            sourceBytes: total,
            seconds: round2(res.seconds),
            mbPerSecond: round2(res.bytesWritten / 1e6 / res.seconds),
            bytesWritten: res.bytesWritten,
            parts: res.parts,
            calls: res.calls,
            maxRssMB: toMB(res.maxRssKiB),
          });
          console.log(
            `  ${store.name} ${gib} GiB ${mode} round ${r + 1}: ${round2(res.bytesWritten / 1e6 / res.seconds)} MB/s, ${toMB(res.maxRssKiB)} MB RSS, calls ${JSON.stringify(res.calls)}`,
          );
        }
      }
    } finally {
      await store.client.send(
        new DeleteObjectsCommand({
          Bucket: store.bucket,
          Delete: { Objects: objects.map((o) => ({ Key: o.key })) },
        }),
      );
    }
    bySize[`${gib}GiB`] = { rounds, sourceUploadSeconds: round2(sourceUploadSeconds), archiveBytes };
  }

  const sizes = Object.fromEntries(
    Object.entries(bySize).map(([label, { rounds, archiveBytes }]) => {
      const of = (mode: ChildMode) => rounds.filter((r) => r.mode === mode);
      const mbs = (mode: ChildMode) => median(of(mode).map((r) => r.mbPerSecond));
      const peak = (mode: ChildMode) => Math.max(...of(mode).map((r) => r.maxRssMB));
      const callsOf = (mode: ChildMode) => of(mode)[0]?.calls ?? {};
      const total = (c: Record<string, number>) => Object.values(c).reduce((n, v) => n + v, 0);
      return [
        label,
        {
          archiveBytes,
          composeMBPerSecond: mbs('compose'),
          streamMBPerSecond: mbs('stream'),
          copyMBPerSecond: mbs('copy'),
          composeOverCopy: round2(mbs('compose') / mbs('copy')),
          streamOverCopy: round2(mbs('stream') / mbs('copy')),
          composeOverStream: round2(mbs('compose') / mbs('stream')),
          peakRssMB: { compose: peak('compose'), stream: peak('stream'), copy: peak('copy') },
          s3Calls: {
            compose: { total: total(callsOf('compose')), ...callsOf('compose') },
            stream: { total: total(callsOf('stream')), ...callsOf('stream') },
            copy: { total: total(callsOf('copy')), ...callsOf('copy') },
          },
        },
      ];
    }),
  );
  return { idleChildRssMB: toMB(idle.maxRssKiB), sizes: bySize, summary: sizes };
}

/**
 * Stated AWS rates for the projection. ASSUMPTIONS, not measurements: AWS publishes no
 * UploadPartCopy throughput; 50 MiB/s a request is the conservative figure of decision 0072,
 * with 25 and 100 MiB/s beside it to show how the projection moves.
 */
const AWS_RATES: ComposeRates = {
  copyBytesPerSecond: 50 * MiB,
  throughBytesPerSecond: 40 * MiB,
  concurrency: 8,
  requestSeconds: 0.2,
};
/** What one zip-build run plans on: Lambda's 900 s less the job's four-minute margin (functions/jobs/zip-build.ts). */
const INVOCATION_BUDGET_SECONDS = 600;

/** 2.5 TB in 5,000 equal files (60-byte names) from the plan alone: parts, bytes, invocations, hours. */
function projection(streamMBPerSecond: number) {
  const files = 5000;
  const total = 2.5e12;
  const entries = Array.from({ length: files }, (_, i) => ({
    nameBytes: 60,
    size: Math.floor(total / files) + (i < total % files ? 1 : 0),
  }));
  const plan = planComposedZip(entries);
  const at = (copyMiBs: number) => {
    const rates = { ...AWS_RATES, copyBytesPerSecond: copyMiBs * MiB };
    const inv = invocationsOf(plan, rates, INVOCATION_BUDGET_SECONDS);
    const seconds = inv.reduce((n, i) => n + i.seconds, 0);
    return { copyMiBPerSecondPerRequest: copyMiBs, invocations: inv.length, hours: round2(seconds / 3600) };
  };
  const copyParts = plan.parts.filter((p) => p.kind === 'copy').length;
  return {
    archive: '2.5 TB (2.5e12 bytes) in 5,000 files of 500 MB, 60-byte names',
    assumption:
      'ASSUMED AWS rates (not measured): one UploadPartCopy request copies 50 MiB/s inside S3 (AWS publishes no figure; 25 and 100 MiB/s shown beside it), an assembled part moves 40 MiB/s through the function, 8 requests in flight, 0.2 s a request, 600 s planned per 900 s invocation',
    plan: {
      parts: plan.parts.length,
      copyParts,
      uploadParts: plan.parts.length - copyParts,
      copyPartBytes: plan.copyPartBytes,
      archiveBytes: plan.size,
      copiedByS3GB: round2(plan.totals.copyBytes / 1e9),
      readThroughFunctionGB: round2((plan.totals.readBytes + plan.totals.framingBytes) / 1e9),
      filesReadWhole: plan.readThrough.length,
    },
    composed: [at(50), at(25), at(100)],
    /** the streaming builder moves every byte at the rate measured here, in one run it cannot resume */
    streaming: {
      atMeasuredMBPerSecond: streamMBPerSecond,
      hours: round2(plan.size / 1e6 / streamMBPerSecond / 3600),
      bytesOneInvocationCoversGB: round2((streamMBPerSecond * 900) / 1e3),
      feasible: false,
    },
  };
}

/**
 * "Download all" ZIP build: the composing builder (the zip-build job's path when every file has
 * its CRC-32) vs the streaming builder (the old path, the baseline) vs a plain streamed copy of
 * the same objects, each build in its own child process (peak RSS = its maxRSS), every S3 call
 * counted, medians of rotated rounds, on s3rver (the app's emulator: no ranged UploadPartCopy,
 * so the composer reads every byte and checks CRCs) and on moto_server (copies ranges itself),
 * and a projection for 2.5 TB / 5,000 files in AWS from the plan at stated rates.
 */
export async function benchZipBuild(app: LocalApp, opts: ZipBenchOptions = defaults()) {
  const seed = randomBytes(16 * MiB);
  const s3rverCreds = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const s3rver: Store = {
    name: 's3rver',
    endpoint: app.stack.urls.s3,
    credentials: s3rverCreds,
    bucket: localBucketNames('hongkong').bucket,
    client: clientOf(app.stack.urls.s3, s3rverCreds),
  };
  const local = await benchStore(s3rver, opts.s3rver, opts, seed);
  s3rver.client.destroy();

  let moto: Awaited<ReturnType<typeof benchStore>> | null = null;
  if (opts.moto) {
    const server = await startMoto();
    const motoCreds = { accessKeyId: 'bench', secretAccessKey: 'bench' };
    const client = clientOf(server.url, motoCreds);
    try {
      await client.send(new CreateBucketCommand({ Bucket: 'zip-bench' }));
      moto = await benchStore(
        { name: 'moto', endpoint: server.url, credentials: motoCreds, bucket: 'zip-bench', client },
        opts.moto,
        opts,
        seed,
      );
    } finally {
      client.destroy();
      await server.stop();
    }
  }

  const largest = Object.values(local.summary).at(-1)!;
  const rssPeaks = Object.values(local.summary).map((s) => s.peakRssMB.compose);
  const goals = {
    peakRssMBBelow: 256,
    composeRssMet: rssPeaks.every((p) => p < 256),
    streamRssMet: Object.values(local.summary).every((s) => s.peakRssMB.stream < 256),
  };
  return {
    name: 'zip-build',
    description:
      'Download-all ZIP build: composing builder (buildComposedZip: UploadPartCopy ranges + assembled parts) vs streaming builder (buildZipToS3, baseline) vs plain streamed copy of the same objects; each build in its own process (peak RSS = its maxRSS); S3 calls counted per command; medians of rotated rounds; MB/s = archive (or copy) bytes written per second, MB = 10^6; on s3rver (no ranged UploadPartCopy: every byte read through and CRC-checked) and moto_server (ranged copies done by the store); plus a projection for 2.5 TB / 5,000 files in AWS from the plan at ASSUMED rates.',
    parameters: { ...opts, partSizeMiB: opts.partSize / MiB },
    s3rver: local,
    moto,
    summary: {
      s3rver: { idleChildRssMB: local.idleChildRssMB, ...local.summary },
      ...(moto ? { moto: { idleChildRssMB: moto.idleChildRssMB, ...moto.summary } } : {}),
      projection2_5TB: projection(largest.streamMBPerSecond),
      goals,
    },
  };
}
