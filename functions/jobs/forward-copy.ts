import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { FILE_ID_LENGTH, transferIdSchema } from '../domain/transfer-api';
import { runForwardCopy } from '../services/transfer-actions';
import { log } from '../lib/log';

const fileId = z.string().regex(new RegExp(`^[A-Za-z0-9]{${FILE_ID_LENGTH}}$`, 'u'));
const inputSchema = z.object({ slug: transferIdSchema, files: z.array(z.tuple([fileId, fileId])).min(1) });

/**
 * Started asynchronously by POST /transfers/forward for a transfer too large to copy within the
 * request: copies its objects inside S3, then sends the copy and mails its recipients.
 */
export async function handler(event: unknown, _context?: Context): Promise<void> {
  const parsed = inputSchema.safeParse(event);
  if (!parsed.success) {
    log.error('forward-copy: bad input', { issues: parsed.error.issues.length });
    return;
  }
  await runForwardCopy(parsed.data);
}
