import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, openAsBlob, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { LocalApp } from '../local/app';
import { localS3Client } from '../local/s3';
import { ENV } from '../../functions/lib/env-names';
import {
  SIGNED_PUT_EXPIRES_SECONDS,
  parallelismForTry,
  partCountFor,
  partSizeFor,
} from '../../functions/domain/upload';
import { runUpload, type UploadApi } from '../../frontend/src/shared/upload/engine';
import { median } from './machine';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

interface Round {
  /** start to the completed object, s */
  seconds: number;
  mibPerSecond: number;
  /** start until the last part was stored (before CompleteMultipartUpload), s */
  partsSeconds: number;
}

/** A file of `bytes` random bytes, written in 16 MiB chunks. */
function writeTempFile(dir: string, name: string, bytes: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, '');
  const chunk = 16 * MiB;
  for (let written = 0; written < bytes; written += chunk)
    appendFileSync(file, randomBytes(Math.min(chunk, bytes - written)));
  return file;
}

/**
 * What the transfer API does for a multipart file, minus the database: presigns UploadPart,
 * keeps the recorded parts, completes from them (never ListParts).
 */
function benchApi(
  s3: S3Client,
  Bucket: string,
  Key: string,
  UploadId: string,
  onPartsDone: () => void,
  partCount: number,
): UploadApi {
  const parts = new Map<number, string>();
  return {
    async sign(req) {
      const urls = await Promise.all(
        (req.partNumbers ?? []).map(async (PartNumber) => ({
          partNumber: PartNumber,
          url: await getSignedUrl(s3, new UploadPartCommand({ Bucket, Key, UploadId, PartNumber }), {
            expiresIn: SIGNED_PUT_EXPIRES_SECONDS,
          }),
        })),
      );
      return { fileId: req.fileId, parts: urls, expiresAt: Date.now() + SIGNED_PUT_EXPIRES_SECONDS * 1000 };
    },
    async recordPart(req) {
      parts.set(req.partNumber, req.etag);
      if (parts.size === partCount) onPartsDone();
    },
    async completeFile() {
      const Parts: CompletedPart[] = [...parts]
        .sort(([a], [b]) => a - b)
        .map(([PartNumber, ETag]) => ({ PartNumber, ETag }));
      await s3.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }));
    },
  };
}

async function checkAndDelete(s3: S3Client, Bucket: string, Key: string, size: number): Promise<void> {
  const head = await s3.send(new HeadObjectCommand({ Bucket, Key }));
  if (head.ContentLength !== size) throw new Error(`${Key}: stored ${head.ContentLength} bytes, expected ${size}`);
  await s3.send(new DeleteObjectCommand({ Bucket, Key }));
}

async function engineRound(
  s3: S3Client,
  Bucket: string,
  file: string,
  size: number,
  key: string,
  parallelism: number,
): Promise<Round> {
  const partSize = partSizeFor(size);
  const partCount = partCountFor(size);
  const blob = await openAsBlob(file);
  const started = performance.now();
  let partsAt = 0;
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
  const api = benchApi(s3, Bucket, key, UploadId!, () => (partsAt = performance.now()), partCount);
  await runUpload({
    api,
    files: [
      {
        plan: { fileId: 'benchfile0', fileName: path.basename(file), size, mode: 'multipart', partSize, partCount },
        blob,
      },
    ],
    fetchImpl: fetch,
    parallelism,
  });
  const seconds = (performance.now() - started) / 1000;
  await checkAndDelete(s3, Bucket, key, size);
  return { seconds, mibPerSecond: size / MiB / seconds, partsSeconds: partsAt ? (partsAt - started) / 1000 : seconds };
}

async function sdkRound(
  s3: S3Client,
  Bucket: string,
  file: string,
  size: number,
  key: string,
  queueSize: number,
): Promise<Round> {
  const started = performance.now();
  let partsAt = 0;
  const upload = new Upload({
    client: s3,
    params: { Bucket, Key: key, Body: createReadStream(file, { highWaterMark: MiB }) },
    partSize: partSizeFor(size),
    queueSize,
    leavePartsOnError: false,
  });
  upload.on('httpUploadProgress', (p) => {
    if (p.loaded === size && partsAt === 0) partsAt = performance.now();
  });
  await upload.done();
  const seconds = (performance.now() - started) / 1000;
  await checkAndDelete(s3, Bucket, key, size);
  return { seconds, mibPerSecond: size / MiB / seconds, partsSeconds: partsAt ? (partsAt - started) / 1000 : seconds };
}

/**
 * Upload throughput of a 1 GiB file through our browser upload engine (run under Node with
 * fetch, parts presigned as the API would) vs the AWS SDK's lib-storage Upload with the same
 * part size and parallelism, alternating rounds in the same run. Goal: ratio >= 0.9.
 */
export async function benchUploadThroughput(
  app: LocalApp,
  opts = { rounds: 3, fileBytes: 1 * GiB, warmUpBytes: 32 * MiB },
) {
  const buckets = JSON.parse(app.stack.env[ENV.regionBuckets]!) as Record<string, { bucket: string }>;
  const Bucket = buckets[app.stack.env[ENV.defaultRegion]!]!.bucket;
  const s3 = localS3Client(app.stack.urls.s3);
  const parallelism = parallelismForTry(1);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-bench-upload-'));
  try {
    const file = writeTempFile(dir, 'payload.bin', opts.fileBytes);
    const warm = writeTempFile(dir, 'warm.bin', opts.warmUpBytes);
    await engineRound(s3, Bucket, warm, opts.warmUpBytes, 'bench/warm-engine', parallelism);
    await sdkRound(s3, Bucket, warm, opts.warmUpBytes, 'bench/warm-sdk', parallelism);

    const engine: Round[] = [];
    const sdk: Round[] = [];
    for (let i = 0; i < opts.rounds; i++) {
      engine.push(await engineRound(s3, Bucket, file, opts.fileBytes, `bench/engine-${i}`, parallelism));
      console.log(`  engine round ${i + 1}: ${engine.at(-1)!.mibPerSecond.toFixed(1)} MiB/s`);
      sdk.push(await sdkRound(s3, Bucket, file, opts.fileBytes, `bench/sdk-${i}`, parallelism));
      console.log(`  lib-storage round ${i + 1}: ${sdk.at(-1)!.mibPerSecond.toFixed(1)} MiB/s`);
    }
    const med = (rs: Round[]) => ({
      mibPerSecond: median(rs.map((r) => r.mibPerSecond)),
      seconds: median(rs.map((r) => r.seconds)),
      partsMibPerSecond: median(rs.map((r) => opts.fileBytes / MiB / r.partsSeconds)),
    });
    const e = med(engine);
    const s = med(sdk);
    const ratio = e.mibPerSecond / s.mibPerSecond;
    return {
      name: 'upload-throughput',
      description:
        'Upload throughput of a 1 GiB file through our browser upload engine vs the AWS SDK lib-storage Upload with the same part size and parallelism, same run (medians of alternating rounds); goal ratio >= 0.9',
      parameters: {
        ...opts,
        partSize: partSizeFor(opts.fileBytes),
        partCount: partCountFor(opts.fileBytes),
        parallelism,
        target: 's3rver (local stack)',
      },
      results: { engine, libStorage: sdk },
      summary: {
        engine: e,
        libStorage: s,
        ratio,
        partsRatio: e.partsMibPerSecond / s.partsMibPerSecond,
        goal: 0.9,
        met: ratio >= 0.9,
      },
    };
  } finally {
    s3.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
