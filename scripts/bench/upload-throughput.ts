/**
 * Upload throughput of one file through our upload engine (frontend/src/shared/upload/engine.ts,
 * under Node with fetch) against the local API's real routes (create, sign, record each part,
 * complete), vs raw presigned part PUTs of the same file to the same bucket (every URL signed
 * before the clock starts, no API, no state, no CRC) with the same part size and parallelism;
 * alternating rounds in one run, medians. Two cases: the plan without a speed hint (1 GiB: 5 MiB
 * parts) and the plan for the speed the raw rounds measured (the hint the app remembers).
 * Goal: engine >= 0.9 of raw, from the start until every part is stored (and, for the engine,
 * recorded). End to end (the engine's background completion vs one CompleteMultipartUpload) is
 * reported beside it. UPLOAD_BENCH_MIB shortens the file, UPLOAD_BENCH_ROUNDS sets the rounds;
 * UPLOAD_BENCH_BASELINE_ENGINE=<path of another engine.ts> measures that engine too, in the same rounds.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import { runUpload } from '../../frontend/src/shared/upload/engine';
import type { LocalApp } from '../local/app';
import { localS3Client } from '../local/s3';
import { createSignedInUser } from '../local/users';
import { median } from './machine';
import { routeApi } from './route-api';

const MiB = 1024 ** 2;

interface Round {
  /** start until every part is stored (engine: and recorded), s */
  partsSeconds: number;
  partsMiBPerSecond: number;
  /** start until the object is complete, s */
  seconds: number;
  mibPerSecond: number;
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

type RunUpload = typeof runUpload;

async function engineRound(
  ctx: Ctx,
  file: string,
  size: number,
  speedHint?: number,
  run: RunUpload = runUpload,
): Promise<Round & { plan: PlannedFile }> {
  const t = await createTransfer(ctx, size, speedHint);
  const plan = t.files[0]!;
  const blob = await openAsBlob(file);
  let partsAt = 0;
  const started = performance.now();
  await run({
    api: routeApi(ctx.app, t, () => (partsAt = performance.now())),
    files: [{ plan, blob }],
    fetchImpl: fetch,
    parallelism: ctx.parallelism,
  });
  const seconds = (performance.now() - started) / 1000;
  const partsSeconds = (partsAt - started) / 1000;
  await deleteTransfer(ctx, t.id);
  return {
    plan,
    partsSeconds,
    partsMiBPerSecond: size / MiB / partsSeconds,
    seconds,
    mibPerSecond: size / MiB / seconds,
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
  const blob = await openAsBlob(file);
  const etags: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(ctx.parallelism, count) }, async () => {
      while (next < count) {
        const i = next++;
        const body = blob.slice(i * partSize, Math.min(size, (i + 1) * partSize));
        const res = await fetch(urls[i]!, { method: 'PUT', body });
        if (!res.ok) throw new Error(`PUT part ${i + 1}: ${res.status} ${await res.text()}`);
        etags[i] = res.headers.get('etag') ?? '';
      }
    }),
  );
  const partsSeconds = (performance.now() - started) / 1000;
  await ctx.s3.send(
    new CompleteMultipartUploadCommand({
      Bucket,
      Key: key,
      UploadId,
      MultipartUpload: { Parts: etags.map((ETag, i) => ({ PartNumber: i + 1, ETag })) },
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const head = await ctx.s3.send(new HeadObjectCommand({ Bucket, Key: key }));
  if (head.ContentLength !== size) throw new Error(`${key}: stored ${head.ContentLength} bytes, expected ${size}`);
  await ctx.s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
  return { partsSeconds, partsMiBPerSecond: size / MiB / partsSeconds, seconds, mibPerSecond: size / MiB / seconds };
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
  return {
    engine: e,
    raw: r,
    ratio,
    endToEndRatio: round2(e.endToEndMiBPerSecond / r.endToEndMiBPerSecond),
    goal: 0.9,
    met: ratio >= 0.9,
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
  const ctx: Ctx = {
    app,
    s3,
    bucket: buckets[app.stack.env[ENV.defaultRegion]!]!.bucket,
    accessToken: user.accessToken,
    parallelism,
  };
  // Another engine measured in the same rounds (e.g. an earlier commit's engine.ts copied beside it).
  const baselinePath = process.env.UPLOAD_BENCH_BASELINE_ENGINE;
  const baselineRun: RunUpload | undefined = baselinePath
    ? ((await import(path.resolve(baselinePath))) as { runUpload: RunUpload }).runUpload
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
    const sides = baselineRun ? (['engine', 'raw', 'baseline'] as const) : (['engine', 'raw'] as const);
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
              side === 'baseline' ? baselineRun : runUpload,
            );
            plan = r.plan;
            (side === 'engine' ? engine : baselineEngine).push({
              partsSeconds: r.partsSeconds,
              partsMiBPerSecond: r.partsMiBPerSecond,
              seconds: r.seconds,
              mibPerSecond: r.mibPerSecond,
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
        "One file through the upload engine (Node, fetch) against the local API routes (create, sign, record every part, complete in the background) vs raw presigned part PUTs of the same parts to the same bucket (URLs signed before the clock, no API/state/CRC), same part size and parallelism, alternating rounds, medians; ratio = engine / raw from start to every part stored (engine: and recorded); end to end includes the engine's background completion vs one CompleteMultipartUpload. Cases: the plan without a speed hint, and with the raw median speed as the hint. Goal ratio >= 0.9.",
      parameters: {
        ...opts,
        parallelism,
        target: 's3rver + local gateway (local stack)',
        ...(baselinePath ? { baselineEngine: baselinePath } : {}),
      },
      results: cases,
      summary,
    };
  } finally {
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
