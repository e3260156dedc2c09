import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { fileIdSchema, transferIdSchema } from '../domain/transfer-api';
import { COMPLETE_JOB, runFileCompletion, type CompleteJobResult } from '../services/completion';
import { restartStaleCompletions, type StaleSweepResult } from '../services/completion-sweep';
import { mailAbandoned } from '../services/live-transfers';
import { continueJob } from '../adapters/jobs';
import { recordJobRun } from '../data/system';
import { log } from '../lib/log';

const inputSchema = z.object({
  slug: transferIdSchema,
  fileId: fileIdSchema,
  attempt: z.string().check(z.regex(/^[0-9a-f-]{36}$/u)),
});
/** From the expiry sweep: a live transfer it abandoned, whose waiting recipients are told. */
const withdrawnSchema = z.object({ withdrawn: transferIdSchema });

const isScheduled = (event: unknown) =>
  typeof event === 'object' &&
  event !== null &&
  (event as Record<string, unknown>)['detail-type'] === 'Scheduled Event';

/**
 * Started asynchronously by the complete routes for files too large to put together within a
 * request (services/completion.ts): CompleteMultipartUpload with S3's long timeout, then the
 * file is marked uploaded and, when asked for, the transfer is sent. S3 failing throws, so the
 * async invoke retries it; a superseded or finished claim does nothing. On its schedule it
 * starts again, each in a run of its own, the claims whose job died (services/completion-sweep.ts).
 */
export async function handler(
  event: unknown,
  context?: Context,
): Promise<CompleteJobResult | StaleSweepResult | 'withdrawn' | 'bad-input'> {
  const withdrawn = withdrawnSchema.safeParse(event);
  if (withdrawn.success) {
    await mailAbandoned(withdrawn.data.withdrawn);
    return 'withdrawn';
  }
  if (isScheduled(event)) {
    const result = await restartStaleCompletions((input) => continueJob(COMPLETE_JOB, input, context));
    await recordJobRun(COMPLETE_JOB);
    log.info('complete-upload schedule', { ...result });
    return result;
  }
  const parsed = inputSchema.safeParse(event);
  if (!parsed.success) {
    log.error('complete-upload: bad input', { issues: parsed.error.issues.length });
    return 'bad-input';
  }
  const result = await runFileCompletion(parsed.data);
  log.info('complete-upload', { slug: parsed.data.slug, fileId: parsed.data.fileId, result });
  return result;
}
