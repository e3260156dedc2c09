import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { transferIdSchema } from '../domain/transfer-api';
import { buildZipToS3 } from '../adapters/zip/s3-zip';
import { bucketFor, attachmentDisposition } from '../adapters/storage';
import { s3 } from '../lib/clients/s3';
import { buildTransferZip } from '../services/downloads';
import { log } from '../lib/log';

const inputSchema = z.object({
  slug: transferIdSchema,
  contentHash: z.string().check(z.regex(/^[a-f0-9]{24}$/u)),
  attempt: z.string().check(z.regex(/^[0-9a-f-]{36}$/u)),
});

/**
 * Started asynchronously by POST /zip. Streams the transfer's files from S3 into one stored
 * ZIP written back by multipart upload, in constant memory (never through a Lambda response),
 * under a lease its heartbeat renews (services/downloads.ts ZIP_LEASE).
 */
export async function handler(event: unknown, _context?: Context): Promise<void> {
  const parsed = inputSchema.safeParse(event);
  if (!parsed.success) {
    log.error('zip-build: bad input', { issues: parsed.error.issues.length });
    return;
  }
  await buildTransferZip(parsed.data, async ({ t, files, key, name, signal }) => {
    const { bucket, awsRegion } = bucketFor(t.region, t.anon);
    return buildZipToS3({
      s3: s3(awsRegion),
      sourceBucket: bucket,
      targetBucket: bucket,
      targetKey: key,
      entries: files.map((f) => ({ key: f.key, name: f.itemPath || f.fileName, size: f.size, mtime: f.createdAt })),
      contentDisposition: attachmentDisposition(name),
      signal,
    });
  });
}
