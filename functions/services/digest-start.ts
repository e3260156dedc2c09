/**
 * Starting the digest job (services/digest.ts) for files that completed. A module of its own,
 * without the hashing, so the routes that only start it (the complete routes, the manifest)
 * do not carry the hash's WebAssembly in their bundles.
 */
import { randomUUID } from 'node:crypto';
import { startJob } from '../adapters/jobs';
import type { FileRecord } from '../data/transfers';
import { errorFields, log } from '../lib/log';

export const DIGEST_JOB = 'digest';

export interface DigestJobInput {
  readonly slug: string;
  readonly fileId: string;
  /** the claim the run (and the runs that continue it) holds on the file (data/transfers.ts claimDigest) */
  readonly attempt: string;
}

/** Never fails the caller: a digest that did not start is started by the next manifest request. */
export async function startDigest(slug: string, fileId: string): Promise<void> {
  try {
    await startJob(DIGEST_JOB, { slug, fileId, attempt: randomUUID() } satisfies DigestJobInput);
  } catch (err) {
    log.error('digest job not started', { slug, fileId, ...errorFields(err) });
  }
}

/** How many digests one request starts again at most; the next request starts the rest. */
export const DIGEST_RESTARTS_PER_REQUEST = 10;

/**
 * Uploaded files without a digest and without a live claim: never started (their start failed,
 * or they completed before digests existed) or their run died. Those are started again.
 */
export function digestsToStart(files: readonly FileRecord[], now: number): FileRecord[] {
  return files
    .filter((f) => f.status === 'uploaded' && f.sha256 === undefined && (f.digestLeaseUntil ?? 0) < now)
    .slice(0, DIGEST_RESTARTS_PER_REQUEST);
}
