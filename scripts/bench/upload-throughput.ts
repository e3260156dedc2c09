/**
 * Upload throughput of one file through our upload engine (frontend/src/shared/upload/engine.ts,
 * under Node with fetch) against the local API's real routes (create, sign, record each part,
 * complete), vs raw presigned part PUTs of the same file to the same bucket (every URL signed
 * before the clock starts, no API, no state, no CRC) with the same part size and parallelism;
 * alternating rounds in one run, medians. Two cases: the plan without a speed hint (1 GiB: 5 MiB
 * parts) and the plan for the speed the raw rounds measured (the hint the app remembers).
 * Each side uploads from its own process (upload-child.ts), as a browser is its own machine; the
 * API stays in this one and s3rver in its own, and each round notes the CPU seconds of all three.
 * Goal: engine >= 0.9 of raw, from the start until every part is stored (and, for the engine,
 * recorded), as the ratio of the medians and as the median of each round's own ratio. End to end (the engine's background completion vs one CompleteMultipartUpload) is
 * reported beside it. UPLOAD_BENCH_MIB shortens the file, UPLOAD_BENCH_ROUNDS sets the rounds;
 * UPLOAD_BENCH_BASELINE_ENGINE=<path of another engine.ts> measures that engine too, in the same rounds;
 * UPLOAD_BENCH_CRC=portable gives the engine the browser's CRC-32 instead of Node's zlib (the CLI's).
 * UPLOAD_BENCH_LINE_MBIT=<megabits per second> sends both sides over one shaped line (line-child.ts:
 * a shared uplink at that rate, UPLOAD_BENCH_RTT_MS of round trip, default 20), as a sender's
 * upload meets the network; without it the ceiling is this machine's CPU.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { CreateTransferResponse, PlannedFile } from '../../functions/domain/transfer-api';
import { parallelismForTry } from '../../functions/domain/upload';
import { ENV } from '../../functions/lib/env-names';
import { REPO_ROOT, type LocalApp } from '../local/app';
import { localS3Client } from '../local/s3';
import { createSignedInUser } from '../local/users';
import { median } from './machine';
import type { UploadChildConfig, UploadChildResult } from './upload-child';
import type { LineChildConfig } from './line-child';
import type { LineRoutes } from './line-fetch';
import { runBenchChild } from './run-child';

const MiB = 1024 ** 2;

interface Round {
  /** start until every part is stored (engine: and recorded), s */
  partsSeconds: number;
  partsMiBPerSecond: number;
  /** start until the object is complete, s */
  seconds: number;
  mibPerSecond: number;
  /** CPU seconds in the round: the uploading process, the API's (gateway and functions), s3rver's */
  cpu: { side: number; api: number; s3: number; line?: number };
  /** engine: time summed over its part PUTs, sign and record calls (upload-child.ts) */
  calls?: UploadChildResult['calls'];
}

/** A file of `bytes` random bytes, written in 16 MiB chunks. */
function writeTempFile(dir: string, name: string, bytes: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, '');
  for (let written = 0; written < bytes; written += 16 * MiB)
    appendFileSync(file, randomBytes(Math.min(16 * MiB, bytes - written)));
  return file;
}

interface Ctx {
  readonly app: LocalApp;
  readonly s3: S3Client;
  readonly bucket: string;
  readonly accessToken: string;
  readonly parallelism: number;
  /** the engine's CRC-32: zlib as the CLI runs it, or portable as a browser (UPLOAD_BENCH_CRC) */
  readonly crc: 'zlib' | 'portable';
  /** the shaped line both sides send over, when UPLOAD_BENCH_LINE_MBIT is set */
  readonly line?: { readonly routes: LineRoutes; readonly pid: number | undefined };
}

async function createTransfer(ctx: Ctx, size: number, speedHint?: number): Promise<CreateTransferResponse> {
  const res = await fetch(`${ctx.app.apiOrigin}/api/me/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.accessToken}` },
    body: JSON.stringify({
      sendAs: 'link',
      fileObjects: [{ fileName: 'payload.bin', size }],
      ...(speedHint ? { uploadBytesPerSecond: speedHint } : {}),
    }),
  });
  if (res.status !== 201) throw new Error(`create ${res.status} ${await res.text()}`);
  return (await res.json()) as CreateTransferResponse;
}

async function deleteTransfer(ctx: Ctx, id: string): Promise<void> {
  const res = await fetch(`${ctx.app.apiOrigin}/api/transfers/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${ctx.accessToken}` },
  });
  if (!res.ok) throw new Error(`delete ${id}: ${res.status} ${await res.text()}`);
}

const childScript = fileURLToPath(new URL('./upload-child.ts', import.meta.url));
const CHILD_TIMEOUT_MS = 30 * 60_000;

