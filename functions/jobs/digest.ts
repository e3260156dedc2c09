import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { continueJob } from '../adapters/jobs';
import { fileIdSchema, transferIdSchema } from '../domain/transfer-api';
import { MINUTE_MS } from '../domain/units';
import { log } from '../lib/log';
import { runDigest, type DigestResult } from '../services/digest';
import { DIGEST_JOB } from '../services/digest-start';

const inputSchema = z.object({
  slug: transferIdSchema,
  fileId: fileIdSchema,
  attempt: z.string().check(z.regex(/^[0-9a-f-]{36}$/u)),
});

/** What a run keeps of its time when it stops reading: saving its state and the hand-over. */
const STOP_BEFORE_TIMEOUT_MS = MINUTE_MS;
/** A run without a Lambda context (a test calling the handler) plans on Lambda's 15 minutes. */
const DEFAULT_RUN_MS = 15 * MINUTE_MS;

/**
 * Started asynchronously when a file completes (and by the manifest route for a file whose
 * digest never started or died): the file's SHA-256, read from S3 in order; a file too large
 * for one run goes on in the next from the saved hash state (services/digest.ts).
 */
export async function handler(event: unknown, context?: Context): Promise<DigestResult | 'bad-input'> {
  const parsed = inputSchema.safeParse(event);
  if (!parsed.success) {
    log.error('digest: bad input', { issues: parsed.error.issues.length });
    return 'bad-input';
  }
  const input = parsed.data;
  const runMs = context?.getRemainingTimeInMillis() ?? DEFAULT_RUN_MS;
  const deadline = Date.now() + Math.max(MINUTE_MS, runMs - STOP_BEFORE_TIMEOUT_MS);
  const result = await runDigest(input, { deadline, continueRun: () => continueJob(DIGEST_JOB, input, context) });
  log.info('digest', { slug: input.slug, fileId: input.fileId, result });
  return result;
}
