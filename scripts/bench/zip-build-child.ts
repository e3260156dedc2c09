/**
 * One build of the zip-build benchmark in its own process, so its peak RSS is its own.
 * Config: JSON in ZIP_BENCH_CHILD. Prints one line `RESULT {json}` on stdout.
 *   mode 'compose': buildComposedZip of the objects (the path the zip-build job takes when every
 *                   file has its CRC-32): copy ranges by UploadPartCopy where the store has it
 *   mode 'stream' : buildZipToS3, the streaming builder every byte passes through (the baseline)
 *   mode 'copy'   : the same objects streamed back to back into one multipart object by the
 *                   streaming builder's reader and uploader, without ZIP framing or CRC
 *   mode 'idle'   : loads the same modules and client, builds nothing (RSS floor of the runner)
 * Every S3 call the build sends is counted by command name.
 */
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { buildComposedZip } from '../../functions/adapters/zip/s3-compose';
import { buildZipToS3, multipartUpload, readS3Object } from '../../functions/adapters/zip/s3-zip';
import { planZip } from '../../functions/adapters/zip/zip-stream';

export type ChildMode = 'compose' | 'stream' | 'copy' | 'idle';

export interface ChildConfig {
  readonly mode: ChildMode;
  readonly endpoint: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  readonly bucket: string;
  /** size and CRC-32 of each source, as the upload recorded them */
  readonly objects: readonly { key: string; size: number; crc: number }[];
  readonly targetKey: string;
  /** the streaming builder's part size and uploads in flight */
  readonly partSize: number;
  readonly concurrency: number;
  /** requests in flight of the composing builder (the job's default: 8) */
  readonly composeConcurrency: number;
}

export interface ChildResult {
  readonly mode: ChildMode;
  readonly seconds: number;
  readonly bytesWritten: number;
  readonly parts: number;
  /** S3 requests sent, by command name (the archive's HeadObject check by the bench excluded) */
  readonly calls: Record<string, number>;
  /** process.resourceUsage().maxRSS, in KiB (Linux reports kilobytes) */
  readonly maxRssKiB: number;
}

export const entryName = (i: number) => `file-${String(i).padStart(4, '0')}.bin`;
/** every entry's time: fixed, so both builders frame the same archive */
const MTIME = Date.UTC(2026, 10, 28, 12);

async function main() {
  const cfg = JSON.parse(process.env.ZIP_BENCH_CHILD ?? '') as ChildConfig;
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: cfg.endpoint,
    forcePathStyle: true,
    credentials: cfg.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const calls: Record<string, number> = {};
  s3.middlewareStack.add(
    (next, context) => (args) => {
      const name = (context.commandName ?? 'unknown').replace(/Command$/u, '');
      calls[name] = (calls[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCountCalls' },
  );
  const started = performance.now();
  let out = { size: 0, parts: 0 };
  if (cfg.mode === 'compose') {
    const plan = planZip(
      cfg.objects.map((o, i) => ({ key: o.key, name: entryName(i), size: o.size, mtime: MTIME, crc: o.crc })),
    );
    const res = await buildComposedZip({
      s3,
      sourceBucket: cfg.bucket,
      targetBucket: cfg.bucket,
      targetKey: cfg.targetKey,
      concurrency: cfg.composeConcurrency,
      contentDisposition: 'attachment; filename="bench.zip"',
      entries: plan.entries.map((e) => ({
        key: e.key,
        nameBytes: Buffer.from(e.entryName, 'utf8'),
        mtimeMs: e.mtimeMs,
        size: e.size,
        crc: e.crc!,
      })),
    });
    if (res.status !== 'complete') throw new Error('compose paused without a deadline');
    out = { size: res.size, parts: res.parts };
  } else if (cfg.mode === 'stream') {
    out = await buildZipToS3({
      s3,
      sourceBucket: cfg.bucket,
      entries: cfg.objects.map((o, i) => ({ key: o.key, name: entryName(i), size: o.size, mtime: MTIME })),
      targetBucket: cfg.bucket,
      targetKey: cfg.targetKey,
      partSize: cfg.partSize,
      concurrency: cfg.concurrency,
      contentDisposition: 'attachment; filename="bench.zip"',
    });
  } else if (cfg.mode === 'copy') {
    const total = cfg.objects.reduce((n, o) => n + o.size, 0);
    async function* all() {
      for (const o of cfg.objects) yield* readS3Object(s3, { bucket: cfg.bucket, key: o.key, size: o.size });
    }
    out = await multipartUpload(
      s3,
      { bucket: cfg.bucket, key: cfg.targetKey, contentType: 'application/octet-stream' },
      all(),
      { partSize: cfg.partSize, concurrency: cfg.concurrency, expectedSize: total },
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const counted = { ...calls };
  if (cfg.mode !== 'idle') {
    const head = await s3.send(new HeadObjectCommand({ Bucket: cfg.bucket, Key: cfg.targetKey }));
    if (head.ContentLength !== out.size)
      throw new Error(`stored object has ${head.ContentLength} bytes, build reported ${out.size}`);
  }
  const result: ChildResult = {
    mode: cfg.mode,
    seconds,
    bytesWritten: out.size,
    parts: out.parts,
    calls: counted,
    maxRssKiB: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  s3.destroy();
}

// The bench imports this module for its types and names; only the spawned child builds.
if (process.env.ZIP_BENCH_CHILD)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