function runChild(cfg: UploadChildConfig): Promise<UploadChildResult> {
  return runBenchChild<UploadChildResult>({
    script: childScript,
    envName: 'UPLOAD_CHILD',
    config: cfg,
    label: `upload child (${cfg.side})`,
    timeoutMs: CHILD_TIMEOUT_MS,
    onStderr: (stderr) => {
      const trace = stderr.split('\n').find((l) => l.startsWith('TRACE '));
      if (trace) writeFileSync(path.join(os.tmpdir(), `upload-trace-${Date.now()}.json`), trace.slice(6));
    },
  });
}

/** CPU seconds a process has used so far (Linux /proc; 0 elsewhere). */
function cpuSecondsOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of the API (this process: gateway and functions) and of s3rver over `work`. */
async function withCpu<T>(
  ctx: Ctx,
  work: () => Promise<T>,
): Promise<T & { apiCpuSeconds: number; s3CpuSeconds: number; lineCpuSeconds?: number }> {
  const s3Pid = ctx.app.stack.child('s3').process.pid;
  const api = process.cpuUsage();
  const s3 = cpuSecondsOf(s3Pid);
  const line = cpuSecondsOf(ctx.line?.pid);
  const out = await work();
  const used = process.cpuUsage(api);
  return {
    ...out,
    apiCpuSeconds: (used.user + used.system) / 1e6,
    s3CpuSeconds: cpuSecondsOf(s3Pid) - s3,
    ...(ctx.line ? { lineCpuSeconds: cpuSecondsOf(ctx.line.pid) - line } : {}),
  };
}

const cpuOf = (r: { cpuSeconds: number; apiCpuSeconds: number; s3CpuSeconds: number; lineCpuSeconds?: number }) => ({
  side: round2(r.cpuSeconds),
  api: round2(r.apiCpuSeconds),
  s3: round2(r.s3CpuSeconds),
  ...(r.lineCpuSeconds === undefined ? {} : { line: round2(r.lineCpuSeconds) }),
});

const lineChildScript = fileURLToPath(new URL('./line-child.ts', import.meta.url));

/** Starts the shaped line (line-child.ts) in front of s3rver and the API; stop() kills it. */
async function startLine(app: LocalApp, mbit: number, rttMs: number) {
  const origins = [new URL(app.stack.urls.s3).origin, new URL(app.apiOrigin).origin];
  const config: LineChildConfig = { targets: origins.map((o) => Number(new URL(o).port)), mbit, rttMs };
  const child = spawn(process.execPath, ['--import', 'tsx', lineChildScript], {
    cwd: REPO_ROOT,
    env: { ...process.env, LINE_CHILD: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ports = await new Promise<number[]>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve((JSON.parse(line.slice(6)) as { ports: number[] }).ports);
    });
    child.on('exit', (code) => reject(new Error(`line child exited ${code}`)));
  });
  return {
    routes: Object.fromEntries(origins.map((o, i) => [o, ports[i]!])) as LineRoutes,
    pid: child.pid,
    stop: () => child.kill('SIGKILL'),
  };
}

async function engineRound(
  ctx: Ctx,
  file: string,
  size: number,
  speedHint?: number,
  engineModule?: string,
): Promise<Round & { plan: PlannedFile }> {
  const t = await createTransfer(ctx, size, speedHint);
  const plan = t.files[0]!;
  const r = await withCpu(ctx, () =>
    runChild({
      side: 'engine',
      apiOrigin: ctx.app.apiOrigin,
      transfer: { id: t.id, uploadToken: t.uploadToken, files: [plan] },
      file,
      parallelism: ctx.parallelism,
      crc: ctx.crc,
      ...(engineModule ? { engineModule } : {}),
      ...(ctx.line ? { line: ctx.line.routes } : {}),
    }),
  );
  // The file's background work (its SHA-256 digest, the malware scan) is the server's, not the
  // line's: it finishes here, outside the clock, instead of slowing whichever round comes next.
  await ctx.app.gateway.idle();
  await deleteTransfer(ctx, t.id);
  await ctx.app.gateway.idle();
  return {
    plan,
    partsSeconds: r.partsSeconds,
    partsMiBPerSecond: size / MiB / r.partsSeconds,
    seconds: r.seconds!,
    mibPerSecond: size / MiB / r.seconds!,
    cpu: cpuOf(r),
    ...(r.calls ? { calls: r.calls } : {}),
  };
}

