/**
 * Each uploaded file's SHA-256, for the download manifest (docs/decisions/0073): the digest
 * job reads the object from S3 in order and hashes it. A run stops at its deadline, saves the
 * hash's state with the offset it stands at, and starts itself again; the next run goes on
 * from there without reading a byte twice. Every write is conditional on the run's claim, so
 * retries and concurrent starts record one digest, once.
 */
import type { Readable } from 'node:stream';
import { createSHA256, type IHasher } from 'hash-wasm';
import * as storage from '../adapters/storage';
import * as data from '../data/transfers';
import { GiB, MINUTE_MS } from '../domain/units';
import { errorFields, log } from '../lib/log';
import type { DigestJobInput } from './digest-start';
import { refOf } from './object-refs';

/** The job's timeout (15 min) plus a minute: a claim older than that has no live run. */
export const DIGEST_LEASE_MS = 16 * MINUTE_MS;
/** Progress is saved every this many bytes too, so a run that dies re-reads at most this much. */
export const DIGEST_CHECKPOINT_BYTES = GiB;

export type DigestResult = 'done' | 'paused' | 'busy' | 'gone' | 'superseded';

export interface DigestRun {
  /** when the run stops reading and hands over to its continuation */
  readonly deadline: number;
  /** starts the next run with the same input (the job's own async invoke) */
  readonly continueRun: () => Promise<void>;
  readonly now?: () => number;
  readonly checkpointBytes?: number;
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

export async function runDigest(input: DigestJobInput, run: DigestRun): Promise<DigestResult> {
  const now = run.now ?? Date.now;
  const [t, f] = await Promise.all([data.getTransfer(input.slug), data.getFile(input.slug, input.fileId)]);
  if (!t || !f || f.status !== 'uploaded' || t.purged || t.status === 'cancelled' || t.status === 'deleted')
    return 'gone';
  if (f.sha256 !== undefined) return 'done';
  if (!(await data.claimDigest(input.slug, input.fileId, input.attempt, now() + DIGEST_LEASE_MS, now()))) return 'busy';
  try {
    return await hashFile(input, { ...f, ref: refOf(t, f.key) }, run, now);
  } catch (err) {
    await data.expireDigestLease(input.slug, input.fileId, input.attempt).catch(() => false);
    if (storage.isMissingObject(err)) {
      log.warn('digest: the object is gone', { slug: input.slug, fileId: input.fileId });
      return 'gone';
    }
    log.error('digest failed', { slug: input.slug, fileId: input.fileId, ...errorFields(err) });
    throw err;
  }
}

interface Source {
  readonly ref: storage.ObjectRef;
  readonly size: number;
  readonly digestOffset?: number;
  readonly digestState?: Uint8Array;
  readonly digestEtag?: string;
}

async function hashFile(input: DigestJobInput, f: Source, run: DigestRun, now: () => number): Promise<DigestResult> {
  const hasher = await createSHA256();
  let offset = 0;
  let etag = f.digestEtag;
  if (f.digestState && f.digestOffset !== undefined && f.digestOffset > 0 && etag) {
    hasher.load(f.digestState);
    offset = f.digestOffset;
  } else {
    hasher.init();
    etag = undefined;
  }
  if (offset < f.size) {
    let read: { body: Readable; etag: string };
    try {
      read = await storage.readObjectFrom(f.ref, offset, etag);
    } catch (err) {
      if (statusOf(err) !== 412 || offset === 0) throw err;
      // The object changed since the saved bytes were read: its saved state means nothing now.
      log.warn('digest: the object changed, starting over', { slug: input.slug, fileId: input.fileId });
      await data.clearDigestProgress(input.slug, input.fileId, input.attempt);
      hasher.init();
      offset = 0;
      read = await storage.readObjectFrom(f.ref, 0);
    }
    etag = read.etag;
    const stepped = await consume(read.body, hasher, offset, f.size, run, now, async (at) =>
      data.saveDigestProgress(input.slug, input.fileId, input.attempt, {
        offset: at,
        state: hasher.save(),
        etag: read.etag,
        leaseUntil: now() + DIGEST_LEASE_MS,
      }),
    );
    if (stepped.stop === 'superseded') return 'superseded';
    offset = stepped.offset;
    if (stepped.stop === 'deadline') {
      await run.continueRun();
      return 'paused';
    }
  }
  if (offset !== f.size) throw new Error(`digest: read ${offset} bytes of an object recorded as ${f.size}`);
  const sha256 = hasher.digest('hex');
  return (await data.finishDigest(input.slug, input.fileId, input.attempt, sha256)) ? 'done' : 'superseded';
}

/**
 * Feeds the stream to the hash in order. Saves progress every checkpoint and at the deadline
 * (then stops reading: breaking out of the loop destroys the stream).
 */
async function consume(
  body: Readable,
  hasher: IHasher,
  start: number,
  size: number,
  run: DigestRun,
  now: () => number,
  save: (offset: number) => Promise<boolean>,
): Promise<{ offset: number; stop?: 'deadline' | 'superseded' }> {
  const every = run.checkpointBytes ?? DIGEST_CHECKPOINT_BYTES;
  let offset = start;
  let saved = start;
  for await (const chunk of body) {
    const bytes = chunk as Uint8Array;
    hasher.update(bytes);
    offset += bytes.byteLength;
    if (offset >= size) continue;
    const late = now() >= run.deadline;
    if (late || offset - saved >= every) {
      if (!(await save(offset))) return { offset, stop: 'superseded' };
      saved = offset;
      if (late) return { offset, stop: 'deadline' };
    }
  }
  return { offset };
}
