/**
 * One build of the zip-build benchmark in its own process, so its peak RSS is its own.
 * Config: JSON in ZIP_BENCH_CHILD. Prints one line `RESULT {json}` on stdout.
 *   mode 'zip'  : buildZipToS3 of the objects
 *   mode 'copy' : the same objects streamed back to back into one multipart object by the
 *                 same reader and uploader, without ZIP framing or CRC (the baseline)
 *   mode 'idle' : loads the same modules and client, builds nothing (RSS floor of the runner)
 */
import { buildZipToS3, multipartUpload, readS3Object } from '../../functions/adapters/zip/s3-zip';
import { localFunctionsS3 } from '../local/s3';

export interface ChildConfig {
  readonly mode: 'zip' | 'copy' | 'idle';
  readonly endpoint: string;
  readonly bucket: string;
  readonly objects: readonly { key: string; size: number }[];
  readonly targetKey: string;
  readonly partSize: number;
  readonly concurrency: number;
}

export interface ChildResult {
  readonly mode: ChildConfig['mode'];
  readonly seconds: number;
  readonly bytesWritten: number;
  readonly parts: number;
  /** process.resourceUsage().maxRSS, in KiB (Linux reports kilobytes) */
  readonly maxRssKiB: number;
}

async function main() {
  const cfg = JSON.parse(process.env.ZIP_BENCH_CHILD ?? '') as ChildConfig;
  const s3 = localFunctionsS3(cfg.endpoint);
  const started = performance.now();
  let out = { size: 0, parts: 0 };
  if (cfg.mode === 'zip') {
    out = await buildZipToS3({
      s3,
      sourceBucket: cfg.bucket,
      entries: cfg.objects.map((o, i) => ({
        key: o.key,
        name: `file-${String(i).padStart(2, '0')}.bin`,
        size: o.size,
      })),
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
      {
        partSize: cfg.partSize,
        concurrency: cfg.concurrency,
        expectedSize: total,
      },
    );
  }
  const seconds = (performance.now() - started) / 1000;
  if (cfg.mode !== 'idle') {
    const head = await s3.headObject({ Bucket: cfg.bucket, Key: cfg.targetKey });
    if (head.ContentLength !== out.size)
      throw new Error(`stored object has ${head.ContentLength} bytes, build reported ${out.size}`);
  }
  const result: ChildResult = {
    mode: cfg.mode,
    seconds,
    bytesWritten: out.size,
    parts: out.parts,
    maxRssKiB: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