/** The same parts by presigned PUTs, all signed before the clock starts: no API, no record, no CRC. */
async function rawRound(ctx: Ctx, file: string, size: number, partSize: number, key: string): Promise<Round> {
  const Bucket = ctx.bucket;
  const { UploadId } = await ctx.s3.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
  const count = Math.max(1, Math.ceil(size / partSize));
  const urls = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      getSignedUrl(ctx.s3, new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber: i + 1 }), {
        expiresIn: 3600,
      }),
    ),
  );
  const r = await withCpu(ctx, () =>
    runChild({
      side: 'raw',
      urls,
      partSize,
      size,
      file,
      parallelism: ctx.parallelism,
      ...(ctx.line ? { line: ctx.line.routes } : {}),
    }),
  );
  // the child's clock stops at its last PUT; the completion is timed here, as one more step
  const completing = performance.now();
  await ctx.s3.send(
    new CompleteMultipartUploadCommand({
      Bucket,
      Key: key,
      UploadId,
      MultipartUpload: { Parts: r.etags!.map((ETag, i) => ({ PartNumber: i + 1, ETag })) },
    }),
  );
  const seconds = r.partsSeconds + (performance.now() - completing) / 1000;
  const head = await ctx.s3.send(new HeadObjectCommand({ Bucket, Key: key }));
  if (head.ContentLength !== size) throw new Error(`${key}: stored ${head.ContentLength} bytes, expected ${size}`);
  await ctx.s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
  return {
    partsSeconds: r.partsSeconds,
    partsMiBPerSecond: size / MiB / r.partsSeconds,
    seconds,
    mibPerSecond: size / MiB / seconds,
    cpu: cpuOf(r),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function summarise(engine: Round[], raw: Round[]) {
  const med = (rs: Round[]) => ({
    partsMiBPerSecond: round2(median(rs.map((r) => r.partsMiBPerSecond))),
    endToEndMiBPerSecond: round2(median(rs.map((r) => r.mibPerSecond))),
  });
  const e = med(engine);
  const r = med(raw);
  const ratio = round2(e.partsMiBPerSecond / r.partsMiBPerSecond);
  // each round's engine against the raw side of the same round: a busy minute slows both
  const paired = round2(
    median(engine.map((en, i) => en.partsMiBPerSecond / raw[i]!.partsMiBPerSecond).filter(Number.isFinite)),
  );
  const cpu = (rs: Round[]) => ({
    side: round2(median(rs.map((x) => x.cpu.side))),
    api: round2(median(rs.map((x) => x.cpu.api))),
    s3: round2(median(rs.map((x) => x.cpu.s3))),
    ...(rs.every((x) => x.cpu.line !== undefined) ? { line: round2(median(rs.map((x) => x.cpu.line!))) } : {}),
  });
  return {
    engine: e,
    raw: r,
    ratio,
    pairedRatio: paired,
    endToEndRatio: round2(e.endToEndMiBPerSecond / r.endToEndMiBPerSecond),
    cpuSeconds: { engine: cpu(engine), raw: cpu(raw) },
    goal: 0.9,
    met: ratio >= 0.9 && paired >= 0.9,
  };
}

export async function benchUploadThroughput(
  app: LocalApp,
  opts = {
    rounds: Number(process.env.UPLOAD_BENCH_ROUNDS ?? 3),
    fileBytes: Number(process.env.UPLOAD_BENCH_MIB ?? 1024) * MiB,
    warmUpBytes: 64 * MiB,
  },
) {
  const buckets = JSON.parse(app.stack.env[ENV.regionBuckets]!) as Record<string, { bucket: string }>;
  const s3 = localS3Client(app.stack.urls.s3);
  const parallelism = parallelismForTry(1);
  const user = await createSignedInUser(app, `bench.upload.${Date.now()}@example.com`, { role: 'business' });
  const lineMbit = process.env.UPLOAD_BENCH_LINE_MBIT ? Number(process.env.UPLOAD_BENCH_LINE_MBIT) : undefined;
  const rttMs = Number(process.env.UPLOAD_BENCH_RTT_MS ?? 20);
  const line = lineMbit ? await startLine(app, lineMbit, rttMs) : undefined;
  const ctx: Ctx = {
    ...(line ? { line } : {}),
    app,
    s3,
    bucket: buckets[app.stack.env[ENV.defaultRegion]!]!.bucket,
    accessToken: user.accessToken,
    parallelism,
    crc: process.env.UPLOAD_BENCH_CRC === 'portable' ? 'portable' : 'zlib',
  };
  // Another engine measured in the same rounds (e.g. an earlier commit's engine.ts copied beside it).
  const baselinePath = process.env.UPLOAD_BENCH_BASELINE_ENGINE
    ? path.resolve(process.env.UPLOAD_BENCH_BASELINE_ENGINE)
    : undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-bench-upload-'));
  try {
    const file = writeTempFile(dir, 'payload.bin', opts.fileBytes);
    const warm = writeTempFile(dir, 'warm.bin', opts.warmUpBytes);
    const warmEngine = await engineRound(ctx, warm, opts.warmUpBytes);
    await rawRound(ctx, warm, opts.warmUpBytes, warmEngine.plan.partSize!, 'bench/upload-warm-raw');

    const cases: Record<
      string,
      {
        partSize: number;
        partCount: number;
        speedHint?: number;
        engine: Round[];
        raw: Round[];
        baselineEngine: Round[];
      }
    > = {};
    const sides = baselinePath ? (['engine', 'raw', 'baseline'] as const) : (['engine', 'raw'] as const);
    const runCase = async (label: string, speedHint?: number) => {
      const engine: Round[] = [];
      const raw: Round[] = [];
      const baselineEngine: Round[] = [];
      let plan: PlannedFile | undefined;
      for (let i = 0; i < opts.rounds; i++) {
        // Rotate which goes first, so a busy neighbour favours none.
        for (const side of sides.map((_, k) => sides[(k + i) % sides.length]!)) {
          if (side === 'engine' || side === 'baseline') {
            const r = await engineRound(
              ctx,
              file,
              opts.fileBytes,
              speedHint,
              side === 'baseline' ? baselinePath : undefined,
            );
            plan = r.plan;
            (side === 'engine' ? engine : baselineEngine).push({
              partsSeconds: r.partsSeconds,
              partsMiBPerSecond: r.partsMiBPerSecond,
              seconds: r.seconds,
              mibPerSecond: r.mibPerSecond,
              cpu: r.cpu,
              ...(r.calls ? { calls: r.calls } : {}),
            });
          } else {
            // the engine's plan sets the part size; before its first round, the same rule's
            const partSize = plan?.partSize ?? (await createAndPeek(ctx, opts.fileBytes, speedHint));
            raw.push(await rawRound(ctx, file, opts.fileBytes, partSize, `bench/upload-raw-${label}-${i}`));
          }
          const last = (side === 'engine' ? engine : side === 'raw' ? raw : baselineEngine).at(-1)!;
          console.log(
            `  ${label} ${side} round ${i + 1}: parts ${last.partsMiBPerSecond.toFixed(1)} MiB/s, end to end ${last.mibPerSecond.toFixed(1)} MiB/s`,
          );
        }
      }
      cases[label] = {
        partSize: plan!.partSize!,
        partCount: plan!.partCount!,
        ...(speedHint ? { speedHint } : {}),
        engine,
        raw,
        baselineEngine,
      };
    };
    await runCase('no-hint');
    // What the app would remember: the raw PUTs' median speed of the first case.
    const hint = Math.round(median(cases['no-hint']!.raw.map((r) => r.partsMiBPerSecond)) * MiB);
    await runCase('speed-hint', hint);

    const summary = Object.fromEntries(
      Object.entries(cases).map(([label, c]) => [
        label,
        {
          partSizeMiB: c.partSize / MiB,
          partCount: c.partCount,
          ...(c.speedHint ? { speedHintMiBPerSecond: round2(c.speedHint / MiB) } : {}),
          ...summarise(c.engine, c.raw),
          ...(c.baselineEngine.length ? { baselineEngine: summarise(c.baselineEngine, c.raw) } : {}),
        },
      ]),
    );
    return {
      name: 'upload-throughput',
      description:
        "One file through the upload engine (Node, fetch, in its own process) against the local API routes (create, sign, record every part, complete in the background) vs raw presigned part PUTs of the same parts to the same bucket (URLs signed before the clock, no API/state/CRC), same part size and parallelism, each side in its own process, alternating rounds, medians; ratio = engine / raw (of the medians; pairedRatio: the median of each round's ratio) from start to every part stored (engine: and recorded); end to end includes the engine's background completion vs one CompleteMultipartUpload. Cases: the plan without a speed hint, and with the raw median speed as the hint. Goal ratio >= 0.9.",
      parameters: {
        ...opts,
        parallelism,
        engineCrc32: ctx.crc,
        target: 's3rver + local gateway (local stack)',
        ...(lineMbit
          ? {
              line: {
                mbit: lineMbit,
                rttMs,
                shared: 'one uplink for both targets (s3rver, API); downlink only delayed',
              },
            }
          : { line: 'none: the machine is the ceiling' }),
        ...(baselinePath ? { baselineEngine: baselinePath } : {}),
      },
      results: cases,
      summary,
    };
  } finally {
    line?.stop();
    s3.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The part size the API plans for this file and hint (a transfer created and deleted at once). */
async function createAndPeek(ctx: Ctx, size: number, speedHint?: number): Promise<number> {
  const t = await createTransfer(ctx, size, speedHint);
  await deleteTransfer(ctx, t.id);
  return t.files[0]!.partSize!;
}
