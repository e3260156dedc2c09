import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { fileIdSchema, transferIdSchema } from '../domain/transfer-api';
import { runFileCompletion, type CompleteJobResult } from '../services/completion';
import { log } from '../lib/log';

const inputSchema = z.object({
  slug: transferIdSchema,
  fileId: fileIdSchema,
  attempt: z.string().check(z.regex(/^[0-9a-f-]{36}$/u)),
});

/**
 * Started asynchronously by the complete routes for files too large to put together within a
 * request (services/completion.ts): CompleteMultipartUpload with S3's long timeout, then the
 * file is marked uploaded and, when asked for, the transfer is sent. S3 failing throws, so the
 * async invoke retries it; a superseded or finished claim does nothing.
 */
export async function handler(event: unknown, _context?: Context): Promise<CompleteJobResult | 'bad-input'> {
  const parsed = inputSchema.safeParse(event);
  if (!parsed.success) {
    log.error('complete-upload: bad input', { issues: parsed.error.issues.length });
    return 'bad-input';
  }
  const result = await runFileCompletion(parsed.data);
  log.info('complete-upload', { slug: parsed.data.slug, fileId: parsed.data.fileId, result });
  return result;
}
