import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { fileIdSchema, transferIdSchema } from '../domain/transfer-api';
import { makeThumbnail } from '../adapters/thumbnails';
import { buildThumbnails } from '../services/previews';
import { log } from '../lib/log';

const inputSchema = z.object({
  slug: transferIdSchema,
  fileIds: z.array(fileIdSchema).check(z.minLength(1), z.maxLength(50)),
  claimedAt: z.number().check(z.int(), z.positive()),
});

/**
 * Started asynchronously by the previews routes for the images they claimed: makes
 * each one's thumbnail once with sharp (adapters/thumbnails.ts) and stores it beside the image.
 */
export async function handler(event: unknown, _context?: Context): Promise<{ made: number; failed: number }> {
  const parsed = inputSchema.safeParse(event);
  if (!parsed.success) {
    log.error('thumbnails: bad input', { issues: parsed.error.issues.length });
    return { made: 0, failed: 0 };
  }
  return buildThumbnails(parsed.data, makeThumbnail);
}
