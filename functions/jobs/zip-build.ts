import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { continueJob } from '../adapters/jobs';
import { attachmentDisposition, bucketFor } from '../adapters/storage';
import { buildComposedZip } from '../adapters/zip/s3-compose';
import { buildZipToS3 } from '../adapters/zip/s3-zip';
import { planZip } from '../adapters/zip/zip-stream';
import { transferIdSchema } from '../domain/transfer-api';
import { MINUTE_MS } from '../domain/units';
import { s3 } from '../lib/clients/s3';
import { log } from '../lib/log';
import { buildTransferZip, type ZipBuildArgs, type ZipBuildOutcome } from '../services/downloads';

const inputSchema = z.object({
  slug: transferIdSchema,
  contentHash: z.string().check(z.regex(/^[a-f0-9]{24}$/u)),
  attempt: z.string().check(z.regex(/^[0-9a-f-]{36}$/u)),
});

/**
 * What a run keeps of its time when it stops starting parts: the parts in flight (a copy range
 * of up to 5 GiB at a conservative 50 MiB/s takes under two minutes) and the hand-over.
 */
const STOP_BEFORE_TIMEOUT_MS = 4 * MINUTE_MS;
/** A run without a Lambda context (a test calling the handler) plans on Lambda's 15 minutes. */
const DEFAULT_RUN_MS = 15 * MINUTE_MS;

/**
 * Started asynchronously by POST /zip, under a lease its heartbeat renews (services/downloads.ts
 * ZIP_LEASE). When every file's CRC-32 was recorded at upload, the archive is composed inside S3
 * (copy ranges S3 moves itself; the run stops at its deadline and starts itself again, resuming
 * from the parts done: docs/decisions/0072); otherwise the files are streamed from S3 into the
 * archive in constant memory, in one run.
 */
export async function handler(event: unknown, context?: Context): Promise<void> {
  const parsed = inputSchema.safeParse(event);
  if (!parsed.success) {
    log.error('zip-build: bad input', { issues: parsed.error.issues.length });
    return;
  }
  const input = parsed.data;
  const runMs = context?.getRemainingTimeInMillis() ?? DEFAULT_RUN_MS;
  const deadline = Date.now() + Math.max(MINUTE_MS, runMs - STOP_BEFORE_TIMEOUT_MS);
  await buildTransferZip(
    input,
    (args) => buildArchive(args, deadline),
    undefined,
    () => continueJob('zip-build', input, context),
  );
}

async function buildArchive({ t, files, key, name, signal }: ZipBuildArgs, deadline: number): Promise<ZipBuildOutcome> {
  const { bucket, awsRegion } = bucketFor(t.region, t.anon);
  const sources = files.map((f) => ({
    key: f.key,
    name: f.itemPath || f.fileName,
    size: f.size,
    mtime: f.createdAt,
    crc: f.crc32,
  }));
  const common = {
    s3: s3(awsRegion),
    sourceBucket: bucket,
    targetBucket: bucket,
    targetKey: key,
    contentDisposition: attachmentDisposition(name),
    signal,
  };
  if (sources.every((f) => f.crc !== undefined)) {
    const plan = planZip(sources);
    const out = await buildComposedZip({
      ...common,
      deadline,
      entries: plan.entries.map((e) => ({
        key: e.key,
        nameBytes: Buffer.from(e.entryName, 'utf8'),
        mtimeMs: e.mtimeMs,
        size: e.size,
        crc: e.crc!,
      })),
    });
    return out.status === 'complete' ? { size: out.size } : { paused: true };
  }
  return buildZipToS3({ ...common, entries: sources });
}
